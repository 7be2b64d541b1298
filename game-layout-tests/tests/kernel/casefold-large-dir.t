#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: full guest
# kernels: each
# Case-insensitive lookups in a +F directory of 100,000 entries (an htree
# several levels deep): every probed name is found under another case, a
# missing one is not, on every kernel.  Heavy: make check-full only.

entries=${GAMEPART_LARGE_DIR_ENTRIES:-100000}
if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	n=$2
	mount_disk /dev/vda $mnt || { echo "not ok - mount"; exit 1; }
	mkdir $mnt/big
	chattr +F $mnt/big
	cd $mnt/big
	for ((i = 0; i < n; i++)); do
		: >"Texture_${i}_Diffuse.DDS"
	done
	is "$(ls -f | wc -l)" $((n + 2)) "$n entries created"
	lsattr -d . | grep -q '^[^ ]*I'
	ok $? "the directory is indexed (htree)"
	missed=0
	for ((i = 0; i < n; i += 97)); do
		[ -e "texture_${i}_diffuse.dds" ] || missed=$((missed + 1))
		[ -e "TEXTURE_${i}_DIFFUSE.dds" ] || missed=$((missed + 1))
	done
	is $missed 0 "every probed name is found in lower and upper case"
	false_hits=0
	for ((i = n; i < n + 500; i++)); do
		[ -e "texture_${i}_diffuse.dds" ] && false_hits=$((false_hits + 1))
	done
	is $false_hits 0 "names that do not exist are not found"
	cd /
	umount $mnt
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
require_kernel $(test_kernels)
make_scratch
for kernel in $(test_kernels); do
	make_hashed_casefold_image "$scratch/$kernel.img" 512M -N 200000
	guest_run "$kernel" --disk "$scratch/$kernel.img" -- "$entries"
done
done_testing
