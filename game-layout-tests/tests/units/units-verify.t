#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# The udev rule and the systemd units as installed: systemd-analyze verify
# finds nothing wrong in any unit (their commands and man pages exist);
# the rule parses (udevadm verify, where this udevadm has it); the rule's
# helper gives each kind of device the role it must have, and only that;
# a configuration that does not fit is refused with its line; and
# gamepart.conf shows the defaults that apply.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/units.sh"
require_cmd systemd-analyze man
make_scratch
prefix=$scratch/usr
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top" install-units \
	PREFIX="$prefix" SYSCONFDIR="$scratch/etc" >/dev/null
ok $? "make install-units into a scratch prefix"
# What "make install" adds, which the units' Documentation= names.
install -D -m 644 "$top/partition-tool/gamepart.8" "$prefix/share/man/man8/gamepart.8"
unitdir=$prefix/lib/systemd/system
helpers=$prefix/lib/gamepart

# A template is verified through an instance of it; the instance name
# has no ':' here because systemd-analyze verify takes one for a path
# separator.
for u in gamepart-mount@ gamepart-provision@; do
	cp "$unitdir/$u.service" "$unitdir/${u}8-1.service"
done
cp "$unitdir/gamepart-library@.service" "$unitdir/gamepart-library@run-media-gamedata.service"
for u in gamepart-mount@8-1.service gamepart-provision@8-1.service \
	gamepart-library@run-media-gamedata.service \
	gamepart-report.service gamepart-report.timer; do
	out=$(cd "$unitdir" && MANPATH=$prefix/share/man: systemd-analyze verify "./$u" 2>&1)
	is "$?:$out" "0:" "systemd-analyze verify $u: no complaint"
done

if udevadm verify --help >/dev/null 2>&1; then
	udevadm verify --resolve-names=never "$prefix/lib/udev/rules.d/61-gamepart.rules"
	ok $? "udevadm verify: the rule parses"
else
	diag "this udevadm has no verify (systemd < 254): the guest tests load the rule"
fi

# The helper, fed what udev's blkid builtin would have found.
match() {
	env -i GAMEPART_CONF="$scratch/etc/gamepart.conf" PATH="$PATH" "$@" \
		sh "$helpers/gamepart-udev-match"
}
is "$(match ID_FS_TYPE=ext4 ID_FS_LABEL_ENC=gamedata)" GAMEPART_ROLE=gamedata \
	"ext4 labelled gamedata: game data"
is "$(match ID_FS_TYPE=ext4 ID_FS_LABEL_ENC=other ID_PART_ENTRY_SCHEME=gpt ID_PART_ENTRY_NAME=gamedata)" \
	GAMEPART_ROLE=gamedata "ext4 on a GPT partition named gamedata: game data"
is "$(match ID_FS_TYPE=vfat ID_FS_LABEL_ENC=gamedata)" "" \
	"vfat labelled gamedata: nothing"
is "$(match ID_PART_ENTRY_SCHEME=gpt ID_PART_ENTRY_NAME=gamedata-new)" \
	GAMEPART_ROLE=provision "an empty GPT partition named gamedata-new: provision"
is "$(match ID_PART_ENTRY_SCHEME=gpt ID_PART_ENTRY_NAME=gamedata-new ID_FS_TYPE=ext4 ID_FS_LABEL_ENC=photos)" "" \
	"gamedata-new holding ext4: nothing"
is "$(match ID_PART_ENTRY_SCHEME=gpt ID_PART_ENTRY_NAME=gamedata-new ID_FS_TYPE=crypto_LUKS ID_FS_USAGE=crypto)" "" \
	"gamedata-new holding LUKS: nothing"
is "$(match ID_PART_ENTRY_SCHEME=gpt ID_PART_ENTRY_NAME=gamedata-new ID_FS_USAGE=raid)" "" \
	"gamedata-new that is a RAID member: nothing"
is "$(match ID_PART_ENTRY_SCHEME=dos ID_PART_ENTRY_NAME=gamedata-new)" "" \
	"not GPT: nothing"

printf 'GAMEDATA_NAME=games\nPROVISION_NAME=blank\n' >"$scratch/etc/gamepart.conf"
is "$(match ID_FS_TYPE=ext4 ID_FS_LABEL_ENC=games)" GAMEPART_ROLE=gamedata \
	"configured name: ext4 labelled games is game data"
is "$(match ID_FS_TYPE=ext4 ID_FS_LABEL_ENC=gamedata)" "" \
	"configured name: gamedata no longer is"
is "$(match ID_PART_ENTRY_SCHEME=gpt ID_PART_ENTRY_NAME=blank)" GAMEPART_ROLE=provision \
	"configured provisioning name"

bad_conf() {
	printf '%s\n' "$@" >"$scratch/etc/gamepart.conf"
	match ID_FS_TYPE=ext4 ID_FS_LABEL_ENC=gamedata 2>&1 >/dev/null
}
is "$(bad_conf '# a comment' 'GAMEDATA_NAME=a b')" \
	"gamepart: $scratch/etc/gamepart.conf:2: GAMEDATA_NAME: 'a b' is not 1 to 16 of A-Z a-z 0-9 . _ -" \
	"a name with a blank is refused with its line"
is "$(bad_conf 'MOUNT_ROOT=relative')" \
	"gamepart: $scratch/etc/gamepart.conf:1: MOUNT_ROOT: 'relative' is not an absolute path" \
	"a relative mount root is refused"
is "$(bad_conf 'FROB=1')" "gamepart: $scratch/etc/gamepart.conf:1: unknown key FROB" \
	"an unknown key is refused"
is "$(bad_conf 'ENCODING=utf8')" \
	"gamepart: $scratch/etc/gamepart.conf:1: ENCODING: 'utf8' is not utf8-12.1, utf8-nfkd-12.1 or utf8-windows-12.1" \
	"an encoding gamepart create does not name is refused"
is "$(bad_conf 'ENCODING=utf8-windows-12.1')" "" "ENCODING=utf8-windows-12.1 is taken"
printf 'ENCODING=\n' >"$scratch/etc/gamepart.conf"
is "$(env -i GAMEPART_CONF="$scratch/etc/gamepart.conf" sh -c '. "$1"; read_config; echo "$ENCODING"' \
	sh "$helpers/config.sh")" utf8-12.1 "an empty ENCODING= is the default, utf8-12.1"
is "$(bad_conf 'PROVISION_NAME=gamedata')" \
	"gamepart: $scratch/etc/gamepart.conf:1: GAMEDATA_NAME and PROVISION_NAME are both gamedata" \
	"the two names may not be the same"

# OWNER= empty: whom a provisioned library goes to, with stand-ins for
# loginctl and getent (the guest has no seat; units-package.t provisions
# for the first regular user there).
mkdir "$scratch/stub"
cat >"$scratch/stub/loginctl" <<'STUB'
#!/bin/sh
case "$1 $2" in
"show-seat seat0") echo "${SEAT_SESSION-}" ;;
"show-session $SEAT_SESSION") echo "$SEAT_UID" ;;
*) exit 1 ;;
esac
STUB
cat >"$scratch/stub/getent" <<'STUB'
#!/bin/sh
[ -n "${USERS-}" ] || USERS="root:x:0:0::/root:/bin/sh svc:x:999:999::/:/bin/false
alice:x:1001:1001::/home/alice:/bin/sh bob:x:1000:100::/home/bob:/bin/sh"
printf '%s\n' $USERS nobody:x:65534:65534::/:/bin/false |
	awk -F: -v want="${2-}" 'want == "" || $3 == want'
STUB
chmod +x "$scratch/stub/loginctl" "$scratch/stub/getent"
owner_default() {
	env -i PATH="$scratch/stub:$PATH" GAMEPART_CONF=/nonexistent "$@" \
		sh -c '. "$1"; default_owner' sh "$helpers/config.sh"
}
uid_min=$(sed -n 's/^UID_MIN[[:space:]]*\([0-9]*\).*/\1/p' /etc/login.defs 2>/dev/null)
if [ "${uid_min:-1000}" = 1000 ]; then
	is "$(owner_default)" "1000:100 the first regular user" \
		"no session on seat0: the regular user with the lowest uid, and its login group"
	is "$(owner_default SEAT_SESSION=c2 SEAT_UID=1001)" "1001:1001 the user of seat0's active session" \
		"the user at the screen comes first"
	is "$(owner_default SEAT_SESSION=c1 SEAT_UID=0)" "1000:100 the first regular user" \
		"root at the screen (a greeter) does not count"
else
	for i in 1 2 3; do
		skip "UID_MIN is $uid_min here, not Debian's 1000" "default owner $i"
	done
fi
owner_default USERS=root:x:0:0::/root:/bin/sh SEAT_SESSION=c1 SEAT_UID=0 >/dev/null
is $? 1 "neither: nothing, status 1 (the library stays root's)"

# The configuration installed as an example shows, commented out, the
# defaults the helpers apply.
is "$(sed -n 's/^#\([A-Z_]*=\)/\1/p' "$top/systemd-units/gamepart.conf")" \
	"$(grep '^[A-Z_]*=' "$top/systemd-units/libexec/config.sh")" \
	"gamepart.conf shows the defaults config.sh applies"
done_testing
