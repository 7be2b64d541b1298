#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest full
# kernels: one
# The patched libext2fs hashes a casefolded name as the patched kernel
# does, in each encoding: the kernel's own hash of each name of
# data/dx-hash-names.txt (tricky names for every encoding: sharp s,
# title-case digraphs, fullwidth and compatibility forms, Cherokee, NFD,
# Hangul jamo), read back from an indexed +F directory through readdir's
# d_off, which ext4 makes of the hash (hash2pos()), is the one debugfs
# dx_hash -c -e ENCODING prints.  The same names and seed are the
# known answers of e2fsprogs' own test d_casefold_dx_hash (review of the
# e2fsprogs series, finding 8): its expected output must be what this
# kernel says.  In make check-full: make e2fsprogs runs
# d_casefold_dx_hash at every build, and in make check
# e2fsck-encodings-kernel.t finds the kernel's indexes of thousands of
# names in order under the patched e2fsck.

seed=4d1e0aa8-5b1a-4a53-9f4a-2d4c6a7e1b20
encodings="utf8-12.1 utf8-nfkd-12.1 utf8-windows-12.1"

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	names=$top/game-layout-tests/data/dx-hash-names.txt
	for dev in vda vdb vdc; do
		mount_disk /dev/$dev $mnt-$dev && mkdir $mnt-$dev/d && chattr +F $mnt-$dev/d
		ok $? "$dev: mounted, a +F directory"
		# Enough names of its own for an index, then the test's.
		python3 - $mnt-$dev/d "$names" >$mnt-$dev/hashes <<'EOF'
import ctypes, os, sys

class Dirent(ctypes.Structure):
    _fields_ = [("d_ino", ctypes.c_uint64), ("d_off", ctypes.c_int64),
                ("d_reclen", ctypes.c_ushort), ("d_type", ctypes.c_ubyte),
                ("d_name", ctypes.c_char * 256)]

d, names = sys.argv[1], sys.argv[2]
for i in range(300):
    open(os.path.join(d, "pad_%04d" % i), "w").close()
wanted = set()
for line in open(names, "rb"):
    name = line.rstrip(b"\n")
    wanted.add(name)
    open(os.path.join(d.encode(), name), "w").close()

libc = ctypes.CDLL(None, use_errno=True)
libc.opendir.restype = ctypes.c_void_p
libc.readdir.restype = ctypes.POINTER(Dirent)
libc.readdir.argtypes = [ctypes.c_void_p]
dirp = libc.opendir(d.encode())
# An entry's d_off is the position of the entry after it: in an indexed
# directory (hash >> 1) << 32 | minor hash of that entry (64-bit API).
prev_off = None
while True:
    ent = libc.readdir(dirp)
    if not ent:
        break
    name = ent.contents.d_name
    if name in wanted and prev_off is not None:
        sys.stdout.buffer.write(b"%s\t0x%x\t0x%x\n" % (
            name, (prev_off >> 32) << 1, prev_off & 0xffffffff))
    prev_off = ent.contents.d_off
EOF
		is "$(wc -l <$mnt-$dev/hashes)" "$(wc -l <"$names")" "$dev: the kernel's hash of each name read back"
		lsattr -d $mnt-$dev/d | grep -q I
		ok $? "$dev: the directory is indexed"
	done
	cd / && umount $mnt-vda $mnt-vdb $mnt-vdc
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/e2fsprogs.sh"
require_kernel "$(the_kernel)"
require_patched_e2fsprogs
make_scratch

disks=()
for encoding in $encodings; do
	img=$scratch/$encoding.img
	truncate -s 16M "$img"
	"$patched_sbin/mke2fs" -q -F -t ext4 -b 1024 -O casefold \
		-E encoding=$encoding,hash_seed=$seed "$img"
	ok $? "patched mke2fs -E encoding=$encoding,hash_seed=$seed"
	disks+=(--disk "$img")
done
guest_run "$(the_kernel)" "${disks[@]}" --

# The kernel's answers, in the format of d_casefold_dx_hash's output.
for encoding in $encodings; do
	echo "encoding $encoding"
	"$patched_sbin/debugfs" -R "cat /hashes" "$scratch/$encoding.img" 2>/dev/null |
		LC_ALL=C sort | awk -F'\t' '{ printf "Hash of %s is %s (minor %s)\n", $1, $2, $3 }'
done >"$scratch/kernel"

# The patched debugfs' answers.
for encoding in $encodings; do
	echo "encoding $encoding"
	while IFS= read -r name; do
		"$patched_sbin/debugfs" -R "dx_hash -c -e $encoding -h half_md4 -s $seed $name" \
			/dev/null 2>/dev/null | grep '^Hash of'
	done <"$top/game-layout-tests/data/dx-hash-names.txt" | LC_ALL=C sort
done >"$scratch/debugfs"

lines=$(grep -c '^Hash of' "$scratch/kernel")
is "$lines" $((3 * $(wc -l <"$top/game-layout-tests/data/dx-hash-names.txt"))) \
	"the kernel's hash of every name in each encoding"
diff -u "$scratch/kernel" "$scratch/debugfs" >"$scratch/diff"
ok $? "debugfs dx_hash -c gives the kernel's hash of each of the $lines names" ||
	diag "$(head -n 20 "$scratch/diff")"

# e2fsprogs' own test holds the same answers.
expect=$(sed -n '/^+++ b\/tests\/d_casefold_dx_hash\/expect$/,/^diff --git/{/^@@/d;/^+++/d;/^diff/d;s/^+//p}' \
	"$top"/e2fsprogs-patches/*.patch)
[ -n "$expect" ] && diff -u <(printf '%s\n' "$expect") "$scratch/kernel" >"$scratch/diff"
ok $? "d_casefold_dx_hash's expected output is what the kernel says" ||
	diag "$(head -n 20 "$scratch/diff")"

done_testing
