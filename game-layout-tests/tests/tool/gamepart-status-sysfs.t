#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: each
# gamepart status online, run by an unprivileged user who cannot read the
# block device: on the patched kernel it learns the encoding and its flags
# (all of them: gamepart create sets strict and no-compat-fallback), or that
# there is none, from /sys/fs/ext4/<dev>; on the stock kernel it cannot, and says
# "unknown" with the reason.  As root it reads the superblock on stock.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/gamepart.sh"
	kernel=$2
	mount_disk /dev/vda $mnt || { echo "not ok - mount /dev/vda"; exit 1; }
	field() { sed -n "s/^$1: *//p" /tmp/out; }
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$gp" status $mnt >/tmp/out 2>/tmp/err
	is $? 0 "status as nobody exits 0"
	if [ "$kernel" = stock ]; then
		field encoding | grep -q '^unknown'
		ok $? "stock, as nobody: encoding unknown"
		field casefold | grep -q 'cannot read the superblock on /dev/vda'
		ok $? "stock, as nobody: says the superblock cannot be read"
		"$gp" status $mnt >/tmp/out 2>/tmp/err
		is "$(field encoding)" utf8-12.1 "stock, as root: encoding utf8-12.1"
		is "$(field 'read from')" "the superblock on /dev/vda" "stock, as root: read from the superblock"
	else
		is "$(field encoding)" utf8-12.1 "patched, as nobody: encoding utf8-12.1"
		field strict | grep -q '^yes'
		ok $? "patched, as nobody: strict yes"
		is "$(field flags)" "0x3 (strict, no-compat-fallback)" \
			"patched, as nobody: every flag, from encoding_flags"
		is "$(field 'read from')" /sys/fs/ext4/vda "patched: read from /sys/fs/ext4/vda"
		mount_disk /dev/vdb /tmp/plain && chmod 755 /tmp/plain
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$gp" status /tmp/plain >/tmp/out 2>/tmp/err
		is "$(field casefold)" "feature off" \
			"patched, as nobody, no casefold feature: 'feature off', from encoding (none)"
		is "$(field 'read from')" /sys/fs/ext4/vdb "patched: read from /sys/fs/ext4/vdb"
		umount /tmp/plain
	fi
	umount $mnt
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_kernel $(test_kernels)
require_gamepart
require_cmd setpriv
make_scratch
"$gp" create --size 64M --strict "$scratch/lib.img" >/dev/null || exit 1
truncate -s 32M "$scratch/plain.img" && mkfs.ext4 -q -F "$scratch/plain.img" || exit 1
chmod 755 "$scratch"
for k in $(test_kernels); do
	guest_run "$k" --env "GAMEPART=$gp" --disk "$scratch/lib.img" \
		--disk "$scratch/plain.img" -- "$(kernel_role $k)"
done
done_testing
