#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest slow
# kernels: one
# The units' check path with the patched e2fsck, which this test puts in
# place of the system's in the guest (a bind mount over e2fsck, which
# fsck.ext4 links to); the system's stays the default everywhere else.
# A card pulled without unmounting (state not clean, so that e2fsck -p
# checks it in full) holds names that fold alike in a +F directory:
#   with the stock e2fsck, systemd-fsck@ passes it and it is mounted,
#   the duplicates in place;
#   with the patched one, e2fsck -p renames them and the card is mounted
#   (no "UNEXPECTED INCONSISTENCY"): every spelling opens the file it
#   opened on the stock card, the entry the kernel found having kept its
#   name, and each renamed file is reached by its own name;
#   with casefold_duplicates = report in /etc/e2fsck.conf, e2fsck -p
#   reports them, renames nothing, and the card is mounted.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/units.sh"
	wait_for_jobs
	ok $? "the units' jobs all finish at boot"

	# insert_card ID IMAGE: the card appears as /dev/vdX; prints its name.
	insert_card() {
		local before dev
		before=$(ls /sys/class/block)
		vmctl monitor drive_add 0 "if=none,id=drive$1,file=$2,format=raw" >/dev/null
		vmctl monitor device_add virtio-blk-pci,drive=drive$1,id=$1 >/dev/null
		new_disk() {
			dev=$(ls /sys/class/block | grep -vxF "$before" | head -n1)
			[ -n "$dev" ] && [ -b "/dev/$dev" ]
		}
		poll_until 60 new_disk
		[ -n "$dev" ] && seen_by_udev_and_systemd "/dev/$dev"
		echo "$dev"
	}

	dev=$(insert_card stockcard "$3")
	wait_for_jobs
	card=$(mount_point_of "/dev/$dev")
	[ -n "$card" ]
	ok $? "stock e2fsck: the card passes the check and is mounted" ||
		diag "$(journalctl -b -o cat -u "systemd-fsck@dev-$dev.service" | tail -n 20)"
	served=$(stat -c %i "$card/Game/foo.txt")
	[ -e "$card/Game/Foo.txt" ] && [ -e "$card/Game/FOO.TXT" ] &&
		[ "$(stat -c %i "$card/Game/Foo.txt")" = "$served" ] &&
		[ "$(stat -c %i "$card/Game/FOO.TXT")" = "$served" ] &&
		[ "$(ls "$card/Game" | grep -c -i '^foo\.txt$')" = 3 ]
	ok $? "stock e2fsck: the duplicates stay, two of them out of reach by name"
	umount "$card" 2>/dev/null
	vmctl monitor device_del stockcard >/dev/null
	wait_for_jobs

	mount --bind "$top/build/e2fsprogs/sbin/e2fsck" /usr/sbin/e2fsck
	ok $? "the patched e2fsck in place of the system's, in this guest"
	dev=$(insert_card patchedcard "$4")
	wait_for_jobs
	card=$(mount_point_of "/dev/$dev")
	[ -n "$card" ]
	ok $? "patched e2fsck: the card passes the check and is mounted" ||
		diag "$(journalctl -b -o cat -u "systemd-fsck@dev-$dev.service" | tail -n 20)"
	journalctl -b -o cat -u "systemd-fsck@dev-$dev.service" >/tmp/fsck.log
	grep -q "Duplicate entry '.*' found" /tmp/fsck.log &&
		grep -q 'Rename to foo (case conflict 1).txt' /tmp/fsck.log &&
		! grep -q 'UNEXPECTED INCONSISTENCY' /tmp/fsck.log
	ok $? "patched e2fsck -p: the duplicates found and renamed, the check not stopped" ||
		diag "$(tail -n 20 /tmp/fsck.log)"
	[ "$(stat -c %i "$card/Game/foo.txt")" = "$served" ] &&
		[ "$(stat -c %i "$card/Game/Foo.txt")" = "$served" ] &&
		[ "$(stat -c %i "$card/Game/FOO.TXT")" = "$served" ]
	ok $? "every spelling opens the file it opened before the repair"
	a=$(stat -c %i "$card/Game/foo (case conflict 1).txt") &&
		b=$(stat -c %i "$card/Game/FOO (case conflict 2).TXT") &&
		[ "$a" != "$b" ] && [ "$a" != "$served" ] && [ "$b" != "$served" ]
	ok $? "each renamed file is reached by its own name"
	umount "$card"

	printf '[options]\n\tcasefold_duplicates = report\n' >/etc/e2fsck.conf
	dev=$(insert_card reportcard "$5")
	wait_for_jobs
	card=$(mount_point_of "/dev/$dev")
	[ -n "$card" ]
	ok $? "casefold_duplicates = report: the card is mounted"
	journalctl -b -o cat -u "systemd-fsck@dev-$dev.service" >/tmp/fsck.log
	grep -q "Entry 'FOO.TXT' .* folds like another name of the directory: left for a check run by hand" /tmp/fsck.log &&
		! grep -q 'UNEXPECTED INCONSISTENCY' /tmp/fsck.log
	ok $? "e2fsck -p reported the duplicates and left them" ||
		diag "$(tail -n 20 /tmp/fsck.log)"
	[ "$(ls "$card/Game" | grep -c -i '^foo\.txt$')" = 3 ] &&
		[ "$(stat -c %i "$card/Game/FOO.TXT")" = "$served" ]
	ok $? "no name changed"
	umount "$card"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/units.sh"
. "$tests_lib/gamepart.sh"
. "$tests_lib/e2fsprogs.sh"
require_patched_e2fsprogs
units_setup OWNER=1000:1000
make_casefold_image "$scratch/stock.img" 64M -L gamedata || exit 1
plant_names "$scratch/stock.img" /Game +F
# Pulled without unmounting: the next check is a full one.
debugfs -w -R "ssv state 0" "$scratch/stock.img" >/dev/null 2>&1
cp --sparse=always "$scratch/stock.img" "$scratch/patched.img"
cp --sparse=always "$scratch/stock.img" "$scratch/report.img"
guest_run "$(the_kernel)" --systemd --install "$scratch/stage" -- cards "$scratch/stock.img" \
	"$scratch/patched.img" "$scratch/report.img"
e2fsck -fn "$scratch/patched.img" >"$scratch/fsck" 2>&1
ok $? "the repaired card: the stock e2fsck -fn finds it clean" || diag "$(cat "$scratch/fsck")"
done_testing
