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
ENCODING=utf8-12.1
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
		ENCODING)
			# As gamepart create --encoding names them; a gamepart or an
			# e2fsprogs without the series' encodings refuses the last two
			# when a card is provisioned, saying so in the journal.
			case $value in utf8-12.1 | utf8-nfkd-12.1 | utf8-windows-12.1) ;;
			"") value=utf8-12.1 ;;
			*) conf_error $n "$key: '$value' is not utf8-12.1, utf8-nfkd-12.1 or utf8-windows-12.1" ;;
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

# unescape_findmnt: stdin, a path as findmnt -r writes it (a blank as
# \x20, which dash's printf does not decode), as it is.
unescape_findmnt() {
	sed 's/\\x20/ /g; s/\\x09/\t/g; s/\\x0a/\n/g; s/\\x5c/\\/g'
}

# default_owner: "UID:GID WHO" for a library provisioned with OWNER=
# empty: the user at the screen (seat0's active session, as logind says),
# else the regular user with the lowest uid (UID_MIN to UID_MAX of
# login.defs: the first user made at installation, uid 1000 on SteamOS).
# Nothing, with status 1, when there is neither: the library stays root's.
default_owner() {
	local session uid gid min max who
	session=$(loginctl show-seat seat0 -p ActiveSession --value 2>/dev/null) || session=
	uid=
	if [ -n "$session" ]; then
		uid=$(loginctl show-session "$session" -p User --value 2>/dev/null) || uid=
		who="the user of seat0's active session"
	fi
	if [ -z "$uid" ] || [ "$uid" = 0 ]; then
		min=$(sed -n 's/^UID_MIN[[:space:]]\{1,\}\([0-9]\{1,\}\).*/\1/p' /etc/login.defs 2>/dev/null)
		max=$(sed -n 's/^UID_MAX[[:space:]]\{1,\}\([0-9]\{1,\}\).*/\1/p' /etc/login.defs 2>/dev/null)
		uid=$(getent passwd | awk -F: -v min="${min:-1000}" -v max="${max:-60000}" \
			'$3 >= min && $3 <= max { print $3 }' | sort -n | head -n 1)
		who="the first regular user"
	fi
	[ -n "$uid" ] || return 1
	gid=$(getent passwd "$uid" | cut -d: -f4)
	[ -n "$gid" ] || return 1
	echo "$uid:$gid $who"
}

# report_library TARGET: log, at notice priority, what gamepart status
# says is not casefolded in the library at TARGET (library directories,
# game folders, Proton prefixes), the names that would collide once it is,
# and the one command that converts it all; only say it: nothing is
# converted unasked.  Silent when all is casefolded, or when status cannot
# read TARGET.
report_library() {
	"$gamepart" status "$1" 2>/dev/null | while IFS= read -r line; do
		case $line in
		"not casefolded: "* | "names that would collide once casefolded: "* | "next: "*)
			echo "<5>gamepart: $1: $line" ;;
		esac
	done
}
