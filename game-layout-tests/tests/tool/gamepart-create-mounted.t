#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# gamepart create refuses a mounted device, even with --force, and leaves
# the filesystem on it untouched; once unmounted, --force recreates it.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/gamepart.sh"
	mount_disk /dev/vda $mnt || { echo "not ok - mount /dev/vda"; exit 1; }
	echo keep >$mnt/keep
	"$gp" create --force /dev/vda >/tmp/out 2>/tmp/err
	is $? 2 "create --force on a mounted device: exit status 2"
	is "$(cat /tmp/err)" "gamepart: create: /dev/vda: mounted on $mnt; refusing to make a filesystem on it" \
		"create --force on a mounted device: message"
	is "$(cat $mnt/keep)" keep "the mounted filesystem is untouched"
	umount $mnt
	"$gp" create /dev/vda >/tmp/out 2>/tmp/err
	is $? 2 "create on an unmounted device holding ext4, without --force: exit status 2"
	grep -q "^gamepart: create: /dev/vda: contains an ext4 file system" /tmp/err
	ok $? "the refusal names the ext4 filesystem"
	"$gp" create --force --label Fresh /dev/vda >/dev/null 2>&1
	ok $? "create --force on the unmounted device succeeds"
	mount_disk /dev/vda $mnt
	[ ! -e $mnt/keep ] && has_f $mnt/steamapps/common
	ok $? "the new filesystem has the Steam layout with +F"
	umount $mnt
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
gamepart_on_created_image
done_testing
