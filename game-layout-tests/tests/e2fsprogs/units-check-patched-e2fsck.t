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
#   with the patched one, e2fsck -p finds them and stops, and the card is
#   not mounted, the reason in the journal; e2fsck -fy by hand renames
#   them, and the card is then checked and mounted, every name found.

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
	[ -e "$card/Game/Foo.txt" ] && [ -e "$card/Game/foo.txt" ] &&
		[ "$(stat -c %i "$card/Game/Foo.txt")" = "$(stat -c %i "$card/Game/foo.txt")" ]
	ok $? "stock e2fsck: the duplicates stay, one of them out of reach by name"
	umount "$card" 2>/dev/null
	vmctl monitor device_del stockcard >/dev/null
	wait_for_jobs

	mount --bind "$top/build/e2fsprogs/sbin/e2fsck" /usr/sbin/e2fsck
	ok $? "the patched e2fsck in place of the system's, in this guest"
	dev=$(insert_card patchedcard "$4")
	id=$(devno "$dev")
	wait_for_jobs
	[ -z "$(mount_point_of "/dev/$dev")" ]
	ok $? "patched e2fsck: the card is not mounted"
	journalctl -b -o cat -u "systemd-fsck@dev-$dev.service" >/tmp/fsck.log
	grep -q "Duplicate entry '.*' found" /tmp/fsck.log && grep -q 'UNEXPECTED INCONSISTENCY' /tmp/fsck.log
	ok $? "patched e2fsck -p: the duplicates found, left to a check by hand" ||
		diag "$(tail -n 20 /tmp/fsck.log)"
	journalctl -b -o cat -u "gamepart-mount@$id.service" |
		grep -q 'e2fsck -p could not repair the filesystem, so it is not mounted'
	ok $? "the mount service says why"

	e2fsck -fy "/dev/$dev" >/tmp/repair.log 2>&1
	is $? 1 "e2fsck -fy by hand renames them" || diag "$(tail -n 20 /tmp/repair.log)"
	systemctl reset-failed "gamepart-mount@$id.service" "systemd-fsck@dev-$dev.service"
	systemctl start "gamepart-mount@$id.service"
	wait_for_jobs
	card=$(mount_point_of "/dev/$dev")
	[ -n "$card" ]
	ok $? "then the card is checked and mounted" ||
		diag "$(journalctl -b -o cat -u "gamepart-mount@$id.service" | tail -n 10)"
	[ -e "$card/Game/Foo (case conflict 1).txt" ] &&
		[ "$(stat -c %i "$card/Game/FOO.TXT")" != "$(stat -c %i "$card/Game/foo (case conflict 2).txt")" ]
	ok $? "each renamed file is reached by its own name"
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
guest_run "$(the_kernel)" --systemd --install "$scratch/stage" -- cards "$scratch/stock.img" "$scratch/patched.img"
e2fsck -fn "$scratch/patched.img" >"$scratch/fsck" 2>&1
ok $? "the repaired card: the stock e2fsck -fn finds it clean" || diag "$(cat "$scratch/fsck")"
done_testing
