#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# The patched kernel shows each filesystem's encoding in
# /sys/fs/ext4/<dev>/encoding ("utf8-12.1.0") and its flags in
# encoding_flags ("strict" or empty); a filesystem without the casefold
# feature has neither file.  The stock kernel has none of them.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	kernel=$2
	mount_disk /dev/vda /tmp/a && mount_disk /dev/vdb /tmp/b && mount_disk /dev/vdc /tmp/c
	ok $? "three filesystems mounted: casefold, casefold strict, plain"
	if [ "$kernel" = stock ]; then
		! [ -e /sys/fs/ext4/vda/encoding ] && [ -d /sys/fs/ext4/vda ]
		ok $? "stock: no /sys/fs/ext4/vda/encoding"
	else
		is "$(cat /sys/fs/ext4/vda/encoding)" utf8-12.1.0 "vda: encoding utf8-12.1.0"
		is "$(cat /sys/fs/ext4/vda/encoding_flags)" "" "vda: no encoding flags"
		is "$(cat /sys/fs/ext4/vdb/encoding)" utf8-12.1.0 "vdb: encoding utf8-12.1.0"
		is "$(cat /sys/fs/ext4/vdb/encoding_flags)" strict "vdb: encoding_flags strict"
		! [ -e /sys/fs/ext4/vdc/encoding ] && ! [ -e /sys/fs/ext4/vdc/encoding_flags ]
		ok $? "vdc, without casefold: neither file"
		is "$(stat -c %a /sys/fs/ext4/vda/encoding)" 444 "the files are read-only, for everyone"
	fi
	umount /tmp/a /tmp/b /tmp/c
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
require_kernel $(test_kernels)
make_scratch
make_casefold_image "$scratch/a.img" 32M || exit 1
make_casefold_image "$scratch/b.img" 32M -E encoding=utf8,encoding_flags=strict || exit 1
truncate -s 32M "$scratch/c.img" && mkfs.ext4 -q -F "$scratch/c.img" || exit 1
for k in $(test_kernels); do
	guest_run "$k" --disk "$scratch/a.img" --disk "$scratch/b.img" \
		--disk "$scratch/c.img" -- "$(kernel_role $k)"
done
done_testing
