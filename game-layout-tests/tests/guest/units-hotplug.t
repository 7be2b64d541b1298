#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A card inserted and pulled while the system runs, systemd as PID 1:
# a disk with an empty GPT partition named gamedata-new is hot-plugged
# (QEMU monitor), provisioned and mounted; a file on it is held open;
# then the disk is unplugged: the mount and the units stop, none is left
# failed or hanging, and the system goes on to a clean shutdown.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/units.sh"
	img=$2
	wait_for_jobs
	ok $? "the boot's jobs finish"
	[ ! -e /dev/vda ]
	ok $? "no disk yet"

	vmctl monitor drive_add 0 "if=none,id=card,file=$img,format=raw" >/dev/null
	vmctl monitor device_add virtio-blk-pci,drive=card,id=cardslot >/dev/null
	i=0
	while [ ! -b /dev/vda1 ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	[ -b /dev/vda1 ]
	ok $? "the card appears"
	id=$(devno vda1)
	wait_for_jobs
	ok $? "its units' jobs finish"
	where=$(mount_point_of /dev/vda1)
	is "$where" /run/media/gamedata/gamedata "provisioned and mounted where expected" ||
		diag "$(journalctl -b -o cat -u "gamepart-*@$id.service" | tail -n 20)"
	is "$(systemctl is-active "gamepart-mount@$id.service")" active "its mount service is active"
	has_casefold_flag "$where/steamapps/common"
	ok $? "its library is +F"

	# Something using the card when it goes, as a game would.
	echo data >"$where/steamapps/common/Game.pak"
	exec 5<"$where/steamapps/common/Game.pak"
	vmctl monitor device_del cardslot >/dev/null
	i=0
	while [ -b /dev/vda ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	[ ! -b /dev/vda ]
	ok $? "the card is gone"
	wait_for_jobs
	ok $? "the jobs its removal queued finish"
	is "$(systemctl is-active "gamepart-mount@$id.service")" inactive \
		"its mount service stopped"
	[ -z "$(systemctl list-units --failed --no-legend 'gamepart-*' '*.mount')" ]
	ok $? "no gamepart unit and no mount unit failed" ||
		diag "$(systemctl list-units --failed --no-legend)"
	exec 5<&-
	i=0
	while grep -q " $where " /proc/1/mountinfo && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	! grep -q " $where " /proc/1/mountinfo
	ok $? "the mount is gone once the last file on it is closed"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/units.sh"
units_setup
gpt_image "$scratch/card.img" 96M gamedata-new
guest_run patched --systemd --install "$scratch/stage" -- "$scratch/card.img"
done_testing
