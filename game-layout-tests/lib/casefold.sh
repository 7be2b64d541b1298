# SPDX-License-Identifier: GPL-2.0
# Helpers for the casefold behaviour tests, guest side (sourced after
# guest.sh).  Each test gets a fresh casefold filesystem on /dev/vda.
#
#   cf_mount               mount it on $mnt; $ci is an empty +F directory,
#                          $cs an empty plain one
#   same_file A B          paths A and B are the same inode
#   missing P              P does not exist (lstat fails with ENOENT)
#   listed DIR NAME        readdir of DIR shows NAME, byte for byte
#   cf_done                unmount, print the plan and leave
#   cf_done_fsck           the same, after checking that e2fsck -fn finds
#                          the unmounted filesystem clean

ci=$mnt/ci
cs=$mnt/cs

cf_mount() {
	mount_disk /dev/vda $mnt || { echo "not ok - mount /dev/vda"; exit 1; }
	mkdir $ci $cs && chattr +F $ci || { echo "not ok - mkdir +F"; exit 1; }
}

same_file() {
	local a b
	a=$(stat -c %i -- "$1" 2>/dev/null) || return 1
	b=$(stat -c %i -- "$2" 2>/dev/null) || return 1
	[ "$a" = "$b" ]
}

missing() {
	! stat -- "$1" >/dev/null 2>&1
}

listed() {
	ls -a -- "$1" | grep -qxF -- "$2"
}

# cf_done: unmount and end the guest's part of the test.
cf_done() {
	cd / && umount $mnt
	done_testing
	exit
}

cf_done_fsck() {
	unmount_and_fsck
	done_testing
	exit
}
