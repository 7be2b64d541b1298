# SPDX-License-Identifier: GPL-2.0
# Helpers for the tests of systemd-units/ (sourced after host.sh, or in
# the guest after guest.sh).

# Host side.

# stage_units DIR [KEY=VALUE...]: "make install-units DESTDIR=DIR" with
# the build's gamepart beside them and KEY=VALUE lines in gamepart.conf,
# for vmrun --install (paths inside are those of an install in /usr/local).
stage_units() {
	local dir=$1
	shift
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -s -C "$top" install-units DESTDIR="$dir" >/dev/null || return 1
	install -D -m 755 "$build/bin/gamepart" "$dir/usr/local/sbin/gamepart"
	[ $# -eq 0 ] || printf '%s\n' "$@" >>"$dir/etc/gamepart.conf"
}

# require_units: what staging the units and booting systemd need.
require_units() {
	require_kernel "$(the_kernel)"
	[ -x "$build/bin/gamepart" ] || skip_all "no $build/bin/gamepart (make tool)"
	require_cmd sfdisk systemd-analyze
}

# units_setup [KEY=VALUE...]: the host side of a units guest test: the
# requirements, $scratch, and the units staged in $scratch/stage with
# those settings.
units_setup() {
	require_units
	make_scratch
	stage_units "$scratch/stage" "$@" || {
		echo "not ok 1 - stage the units (make install-units)"
		exit 1
	}
}

# gpt_image IMG SIZE NAME: a disk image with a GPT and one Linux
# partition named NAME over the rest of it, empty.
gpt_image() {
	rm -f "$1"
	truncate -s "$2" "$1"
	printf 'label: gpt\ntype=linux, name=%s\n' "$3" | sfdisk -q "$1"
}

# gpt_partition_offset IMG: the byte offset of its first partition.
gpt_partition_offset() {
	sfdisk -J "$1" | jq '.partitiontable | .partitions[0].start * (.sectorsize // 512)'
}

# Guest side.

# devno DEV: MAJOR:MINOR, the instance of the units for DEV.
devno() {
	cat "/sys/class/block/${1#/dev/}/dev"
}

# wait_for_jobs: until systemd has no job queued or running, bounded at
# 300 seconds; the units are driven by udev events, not by this test.
wait_for_jobs() {
	udevadm settle --timeout=120
	"$(prog wait-for-jobs)" 300
}

# seen_by_udev_and_systemd DEV: wait, up to 60 seconds, until udev has
# handled DEV's event and, if udev tagged it for systemd, systemd has its
# device unit (and so has queued the jobs its rule asks for).  Until then
# wait_for_jobs may find nothing to wait for: the node appears in
# devtmpfs before udev reads the kernel's event.
seen_by_udev_and_systemd() {
	udevadm wait --settle --timeout=60 "$1" || return
	udevadm info -q property -n "$1" | grep -q '^TAGS=.*:systemd:' || return 0
	poll_until 60 systemctl -q is-active "$(systemd-escape -p --suffix=device "$1")"
}

# hot_plug IMG NAME DEV: insert IMG as a new virtio disk through QEMU's
# monitor (drive NAME, device NAMEslot, for a later device_del) and wait
# up to 60 seconds for DEV to appear, to udev and to systemd; status 1 if
# it does not.
hot_plug() {
	vmctl monitor drive_add 0 "if=none,id=$2,file=$1,format=raw" >/dev/null
	vmctl monitor device_add "virtio-blk-pci,drive=$2,id=${2}slot" >/dev/null
	poll_until 60 test -b "$3" && seen_by_udev_and_systemd "$3"
}

# install_gamepart_deb DEB [TAG]: dpkg -i DEB as on a real system; one
# check, "[TAG ]dpkg -i gamepart.deb".
install_gamepart_deb() {
	# A container image's policy-rc.d (exit 101: start nothing) may come
	# with the host's /usr; a real system has none.
	rm -f /usr/sbin/policy-rc.d
	dpkg -i "$1" >/tmp/dpkg.log 2>&1
	ok $? "${2:+$2 }dpkg -i gamepart.deb" || diag "$(tail -n 20 /tmp/dpkg.log)"
}

# mount_point_of DEV: where DEV is mounted, if it is.
mount_point_of() {
	findmnt -rn -S "$1" -o TARGET | head -n 1
}

# insert_card IMG NAME DEV TAG: hot_plug IMG as NAME, then check, each
# check named "TAG: ...", that the units provision and mount DEV under
# /run/media/gamedata with a +F library; sets $card, where it is mounted,
# and $card_id, its units' instance.
insert_card() {
	hot_plug "$1" "$2" "$3"
	ok $? "$4: the card appears"
	card_id=$(devno "$3")
	wait_for_jobs
	ok $? "$4: its units' jobs finish"
	card=$(mount_point_of "$3")
	case $card in /run/media/gamedata/gamedata-*) true ;; *) false ;; esac
	ok $? "$4: provisioned and mounted ('$card')" ||
		diag "$(journalctl -b -o cat -u "gamepart-*@$card_id.service" | tail -n 20)"
	has_f "$card/steamapps/common"
	ok $? "$4: its library is +F"
}

# pull_card NAME DISK: remove the disk hot_plug inserted as NAME, wait up
# to 60 seconds for DISK to go, then for the jobs that follow; status 1
# if it did not go.
pull_card() {
	local gone
	vmctl monitor device_del "${1}slot" >/dev/null
	poll_while 60 test -b "$2"
	gone=$?
	wait_for_jobs
	return $gone
}

# Host side again.

# beyond_e2fsck_p IMG: give the (unmounted) ext4 image IMG damage that
# e2fsck -p must not repair on its own: two files claiming one block, and
# the superblock's error state, so that the check is not skipped.
beyond_e2fsck_p() {
	local img=$1 data block
	data=$(mktemp)
	head -c 8192 /dev/urandom >"$data"
	debugfs -w -f - "$img" >/dev/null 2>&1 <<-END
		write $data first
		write $data second
	END
	block=$(debugfs -R "blocks first" "$img" 2>/dev/null | awk '{ print $1 }')
	rm -f "$data"
	[ -n "$block" ] || return 1
	debugfs -w -f - "$img" >/dev/null 2>&1 <<-END
		sif second bmap[0] $block
		ssv state 2
	END
}
