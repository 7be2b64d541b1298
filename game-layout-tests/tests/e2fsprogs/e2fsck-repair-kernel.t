#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# What the patched e2fsprogs writes, the stock and the patched kernel
# read.  An image whose planted duplicates and stale index the patched
# e2fsck -fy repaired: each kernel finds every name in /game as it is
# spelt and in the other case, each of /stale's 300 names as well, and
# sees every renamed file as its own inode.  A filesystem that the
# patched mke2fs made with encoding_flags=strict-no_compat_fallback
# mounts on both, takes a +F directory and a name looked up in another
# case, and is clean for the stock e2fsck afterwards.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	kernel=$2
	mount_disk /dev/vda $mnt-a && mount_disk /dev/vdb $mnt-b
	ok $? "both filesystems mount"
	# For each name: found as listed, and in the other case (names that
	# are not UTF-8 have no other case), the same inode both ways.
	python3 - $mnt-a/game $mnt-a/stale >/tmp/probe <<'PY'
import os, sys
for d in sys.argv[1:]:
    names = os.listdir(d.encode())
    exact = swapped = tried = 0
    inodes = set()
    for n in names:
        st = os.lstat(os.path.join(d.encode(), n))
        exact += 1
        inodes.add(st.st_ino)
        try:
            other = n.decode("utf-8").swapcase().encode("utf-8")
        except UnicodeDecodeError:
            continue
        if other == n:
            continue
        tried += 1
        try:
            if os.lstat(os.path.join(d.encode(), other)).st_ino == st.st_ino:
                swapped += 1
        except OSError:
            pass
    print(d, len(names), exact, len(inodes), tried, swapped)
PY
	read -r _ listed exact inodes tried swapped < <(grep "^$mnt-a/game " /tmp/probe)
	is "$listed" 19 "/game lists its 19 names"
	is "$inodes" 19 "each is an inode of its own"
	is "$swapped" "$tried" "each UTF-8 name is found in the other case too ($tried)"
	read -r _ listed exact inodes tried swapped < <(grep "^$mnt-a/stale " /tmp/probe)
	is "$listed" 300 "/stale lists its 300 names"
	is "$swapped" 300 "each is found in the other case, through the rebuilt index"
	[ -e "$mnt-a/game/FOO (CASE CONFLICT 2).TXT" ] && [ -e "$mnt-a/game/straße (case conflict 1).TXT" ]
	ok $? "renamed names are found in any case, as every name is"

	# One directory per kernel: the disk goes from one guest to the next.
	mkdir $mnt-b/Game-$kernel && chattr +F $mnt-b/Game-$kernel &&
		echo save >$mnt-b/Game-$kernel/Save.dat
	ok $? "the patched mke2fs's filesystem takes a +F directory and a file"
	is "$(cat $mnt-b/Game-$kernel/SAVE.DAT 2>/dev/null)" save "and finds it in another case"
	umount $mnt-a $mnt-b
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
. "$tests_lib/e2fsprogs.sh"
require_kernel $(test_kernels)
require_patched_e2fsprogs
require_cmd debugfs e2fsck
make_scratch

img=$scratch/a.img
make_casefold_image "$img" 64M || exit 1
make_stale_index "$img" /stale
plant_names "$img" /game +F
"$patched_sbin/e2fsck" -fy "$img" >"$scratch/fsck" 2>&1
is $? 1 "the patched e2fsck -fy repairs the planted image"
e2fsck -fn "$img" >"$scratch/fsck" 2>&1
ok $? "the stock e2fsck -fn finds it clean" || diag "$(cat "$scratch/fsck")"

truncate -s 32M "$scratch/b.img"
"$patched_sbin/mke2fs" -q -F -t ext4 -O casefold -E encoding_flags=strict-no_compat_fallback \
	"$scratch/b.img"
is "$(sb_u16 "$scratch/b.img" 0x27e)" 3 "the patched mke2fs stores strict and no_compat_fallback (0x3)"

for k in $(test_kernels); do
	guest_run "$k" --disk "$img" --disk "$scratch/b.img" -- "$(kernel_role $k)"
	for i in a b; do
		e2fsck -fn "$scratch/$i.img" >"$scratch/fsck" 2>&1
		ok $? "$i.img after the $k kernel: the stock e2fsck -fn finds it clean" ||
			diag "$(cat "$scratch/fsck")"
	done
done
done_testing
