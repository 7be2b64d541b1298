# SPDX-License-Identifier: GPL-2.0
# Sourced by the gamepart unit helpers: reads @SYSCONFDIR@/gamepart.conf
# (see gamepart.conf(5)) into shell variables, defaults first.  The file
# is parsed, never sourced: only the known keys are taken, and a value
# that does not fit its key stops the helper with the file and the line.

gamepart_conf=${GAMEPART_CONF:-@SYSCONFDIR@/gamepart.conf}
gamepart=${GAMEPART:-@SBINDIR@/gamepart}

GAMEDATA_NAME=gamedata
PROVISION_NAME=gamedata-new
MOUNT_ROOT=/run/media/gamedata
MOUNT_PATH=
MOUNT_OPTIONS=noatime,nosuid,nodev
OWNER=
LAYOUT=
STRICT=no

conf_error() {
	echo "gamepart: $gamepart_conf:$1: $2" >&2
	exit 2
}

# A name is both an ext4 label (16 bytes at most) and a GPT partition
# name, and udev hands both over escaped: keep to characters that need no
# escaping, so that the names compare as they are.
valid_name() {
	case $1 in
	"" | *[!A-Za-z0-9._-]*) return 1 ;;
	esac
	[ ${#1} -le 16 ]
}

read_config() {
	local line key value n=0
	[ -e "$gamepart_conf" ] || return 0
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		case $line in
		"" | "#"*) continue ;;
		*=*) ;;
		*) conf_error $n "not KEY=VALUE: $line" ;;
		esac
		key=${line%%=*}
		value=${line#*=}
		case $key in
		GAMEDATA_NAME | PROVISION_NAME)
			valid_name "$value" ||
				conf_error $n "$key: '$value' is not 1 to 16 of A-Z a-z 0-9 . _ -" ;;
		MOUNT_ROOT | LAYOUT)
			case $value in /*) ;; "") [ $key = LAYOUT ] ||
				conf_error $n "$key is empty" ;;
			*) conf_error $n "$key: '$value' is not an absolute path" ;;
			esac ;;
		MOUNT_PATH)
			case $value in /* | "") ;;
			*) conf_error $n "$key: '$value' is not an absolute path" ;;
			esac ;;
		MOUNT_OPTIONS)
			case $value in *[!A-Za-z0-9,=._-]*)
				conf_error $n "$key: '$value' is not a mount option list" ;;
			esac ;;
		OWNER)
			case $value in *[!A-Za-z0-9:._-]*)
				conf_error $n "$key: '$value' is not USER[:GROUP]" ;;
			esac ;;
		STRICT)
			case $value in yes | no) ;;
			*) conf_error $n "$key: '$value' is not yes or no" ;;
			esac ;;
		*) conf_error $n "unknown key $key" ;;
		esac
		eval "$key=\$value"
	done <"$gamepart_conf"
	[ "$GAMEDATA_NAME" != "$PROVISION_NAME" ] ||
		conf_error $n "GAMEDATA_NAME and PROVISION_NAME are both $GAMEDATA_NAME"
}

# report_prefixes TARGET: say, for the journal at notice priority, how
# many Proton prefixes of the library at TARGET are not casefolded and
# the one command that converts them (gamepart status gives both); only
# say it: nothing is converted unasked.  Silent when there are none, or
# when status cannot read TARGET.
report_prefixes() {
	"$gamepart" status "$1" 2>/dev/null | while IFS= read -r line; do
		case $line in
		[0-9]*" Proton prefix"*" not casefolded"*": gamepart convert "*)
			echo "<5>gamepart: $1: $line" ;;
		esac
	done
}
