#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest slow
# kernels: one
# Beside the system's automounter (udisks2 running in the systemd guest):
# a game card is gamepart's; udisks2 is told to ignore it and not to
# automount it (UDISKS_IGNORE, UDISKS_AUTO=0 from the udev rule), and the
# card is mounted once.  A card that something else mounted first is not
# mounted a second time.  Two cards with the same label land each at a
# place of its own (LABEL-UUID), and the same place again when they are
# pulled and inserted in the other order.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/units.sh"
	a_img=$2 a_uuid=$3 b_img=$4 b_uuid=$5
	wait_for_jobs
	systemctl start udisks2.service
	is "$(systemctl is-active udisks2.service)" active "udisks2 runs"

	n=0
	declare -A slot_of
	# insert IMG UUID: hot-plug IMG as a new disk, wait for the units.
	insert() {
		n=$((n + 1))
		vmctl monitor drive_add 0 "if=none,id=card$n,file=$1,format=raw" >/dev/null
		vmctl monitor device_add "virtio-blk-pci,drive=card$n,id=slot$n" >/dev/null
		slot_of[$2]=slot$n
		poll_until 60 blkid -U "$2" >/dev/null
		seen_by_udev_and_systemd "$(blkid -U "$2")"
		wait_for_jobs
	}
	# pull UUID: unplug the disk holding that filesystem.
	pull() {
		vmctl monitor device_del "${slot_of[$1]}" >/dev/null
		poll_while 60 blkid -U "$1" >/dev/null
		wait_for_jobs
	}
	where() {
		findmnt -N 1 -rn -S "UUID=$1" -o TARGET
	}

	insert "$a_img" "$a_uuid"
	a_dev=$(blkid -U "$a_uuid")
	is "$(where "$a_uuid")" "/run/media/gamedata/gamedata-${a_uuid%%-*}" \
		"card A: mounted at LABEL-UUID" ||
		diag "$(journalctl -b -o cat -u 'gamepart-*' | tail -n 10)"
	udisksctl info -b "$a_dev" >/tmp/info
	grep -Eq '^ +HintIgnore: +true$' /tmp/info && grep -Eq '^ +HintAuto: +false$' /tmp/info
	ok $? "udisks2 is told to ignore it and not to automount it" || diag "$(grep Hint /tmp/info)"
	is "$(findmnt -N 1 -rn -S "$a_dev" | wc -l)" 1 "card A is mounted once"

	insert "$b_img" "$b_uuid"
	is "$(where "$b_uuid")" "/run/media/gamedata/gamedata-${b_uuid%%-*}" \
		"card B, labelled alike: a place of its own"

	# An automounter that did not stand aside got there first.
	unit=gamepart-mount@$(devno "$a_dev").service
	systemctl stop "$unit"
	wait_for_jobs
	[ -z "$(where "$a_uuid")" ]
	ok $? "card A unmounted with its service"
	mkdir -p /run/media/deck/gamedata
	mount "$a_dev" /run/media/deck/gamedata
	systemctl start "$unit"
	wait_for_jobs
	is "$(findmnt -N 1 -rn -S "$a_dev" -o TARGET)" /run/media/deck/gamedata \
		"mounted first elsewhere: not mounted a second time"
	journalctl -b -o cat -u "$unit" | grep -qxF "gamepart: mount: $a_dev is already mounted at /run/media/deck/gamedata; not mounted a second time"
	ok $? "the journal says where it is" || diag "$(journalctl -b -o cat -u "$unit" | tail -n 5)"
	umount /run/media/deck/gamedata

	# Both pulled, then inserted in the other order: the same places.
	pull "$a_uuid"
	pull "$b_uuid"
	[ -z "$(blkid -U "$a_uuid")" ] && [ -z "$(blkid -U "$b_uuid")" ]
	ok $? "both cards pulled"
	insert "$b_img" "$b_uuid"
	insert "$a_img" "$a_uuid"
	is "$(where "$b_uuid")" "/run/media/gamedata/gamedata-${b_uuid%%-*}" "B, inserted first now: the same place"
	is "$(where "$a_uuid")" "/run/media/gamedata/gamedata-${a_uuid%%-*}" "A, inserted second now: the same place"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/units.sh"
units_setup
require_cmd udisksctl blkid
make_casefold_image "$scratch/a.img" 64M -L gamedata
make_casefold_image "$scratch/b.img" 64M -L gamedata
a_uuid=$(blkid -p -o value -s UUID "$scratch/a.img")
b_uuid=$(blkid -p -o value -s UUID "$scratch/b.img")
guest_run "$(the_kernel)" --systemd --install "$scratch/stage" -- \
	"$scratch/a.img" "$a_uuid" "$scratch/b.img" "$b_uuid"
done_testing
