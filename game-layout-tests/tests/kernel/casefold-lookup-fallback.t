#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# An entry hashed under other folding rules (as Linux 6.1.113-6.1.119
# hashed names with ignorable code points) sits in the wrong leaf of a +F
# directory's hash tree: a hashed lookup misses it (and readdir, which
# walks the tree in hash order, may skip it as well).  On
# the patched kernel the casefold_lookup_fallback mount option finds it by
# a linear search, and says so in the kernel log; without the option the
# lookup path is unchanged.  Turning it on by remount takes effect for
# the misses cached before (reconfigure_super() shrinks the dcache on
# every remount: this guards that, and passes on part 1 of the series
# too); the option is refused on a filesystem without the casefold
# feature.  e2fsck -fn reports such a directory, and
# e2fsck -fD repairs it.  The image is edited offline on the host (see
# plant_stale_entry).

stale=$(printf 'a\xe2\x80\x8bb.txt')	# a, ZERO WIDTH SPACE, b.txt

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	kernel=$2
	lib=$mnt/lib
	mount_disk /dev/vda $mnt || { echo "not ok - mount"; exit 1; }
	diag "readdir of /lib shows $(ls -A $lib | wc -l) of its 2001 entries"
	missing "$lib/$stale" && missing $lib/ab.txt
	ok $? "without the option, a hashed lookup misses it"
	same_file $lib/file-0042.dat $lib/FILE-0042.DAT
	ok $? "without the option, other names are found under any case"
	missing $lib/absent.txt
	ok $? "without the option, a missing name misses"

	if [ "$kernel" = stock ]; then
		umount $mnt
		! mount -o casefold_lookup_fallback /dev/vda $mnt 2>/dev/null
		ok $? "the stock kernel does not know casefold_lookup_fallback"
		done_testing
		exit
	fi

	# The misses above are cached now.  Turning the option on by remount
	# must not leave them hiding the entry it exists to find.
	mount -o remount,casefold_lookup_fallback $mnt
	ok $? "mount -o remount,casefold_lookup_fallback, no unmount in between"
	is "$(cat "$lib/$stale" 2>/dev/null)" stale \
		"after the remount, the miss cached before it is looked up again and finds the entry"
	umount $mnt

	mount_disk /dev/vda $mnt casefold_lookup_fallback
	ok $? "mount -o casefold_lookup_fallback"
	grep -q " $mnt ext4 .*casefold_lookup_fallback" /proc/mounts
	ok $? "/proc/mounts shows the option"
	is "$(cat "$lib/$stale" 2>/dev/null)" stale "with the option, the stale entry is found"
	is "$(cat $lib/AB.TXT 2>/dev/null)" stale "with the option, AB.TXT finds it too"
	dmesg | grep -q "found only by casefold_lookup_fallback"
	ok $? "the kernel log names the directory to repair"
	missing $lib/absent.txt
	ok $? "with the option, a missing name still misses"

	mount -o remount,nocasefold_lookup_fallback $mnt
	echo 2 >/proc/sys/vm/drop_caches
	! grep -q " $mnt ext4 .*casefold_lookup_fallback" /proc/mounts && missing "$lib/$stale"
	ok $? "remounted with nocasefold_lookup_fallback, the stale entry is missed again"
	umount $mnt

	! mount -o casefold_lookup_fallback /dev/vdb $mnt 2>/dev/null
	ok $? "refused on a filesystem without the casefold feature"
	dmesg | grep -q "casefold_lookup_fallback needs the casefold feature"
	ok $? "the kernel log says why"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
require_kernel $(test_kernels)
require_cmd debugfs e2fsck
make_scratch

# plant_stale_entry IMG: a +F directory /lib of 2,000 names with a hash
# tree, and in it the name $stale placed by the hash of its bytes, not of
# its folded form, by linking it while +F is cleared.
plant_stale_entry() {
	local img=$1 root=$scratch/root
	mkdir -p "$root/lib"
	for i in $(seq -w 0 1999); do : >"$root/lib/file-$i.dat"; done
	truncate -s 64M "$img"
	# A fixed hash seed: the entry lands in the same wrong leaf each run.
	mkfs.ext4 -q -F -m 0 -O casefold \
		-E encoding=utf8,hash_seed=5d5f5e8a-0c1b-4c55-9a1f-6a6d2b3c4d5e \
		-d "$root" "$img" || return 1
	debugfs -w -R "set_inode_field /lib flags 0x40080000" "$img" 2>/dev/null
	e2fsck -fyD "$img" >/dev/null 2>&1	# index /lib under its +F hashes
	[ $? -le 1 ] || return 1
	echo stale >"$scratch/stale.src"
	printf '%s\n' "set_inode_field /lib flags 0x00081000" "cd /lib" \
		"write $scratch/stale.src $stale" \
		"set_inode_field /lib flags 0x40081000" >"$scratch/cmds"
	debugfs -w -f "$scratch/cmds" "$img" >/dev/null 2>&1
}
plant_stale_entry "$scratch/stale.img"
ok $? "an image with a stale entry in a +F hash tree"
debugfs -R "ls -p /lib" "$scratch/stale.img" 2>/dev/null | grep -qaF "/$stale/"
ok $? "the stale entry is in /lib (debugfs)"
e2fsck -fn "$scratch/stale.img" >"$scratch/fsck" 2>&1
is $? 4 "e2fsck -fn reports the directory (exit 4)"
grep -q "Problem in HTREE directory inode .*bad .* hash" "$scratch/fsck"
ok $? "e2fsck -fn: 'Problem in HTREE directory inode ...: block ... has bad ... hash'"

truncate -s 32M "$scratch/plain.img" && mkfs.ext4 -q -F "$scratch/plain.img"
ok $? "an image without the casefold feature"
for k in $(test_kernels); do
	cp --sparse=always "$scratch/stale.img" "$scratch/$k.img"
	guest_run "$k" --disk "$scratch/$k.img" --disk "$scratch/plain.img" \
		-- "$(kernel_role $k)"
done

cp --sparse=always "$scratch/stale.img" "$scratch/fixed.img"
e2fsck -fyD "$scratch/fixed.img" >/dev/null 2>&1
e2fsck -fn "$scratch/fixed.img" >/dev/null 2>&1
ok $? "e2fsck -fyD rebuilds the index, and e2fsck -fn is then clean"
debugfs -R "ls -p /lib" "$scratch/fixed.img" 2>/dev/null | grep -qaF "/$stale/"
ok $? "the entry survives the repair"
done_testing
