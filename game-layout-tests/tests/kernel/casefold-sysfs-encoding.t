#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# The patched kernel shows each filesystem's encoding in
# /sys/fs/ext4/<dev>/encoding and its flags in encoding_flags, in the form
# f2fs uses for its files of the same names: "UTF-8 (12.1.0)" or
# "(none)", and the superblock's s_encoding_flags in hexadecimal with no
# bit lost ("1" strict, "2" SB_ENC_NO_COMPAT_FALLBACK_FL, "a" for 0x2 and
# a bit no kernel defines).  Both files exist on a filesystem without the
# casefold feature, so that "no encoding" differs from "a kernel without
# the files": the stock kernel has neither.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	kernel=$2
	mount_disk /dev/vda $mnt-a && mount_disk /dev/vdb $mnt-b &&
		mount_disk /dev/vdc $mnt-c && mount_disk /dev/vdd $mnt-d
	ok $? "four filesystems mounted: casefold, strict, plain, unknown flags"
	if [ "$kernel" = stock ]; then
		! [ -e /sys/fs/ext4/vda/encoding ] && [ -d /sys/fs/ext4/vda ]
		ok $? "stock: no /sys/fs/ext4/vda/encoding"
		! [ -e /sys/fs/ext4/vdc/encoding ]
		ok $? "stock: no /sys/fs/ext4/vdc/encoding either"
	else
		is "$(cat /sys/fs/ext4/vda/encoding)" "UTF-8 (12.1.0)" "vda: encoding UTF-8 (12.1.0)"
		is "$(cat /sys/fs/ext4/vda/encoding_flags)" 0 "vda: encoding_flags 0"
		is "$(cat /sys/fs/ext4/vdb/encoding)" "UTF-8 (12.1.0)" "vdb: encoding UTF-8 (12.1.0)"
		is "$(cat /sys/fs/ext4/vdb/encoding_flags)" 1 "vdb: encoding_flags 1 (strict)"
		is "$(cat /sys/fs/ext4/vdc/encoding)" "(none)" "vdc, without casefold: encoding (none)"
		is "$(cat /sys/fs/ext4/vdc/encoding_flags)" 0 "vdc, without casefold: encoding_flags 0"
		is "$(cat /sys/fs/ext4/vdd/encoding_flags)" a \
			"vdd: encoding_flags a (0x2 and a bit no kernel defines, none lost)"
		is "$(stat -c %a /sys/fs/ext4/vda/encoding /sys/fs/ext4/vda/encoding_flags | sort -u)" 444 \
			"the files are read-only, for everyone"
	fi
	umount $mnt-a $mnt-b $mnt-c $mnt-d
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
require_kernel $(test_kernels)
require_cmd debugfs
make_scratch
make_casefold_image "$scratch/a.img" 32M || exit 1
make_casefold_image "$scratch/b.img" 32M -E encoding=utf8,encoding_flags=strict || exit 1
truncate -s 32M "$scratch/c.img" && mkfs.ext4 -q -F "$scratch/c.img" || exit 1
make_casefold_image "$scratch/d.img" 32M || exit 1
set_encoding_flags "$scratch/d.img" 0xa
ok $? "d.img: encoding flags 0xa, and e2fsck -fn (1.47.0) accepts them"
for k in $(test_kernels); do
	guest_run "$k" --disk "$scratch/a.img" --disk "$scratch/b.img" \
		--disk "$scratch/c.img" --disk "$scratch/d.img" -- "$(kernel_role $k)"
done
done_testing
