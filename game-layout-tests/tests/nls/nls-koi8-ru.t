#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# koi8-ru is koi8-u but for two bytes, and its char2uni() tested for them
# the wrong way round: on the stock kernel every other byte, ASCII
# included, reads as one of those two letters (U+045E, U+040E).  vfat
# lists and finds names through uni2char(), which is right, but writes a
# new name through char2uni(): a name created with iocharset=koi8-ru is
# stored as a row of those letters.  The series fixes the test (patch
# 38): the name is stored as given, and reads back in UTF-8.  The one
# change of behaviour in part 3.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	kernel=$2
	mkdir -p $mnt
	# "Новый файл.txt" in KOI8 bytes, created through the mount
	mount -t vfat -o iocharset=koi8-ru /dev/vda $mnt &&
		: >"$mnt/$(printf '\xee\xcf\xd7\xd9\xca \xc6\xc1\xca\xcc.txt')"
	ok $? "create a Cyrillic name with iocharset=koi8-ru"
	[ -e $mnt/README.TXT ] && [ -e "$mnt/$(printf '\xe4\xe1\xee\xee\xf9\xe5.bin')" ]
	ok $? "the names already there are found (through uni2char)"
	umount $mnt
	mount -t vfat -o ro,utf8 /dev/vda $mnt
	diag "stored: $(ls $mnt | tr '\n' ' ')"
	if [ "$kernel" = stock ]; then
		[ ! -e "$mnt/Новый файл.txt" ]
		ok $? "stock: the name is not stored as given"
	else
		[ -e "$mnt/Новый файл.txt" ]
		ok $? "the name is stored as given, and reads back in UTF-8"
	fi
	umount $mnt
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/nls.sh"
make_scratch
nls_source_tree 'README.TXT' 'ДАННЫЕ.bin'
for k in $(test_kernels); do
	require_kernel "$k"
	nls_vfat_image "$scratch/$k.img" 4096
	ok $? "[$k] a vfat image with a Latin and a Cyrillic name"
	guest_run "$k" --disk "$scratch/$k.img" -- "$(kernel_role "$k")"
done
done_testing
