#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# An entry hashed under other folding rules (as Linux 6.1.113-6.1.119
# hashed names with ignorable code points) sits in the wrong leaf of a +F
# directory's hash tree: a hashed lookup misses it (and readdir, which
# walks the tree in hash order, may skip it as well), and a create after
# the miss adds a second name that folds like it.  The patched kernel
# follows upstream's rule (9e28059d5664): a hashed miss is searched for
# linearly unless the superblock has SB_ENC_NO_COMPAT_FALLBACK_FL (0x2),
# so it finds the entry, says so in the kernel log, and a create opens it
# instead of adding a second name; with the flag, lookups stay hash-only.
# casefold_lookup_fallback and nocasefold_lookup_fallback override the
# flag either way, the last one given winning.  The rule is the mount's:
# a remount that would change it is refused (a miss cached under the old
# rule would outlive the change: the second review's A3), one that keeps
# it succeeds; the option is refused on a filesystem without the
# casefold feature.  Stock 6.1 never
# searches, and adds the second name.  e2fsck -fn reports such a
# directory, and e2fsck -fD repairs it.  The image is edited offline on
# the host (see plant_stale_entry).

stale=$(printf 'a\xe2\x80\x8bb.txt')	# a, ZERO WIDTH SPACE, b.txt

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	kernel=$2
	lib=$mnt/lib

	# vdc: the same image, with SB_ENC_NO_COMPAT_FALLBACK_FL
	mount_disk /dev/vdc $mnt || { echo "not ok - mount"; exit 1; }
	diag "readdir of /lib shows $(ls -A $lib | wc -l) of its 2001 entries"
	missing "$lib/$stale" && missing $lib/ab.txt
	ok $? "with the flag 0x2, a hashed lookup misses it"
	same_file $lib/file-0042.dat $lib/FILE-0042.DAT
	ok $? "with the flag, other names are found under any case"
	missing $lib/absent.txt
	ok $? "with the flag, a missing name misses"

	if [ "$kernel" = stock ]; then
		umount $mnt
		! mount -o casefold_lookup_fallback /dev/vda $mnt 2>/dev/null
		ok $? "the stock kernel does not know casefold_lookup_fallback"
		mount_disk /dev/vda $mnt
		missing "$lib/$stale"
		ok $? "without the flag too, the stock kernel misses it"
		echo new >$lib/AB.TXT
		is "$(cat "$lib/$stale" 2>/dev/null)" new \
			"after a create of AB.TXT, the stale entry's own name opens the new file"
		umount $mnt
		done_testing
		exit
	fi

	# The misses above are cached now, under the flag's rule.  A remount
	# that would change the rule is refused.
	dmesg -c >/dev/null
	! mount -o remount,casefold_lookup_fallback $mnt 2>/dev/null
	ok $? "mount -o remount,casefold_lookup_fallback is refused"
	dmesg | grep -q "can't change casefold_lookup_fallback on remount"
	ok $? "the kernel log says why"
	missing "$lib/$stale"
	ok $? "the mount keeps its rule: the entry is still missed"
	mount -o remount,ro $mnt && mount -o remount,rw $mnt
	ok $? "a remount that leaves the rule alone succeeds"
	umount $mnt

	mount_disk /dev/vdc $mnt casefold_lookup_fallback
	is "$(cat "$lib/$stale" 2>/dev/null)" stale \
		"mounted with casefold_lookup_fallback, the search finds it despite the flag"
	grep -q " $mnt ext4 .*casefold_lookup_fallback" /proc/mounts
	ok $? "/proc/mounts shows the option"
	mount -o remount,casefold_lookup_fallback $mnt
	ok $? "a remount that gives the option again succeeds"
	! mount -o remount,nocasefold_lookup_fallback $mnt 2>/dev/null
	ok $? "one that gives the other is refused"
	umount $mnt
	mount_disk /dev/vdc $mnt casefold_lookup_fallback,nocasefold_lookup_fallback
	opts=,$(awk -v m=$mnt '$2 == m { print $4 }' /proc/mounts),
	case $opts in
	*,casefold_lookup_fallback,*) false ;;
	*,nocasefold_lookup_fallback,*) true ;;
	*) false ;;
	esac
	ok $? "given both at mount time, the last one wins"
	missing "$lib/$stale"
	ok $? "and the stale entry is missed"
	umount $mnt

	# vda: no flag, as mke2fs -O casefold leaves it
	dmesg -c >/dev/null
	mount_disk /dev/vda $mnt
	is "$(cat "$lib/$stale" 2>/dev/null)" stale "without the flag, the stale entry is found"
	is "$(cat $lib/AB.TXT 2>/dev/null)" stale "without the flag, AB.TXT finds it too"
	dmesg | grep -q "found only by a linear search"
	ok $? "the kernel log names the directory to repair"
	missing $lib/absent.txt
	ok $? "without the flag, a missing name still misses"
	missing $lib/absent.txt
	ok $? "and misses again, from the cache"
	umount $mnt

	mount_disk /dev/vda $mnt nocasefold_lookup_fallback
	missing "$lib/$stale"
	ok $? "without the flag, nocasefold_lookup_fallback misses it"
	umount $mnt

	mount_disk /dev/vda $mnt
	echo new >$lib/AB.TXT
	is "$(cat "$lib/$stale" 2>/dev/null)" new "a create of AB.TXT opens the stale entry"
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
cp --sparse=always "$scratch/stale.img" "$scratch/flagged.img"
# set_encoding_flags ends with e2fsck -fn, which reports the stale entry
set_encoding_flags "$scratch/flagged.img" 0x2
[ "$(sb_u16 "$scratch/flagged.img" 0x27e)" = 2 ] &&
	! e2fsck -fn "$scratch/flagged.img" 2>&1 | grep -qi checksum
ok $? "the same image with SB_ENC_NO_COMPAT_FALLBACK_FL, its checksum right"
for k in $(test_kernels); do
	cp --sparse=always "$scratch/stale.img" "$scratch/$k.img"
	guest_run "$k" --disk "$scratch/$k.img" --disk "$scratch/plain.img" \
		--disk "$scratch/flagged.img" -- "$(kernel_role $k)"
	# readdir may skip the stale entry: count on the disk, with debugfs
	alike=$(debugfs -R "ls -p /lib" "$scratch/$k.img" 2>/dev/null |
		grep -aic '/a[^/]*b\.txt/')
	if [ "$(kernel_role $k)" = stock ]; then
		is "$alike" 2 "[$k] the create added a second name that folds like the stale one (stock's defect)"
	else
		is "$alike" 1 "[$k] the create added no second name that folds like the stale one"
	fi
done

cp --sparse=always "$scratch/stale.img" "$scratch/fixed.img"
e2fsck -fyD "$scratch/fixed.img" >/dev/null 2>&1
e2fsck -fn "$scratch/fixed.img" >/dev/null 2>&1
ok $? "e2fsck -fyD rebuilds the index, and e2fsck -fn is then clean"
debugfs -R "ls -p /lib" "$scratch/fixed.img" 2>/dev/null | grep -qaF "/$stale/"
ok $? "the entry survives the repair"
done_testing
