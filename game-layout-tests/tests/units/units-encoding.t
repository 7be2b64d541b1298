#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest slow
# kernels: one
# ENCODING=utf8-windows-12.1 in gamepart.conf, under systemd as PID 1,
# with an empty GPT partition named gamedata-new present at boot:
#   with the system's gamepart and e2fsprogs (1.47.0, which do not know
#   the series' encodings), provisioning fails before anything is
#   written: the journal says why, the partition keeps its name and
#   holds nothing;
#   with gamepart, mke2fs and e2fsck of the series in place of the
#   system's (bind mounts, in this guest only), the same service started
#   again provisions the card in the Windows encoding; systemd-fsck@
#   finds it clean, it is mounted, and straße.txt and strasse.txt are two
#   files in its library, each found in another case.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/units.sh"
	. "$guest_lib/casefold.sh"
	wait_for_jobs
	ok $? "the units' jobs all finish at boot"
	unit=gamepart-provision@$(devno vda1).service
	is "$(systemctl is-failed "$unit")" failed \
		"system gamepart: provisioning in utf8-windows-12.1 fails"
	journalctl -b -o cat -u "$unit" |
		grep -qF "encoding utf8-windows-12.1: gamepart's libext2fs cannot fold its names"
	ok $? "and the journal says why" || diag "$(journalctl -b -o cat -u "$unit" | tail -n 5)"
	is "$(blkid -p -o value -s PART_ENTRY_NAME /dev/vda1)" gamedata-new \
		"the partition keeps its name"
	[ -z "$(blkid -p -o value -s TYPE /dev/vda1)" ]
	ok $? "and libblkid finds no filesystem on it"

	mount --bind "$top/build/series/plain/gamepart" /usr/local/sbin/gamepart &&
		mount --bind "$top/build/e2fsprogs/sbin/mke2fs" /usr/sbin/mke2fs &&
		mount --bind "$top/build/e2fsprogs/sbin/e2fsck" /usr/sbin/e2fsck
	ok $? "gamepart, mke2fs and e2fsck of the series in place of the system's"
	systemctl reset-failed "$unit"
	systemctl start "$unit"
	ok $? "the provisioning service, started again, succeeds" ||
		diag "$(journalctl -b -o cat -u "$unit" | tail -n 10)"
	wait_for_jobs
	ok $? "the jobs that follow finish"
	is "$(blkid -p -o value -s PART_ENTRY_NAME /dev/vda1)" gamedata "the partition is renamed gamedata"
	card=$(mount_point_of /dev/vda1)
	case $card in /run/media/gamedata/gamedata*) true ;; *) false ;; esac
	ok $? "the card is mounted under /run/media/gamedata ('$card')" ||
		diag "$(journalctl -b -o cat -u "gamepart-mount@$(devno vda1).service" -u systemd-fsck@dev-vda1.service | tail -n 10)"
	journalctl -b -o cat -u systemd-fsck@dev-vda1.service | grep -q 'gamedata: clean'
	ok $? "systemd-fsck@ checked it first (the series' e2fsck)"
	is "$(cat /sys/fs/ext4/vda1/encoding)" "UTF-8 Windows (12.1.0)" \
		"the kernel names its encoding UTF-8 Windows"
	is "$(/usr/local/sbin/gamepart status "$card" | sed -n 's/^encoding: *//p')" utf8-windows-12.1 \
		"gamepart status: encoding utf8-windows-12.1"

	common=$card/steamapps/common
	has_f "$common"
	ok $? "steamapps/common is +F"
	touch "$common/straße.txt" "$common/strasse.txt" &&
		! same_file "$common/straße.txt" "$common/strasse.txt"
	ok $? "straße.txt and strasse.txt are two files"
	same_file "$common/STRAßE.TXT" "$common/straße.txt" &&
		same_file "$common/STRASSE.TXT" "$common/strasse.txt"
	ok $? "each is found in another case"
	umount "$card" && e2fsck -fn /dev/vda1 >/tmp/fsck 2>&1
	ok $? "unmounted, the series' e2fsck -fn finds it clean" || diag "$(tail -n 10 /tmp/fsck)"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/units.sh"
. "$tests_lib/e2fsprogs.sh"
require_patched_e2fsprogs
[ -x "$build/series/plain/gamepart" ] || skip_all "no $build/series/plain/gamepart: run make tool-series"
units_setup OWNER=1000:1000 ENCODING=utf8-windows-12.1
gpt_image "$scratch/card.img" 96M gamedata-new
guest_run "$(the_kernel)" --systemd --install "$scratch/stage" --disk "$scratch/card.img" --
done_testing
