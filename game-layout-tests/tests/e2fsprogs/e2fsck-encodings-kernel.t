#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: one
# The series' encodings end to end: the patched mke2fs makes a filesystem
# in utf8-nfkd-12.1 and one in utf8-windows-12.1 (dumpe2fs names them),
# the patched kernel writes in a +F directory of each the tricky-name
# corpus (each name the kernel takes) and a directory of 3,000 names
# (100,000 under make check-full), which htree indexes, of names that
# fold otherwise in each encoding; afterwards the patched e2fsck -fn
# finds both clean, which it could not if libext2fs hashed those names
# with another encoding's table than the kernel, while the stock
# e2fsck refuses to check either.  On the Windows encoding straße and
# strasse are two files, and e2fsck agrees.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	entries=$2
	for dev in vda vdb; do
		mount_disk /dev/$dev $mnt-$dev && mkdir $mnt-$dev/cf $mnt-$dev/big &&
			chattr +F $mnt-$dev/cf $mnt-$dev/big
		ok $? "$dev: mounted, two +F directories"
		"$top/game-layout-tests/progs/name-probe" kernel $mnt-$dev/cf >/dev/null
		ok $? "$dev: the corpus written"
		python3 - $mnt-$dev/big "$entries" <<'EOF'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    # Each name folds otherwise in each encoding (fullwidth letters and
    # the trade mark sign in NFKD; sharp s and a title-case digraph kept
    # as they are in Windows'), so that a hash taken with another
    # encoding's table would put it out of the index's order.
    open(os.path.join(d, "Ｔｅｘｔｕｒｅ_%06d_™_Straße_ǅ.DDS" % i), "w").close()
EOF
		is "$(ls $mnt-$dev/big | wc -l)" "$entries" "$dev: $entries names in one directory"
		lsattr -d $mnt-$dev/big | grep -q I
		ok $? "$dev: the directory is indexed"
	done
	touch $mnt-vdb/cf/straße.txt $mnt-vdb/cf/strasse.txt
	ok $? "windows: straße.txt and strasse.txt are two files"
	cd / && umount $mnt-vda $mnt-vdb
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
. "$tests_lib/e2fsprogs.sh"
require_kernel "$(the_kernel)"
require_patched_e2fsprogs
make_scratch
entries=3000
[ -n "${GAMEPART_FULL:-}" ] && entries=100000

for encoding in utf8-nfkd-12.1 utf8-windows-12.1; do
	img=$scratch/$encoding.img
	truncate -s 512M "$img"
	# Inodes for every name: 512 MiB gets 32,768 by default.  With
	# no_compat_fallback, as on gamepart's cards, the kernel finds names
	# by their hash alone: a create's miss does not read the whole
	# directory (patch 10), and a name hashed with a table other than
	# the kernel's would be lost to lookups too, not only to e2fsck.
	"$patched_sbin/mke2fs" -q -F -t ext4 -N $((entries + 10000)) -O casefold \
		-E encoding=$encoding,encoding_flags=no_compat_fallback "$img"
	ok $? "patched mke2fs -E encoding=$encoding,encoding_flags=no_compat_fallback"
	is "$("$patched_sbin/dumpe2fs" -h "$img" 2>/dev/null |
		sed -n 's/^Character encoding\( flags\)\{0,1\}: *//p' | paste -s -d ' ')" \
		"$encoding no_compat_fallback" "dumpe2fs names it $encoding, with the flag"
done
guest_run "$(the_kernel)" --disk "$scratch/utf8-nfkd-12.1.img" --disk "$scratch/utf8-windows-12.1.img" -- $entries

for encoding in utf8-nfkd-12.1 utf8-windows-12.1; do
	img=$scratch/$encoding.img
	"$patched_sbin/e2fsck" -fn "$img" >"$scratch/fsck" 2>&1
	ok $? "$encoding: the patched e2fsck -fn finds what the kernel wrote clean" ||
		diag "$(head -n 20 "$scratch/fsck")"
	e2fsck -fn "$img" >"$scratch/fsck" 2>&1
	rc=$?
	[ $((rc & 8)) = 8 ] && grep -q 'unsupported encoding' "$scratch/fsck"
	ok $? "$encoding: the stock e2fsck refuses it (exit $rc)"
done
"$patched_sbin/debugfs" -R "ls -l cf" "$scratch/utf8-windows-12.1.img" 2>/dev/null |
	grep -c -e 'stra\\xc3\\x9fe.txt' -e ' strasse.txt' >"$scratch/count"
is "$(cat "$scratch/count")" 2 "windows: both files are in the directory, as debugfs lists it"
done_testing
