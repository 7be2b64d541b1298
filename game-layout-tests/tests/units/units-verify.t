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
cp "$unitdir/gamepart-prefixes@.service" "$unitdir/gamepart-prefixes@run-media-gamedata.service"
for u in gamepart-mount@8-1.service gamepart-provision@8-1.service \
	gamepart-prefixes@run-media-gamedata.service \
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
is "$(bad_conf 'PROVISION_NAME=gamedata')" \
	"gamepart: $scratch/etc/gamepart.conf:1: GAMEDATA_NAME and PROVISION_NAME are both gamedata" \
	"the two names may not be the same"

# The configuration installed as an example shows, commented out, the
# defaults the helpers apply.
is "$(sed -n 's/^#\([A-Z_]*=\)/\1/p' "$top/systemd-units/gamepart.conf")" \
	"$(grep '^[A-Z_]*=' "$top/systemd-units/libexec/config.sh")" \
	"gamepart.conf shows the defaults config.sh applies"
done_testing
