#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest slow
# kernels: one
# A machine boots with a casefold filesystem in fstab whose names fold
# alike (review of the e2fsprogs series, finding 2): the entry has no
# nofail, so a check that halted would drop the boot to emergency mode.
# Two such disks, neither cleanly unmounted, so that systemd-fsck@'s
# e2fsck -p checks both in full: the first with the system's e2fsck,
# the second with the patched one (bound over it for that one unit, as
# if our packages were installed).  The guest reaches its target, both
# disks are mounted, no unit failed; the patched check renamed the
# duplicates, the system's left them; every spelling opens the same
# inode on both disks.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	ok 0 "the boot reached the job's target, not emergency mode"
	failed=$(systemctl list-units --failed --plain --no-legend)
	[ -z "$failed" ]
	ok $? "no unit failed" || diag "$failed"
	for card in stock patched; do
		findmnt -n -o FSTYPE "/run/games/$card" | grep -qx ext4
		ok $? "the $card disk is mounted where fstab says"
	done
	journalctl -b -o cat -u systemd-fsck@dev-vdb.service >/tmp/fsck.log
	grep -q "Duplicate entry '.*' found" /tmp/fsck.log &&
		grep -q 'case conflict 1' /tmp/fsck.log &&
		! grep -q 'UNEXPECTED INCONSISTENCY' /tmp/fsck.log
	ok $? "the patched e2fsck -p renamed the duplicates, the check not stopped" ||
		diag "$(tail -n 20 /tmp/fsck.log)"
	journalctl -b -o cat -u systemd-fsck@dev-vda.service >/tmp/fsck.log
	! grep -q 'case conflict' /tmp/fsck.log &&
		[ "$(ls /run/games/stock/Game | grep -c -i '^foo\.txt$')" = 3 ]
	ok $? "the system's e2fsck -p left them"
	[ "$(ls /run/games/patched/Game | grep -c -i '^foo\.txt$')" = 1 ] &&
		[ "$(ls /run/games/patched/Game | grep -c -i '^foo (case conflict [12])\.txt$')" = 2 ]
	ok $? "on the repaired disk, one foo.txt and two renamed files"
	same=1
	for spelling in foo.txt Foo.txt FOO.TXT fOO.tXT; do
		before=$(stat -c %i "/run/games/stock/Game/$spelling") &&
			[ "$before" = "$(stat -c %i "/run/games/patched/Game/$spelling")" ] ||
			same=0
	done
	[ $same = 1 ]
	ok $? "every spelling opens the inode it opens on the disk left alone"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/e2fsprogs.sh"
require_patched_e2fsprogs
require_kernel "$(the_kernel)"
make_scratch

make_casefold_image "$scratch/stock.img" 64M || exit 1
plant_names "$scratch/stock.img" /Game +F
# Not cleanly unmounted: the boot's check is a full one.
debugfs -w -R "ssv state 0" "$scratch/stock.img" >/dev/null 2>&1
cp --sparse=always "$scratch/stock.img" "$scratch/patched.img"
cp --sparse=always "$scratch/stock.img" "$scratch/host.img"
"$patched_sbin/e2fsck" -p "$scratch/host.img" >/dev/null 2>&1
is $? 1 "the patched e2fsck -p on the host: errors corrected, no manual run asked"

stage=$scratch/stage
mkdir -p "$stage/etc/systemd/system-generators" \
	"$stage/etc/systemd/system/systemd-fsck@dev-vdb.service.d"
cat >"$stage/etc/fstab" <<'EOF'
/dev/vda /run/games/stock ext4 defaults 0 2
/dev/vdb /run/games/patched ext4 defaults 0 2
EOF
# The guest masks every generator; this boot needs fstab's.
ln -s /lib/systemd/system-generators/systemd-fstab-generator \
	"$stage/etc/systemd/system-generators/"
e2fsck=$(readlink -f "$patched_sbin/e2fsck")
cat >"$stage/etc/systemd/system/systemd-fsck@dev-vdb.service.d/patched.conf" <<EOF
[Service]
BindReadOnlyPaths=$e2fsck:/usr/sbin/e2fsck $e2fsck:/usr/sbin/fsck.ext4
EOF
guest_run "$(the_kernel)" --systemd --install "$stage" --timeout 180 \
	--disk "$scratch/stock.img" --disk "$scratch/patched.img" --
done_testing
