#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest slow
# kernels: one
# The udev rule and units under systemd as PID 1, with five disks present
# at boot, as cards left in their slots:
#   vda  GPT, one empty partition named gamedata-new: provisioned by
#        gamepart create (owner from the configuration), renamed
#        gamedata, checked and mounted, its library directories +F
#   vdb  ext4 labelled gamedata holding a library: checked and mounted
#        with noatime; its manifest is the one taken before
#   vdc  an unrelated ext4, and
#   vdd  a partition named gamedata-new that already holds ext4: both
#        untouched, byte for byte
#   vde  ext4 labelled gamedata that e2fsck -p cannot repair: not
#        mounted, its mount service failed, the reason in the journal
# vdb also holds a Proton prefix that Steam Cloud filled before Proton
# ran (not +F), in a library whose directories are not +F either: its
# mount service and the report log them with the one command that
# converts them, and they are left as they are.  Then the weekly report, run
# once, logs vdb's colliding names.  Last, a
# card is inserted while the system runs (QEMU's monitor), provisioned and
# mounted, a file on it is held open, and it is pulled: its units stop,
# no other unit fails, nothing hangs.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/units.sh"
	share=/run/vmrun/share
	if [ "$2" = populate ]; then
		mount_disk /dev/vda $mnt
		"$tree" make $mnt/library --big 300
		ok $? "a library on the gamedata disk"
		# To the host as records (host.sh's guest_run): a pooled guest
		# has no share.
		"$(prog tree-manifest)" $mnt/library >/tmp/before.json
		ok $? "its manifest"
		sed 's/^/record /' /tmp/before.json
		save=$mnt/steamapps/compatdata/1245620/pfx/drive_c/users/steamuser/AppData/Roaming/EldenRing
		mkdir -p $save && echo save >$save/ER0000.sl2
		ok $? "a Proton prefix holding a save, not casefolded"
		umount $mnt
		done_testing
		exit
	fi

	wait_for_jobs
	ok $? "the units' jobs all finish"

	# vda: provisioned.
	journalctl -b -o cat -u "gamepart-provision@$(devno vda1).service" |
		grep -q '^gamepart: /dev/vda1 provisioned: partition 1 of /dev/vda is now gamedata$'
	ok $? "vda1: the provisioning service provisioned it" ||
		diag "$(journalctl -b -o cat -u "gamepart-provision@$(devno vda1).service")"
	is "$(blkid -p -o value -s PART_ENTRY_NAME /dev/vda1)" gamedata \
		"vda1: the partition is renamed gamedata"
	is "$(blkid -p -o value -s LABEL /dev/vda1)" gamedata "vda1: ext4 labelled gamedata"
	new=$(mount_point_of /dev/vda1)
	case $new in /run/media/gamedata/gamedata*) true ;; *) false ;; esac
	ok $? "vda1: mounted under /run/media/gamedata ('$new')"
	is "$(systemctl is-active "gamepart-mount@$(devno vda1).service")" active \
		"vda1: its mount service is active"
	for d in steamapps steamapps/common steamapps/compatdata; do
		has_f "$new/$d"
		ok $? "vda1: $d is +F"
	done
	is "$(stat -c %u:%g "$new/steamapps/common")" 1000:1000 \
		"vda1: the library belongs to the configured owner"

	# vdb: checked and mounted as it was.
	lib=$(mount_point_of /dev/vdb)
	case $lib in /run/media/gamedata/gamedata*) true ;; *) false ;; esac
	ok $? "vdb: mounted under /run/media/gamedata ('$lib')" ||
		diag "$(journalctl -b -o cat -u "gamepart-mount@$(devno vdb).service" | tail -n 5)"
	[ "$lib" != "$new" ]
	ok $? "vdb: the second gamedata label gets a place of its own"
	findmnt -rn -S /dev/vdb -O noatime >/dev/null
	ok $? "vdb: mounted with noatime"
	journalctl -b -o cat -u "systemd-fsck@dev-vdb.service" | grep -q 'gamedata: clean'
	ok $? "vdb: systemd-fsck@ checked it first"
	"$(prog tree-manifest)" "$lib/library" >/tmp/after.json
	cmp -s $share/before.json /tmp/after.json
	ok $? "vdb: the library's manifest is the one taken before" ||
		diag "$(diff $share/before.json /tmp/after.json | head -n 20)"
	# The mount is PID 1's, not the service's own.
	grep -q " $lib " /proc/1/mountinfo
	ok $? "vdb: the mount is in PID 1's namespace"

	# The rule as udev parses and applies it, step by step.
	udevadm test --action=add /sys/class/block/vdb >/tmp/udev-test 2>&1
	grep -q 'Reading rules file: /usr/local/lib/udev/rules.d/61-gamepart.rules' /tmp/udev-test
	ok $? "udevadm test reads the rule"
	! grep -i '61-gamepart.rules.*\(invalid\|error\|unknown\|ignoring\)' /tmp/udev-test
	ok $? "udevadm test finds nothing wrong in it"
	grep -q '^GAMEPART_ROLE=gamedata$' /tmp/udev-test &&
		grep -q '^SYSTEMD_WANTS=gamepart-mount@'"$(devno vdb)"'.service$' /tmp/udev-test
	ok $? "udevadm test: vdb is game data and wants its mount service" ||
		diag "$(grep -i gamepart /tmp/udev-test)"

	# vdc, vdd: left alone.
	for d in vdc vdd1; do
		[ -z "$(mount_point_of /dev/$d)" ]
		ok $? "$d: not mounted"
		[ -z "$(systemctl list-units --all --no-legend "gamepart-*@$(devno $d).service")" ]
		ok $? "$d: no gamepart unit for it"
	done

	# vde: the check fails, nothing is mounted, the journal says why.
	unit=gamepart-mount@$(devno vde).service
	[ -z "$(mount_point_of /dev/vde)" ]
	ok $? "vde: not mounted"
	is "$(systemctl is-failed "$unit")" failed "vde: its mount service failed"
	journalctl -b -o cat -u "$unit" | grep -q 'e2fsck -p could not repair the filesystem, so it is not mounted'
	ok $? "vde: the journal says why" || diag "$(journalctl -b -o cat -u "$unit" | tail -n 5)"
	journalctl -b -o cat -u systemd-fsck@dev-vde.service | grep -q 'UNEXPECTED INCONSISTENCY'
	ok $? "vde: e2fsck's own report is in the check's log" ||
		diag "$(journalctl -b -o short-monotonic -u 'gamepart*' -u 'systemd-fsck*' -u '*.mount' | tail -n 60)"
	systemctl status "$unit" --no-pager 2>&1 | grep -q 'not mounted'
	ok $? "vde: systemctl status tells what happened"

	# The weekly report, once.
	systemctl start gamepart-report.service
	ok $? "the report runs and succeeds despite the collisions"
	journalctl -b -o cat -p warning -u gamepart-report.service >/tmp/report
	grep -q "$lib (/dev/vdb): names collide" /tmp/report
	ok $? "the report logs vdb's collisions at warning priority" || diag "$(cat /tmp/report)"
	[ -n "$new" ] && ! grep -q "$new" /tmp/report
	ok $? "and nothing about the fresh vda1, which has none"
	notices=$(journalctl -b -o cat -p notice -u gamepart-report.service)
	grep -qxF "gamepart: $lib: not casefolded: steamapps, steamapps/compatdata, 1 Proton prefix" <<<"$notices" &&
		grep -qxF "gamepart: $lib: next: gamepart convert $lib/steamapps" <<<"$notices"
	ok $? "the report logs vdb's unconverted library and prefix, and the one command" ||
		diag "$(journalctl -b -o cat -u gamepart-report.service | tail -n 5)"
	! grep -q "gamepart convert[^:]* $lib\$" <<<"$notices"
	ok $? "it never advises converting the mount root"
	library_unit="gamepart-library@$(systemd-escape --path "$lib").service"
	journalctl -b -o cat -p notice -u "$library_unit" | grep -qxF "gamepart: $lib: next: gamepart convert $lib/steamapps"
	ok $? "so does the report the mount starts ($library_unit)" ||
		diag "$(journalctl -b -o cat -u "$library_unit" -u "gamepart-mount@$(devno vdb).service" | tail -n 8)"
	! has_f "$lib/steamapps/compatdata/1245620/pfx/drive_c"
	ok $? "and the prefix is left as it is"

	# A card inserted and pulled.
	failed_before=$(systemctl list-units --failed --no-legend --plain | sort)
	insert_card "$3" card /dev/vdf1 hot-plug
	id=$card_id
	# Something using the card when it goes, as a game would.
	echo data >"$card/steamapps/common/Game.pak"
	exec 5<"$card/steamapps/common/Game.pak"
	pull_card card /dev/vdf
	ok $? "unplug: the card is gone"
	ok $? "unplug: the jobs its removal queued finish" ||
		diag "still queued: $(systemctl list-jobs --no-legend)"
	is "$(systemctl is-active "gamepart-mount@$id.service")" inactive \
		"unplug: its mount service stopped"
	is "$(systemctl list-units --failed --no-legend --plain | sort)" "$failed_before" \
		"unplug: no unit failed"
	! grep -q " $card " /proc/1/mountinfo
	ok $? "unplug: the mount point is gone though a file on it is still open"
	! journalctl -b -o cat -u "$(systemd-escape --path --suffix=mount "$card")" |
		grep -q 'target is busy'
	ok $? "unplug: no umount was refused for the open file"
	exec 5<&-
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/units.sh"
units_setup OWNER=1000:1000
mkdir "$scratch/share"

gpt_image "$scratch/provision.img" 96M gamedata-new
gpt_image "$scratch/card.img" 96M gamedata-new
make_casefold_image "$scratch/library.img" 96M -L gamedata
make_ext4_image "$scratch/other.img" 16M -L photos
gpt_image "$scratch/taken.img" 32M gamedata-new
mkfs.ext4 -q -F -L scratch -E offset="$(gpt_partition_offset "$scratch/taken.img")" \
	"$scratch/taken.img" 16M
make_casefold_image "$scratch/broken.img" 32M -L gamedata
beyond_e2fsck_p "$scratch/broken.img"
ok $? "an image e2fsck -p cannot repair"
cp --sparse=always "$scratch/broken.img" "$scratch/broken-copy.img"
e2fsck -p "$scratch/broken-copy.img" >/dev/null 2>&1
is $? 4 "e2fsck -p leaves that damage uncorrected (tried on a copy)"
rm -f "$scratch/broken-copy.img"
untouched=$(cd "$scratch" && sha256sum other.img taken.img)

guest_record=$scratch/share/before.json
guest_run "$(the_kernel)" --disk "$scratch/library.img" -- populate
guest_record=
guest_run "$(the_kernel)" --systemd --install "$scratch/stage" --share "$scratch/share" \
	--disk "$scratch/provision.img" --disk "$scratch/library.img" \
	--disk "$scratch/other.img" --disk "$scratch/taken.img" \
	--disk "$scratch/broken.img" -- coldplug "$scratch/card.img"
is "$(cd "$scratch" && sha256sum other.img taken.img)" "$untouched" \
	"vdc and vdd: byte for byte as they were"
done_testing
