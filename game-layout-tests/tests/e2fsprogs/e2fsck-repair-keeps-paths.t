#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# A repair by the patched e2fsck changes no file a path opens (review of
# the e2fsprogs series, finding 1).  Names that fold alike are planted in
# three shapes of +F directory, each in an order where the first written
# is not the first by bytes: one block (/small, the planted corpus); a
# directory of several blocks without an index, a group split between
# its first and last block (/linear); an index built with the
# casefolded hashes, the duplicates added to it afterwards (/indexed);
# and, on a second disk with inline_data, a directory kept in its inode
# (/inline), which the repair moves to a block.
# Each kernel looks up every name, in its own spelling and in upper and
# lower case, and records the inode it opens; the patched e2fsck -fy
# repairs; the kernel looks them up again: every lookup opens the same
# inode as before, and every inode of the directory, the ones no path
# reached included, has a name of its own.

if [ "${1-}" = --guest ]; then
	shift
	. "$(dirname "$0")/../../lib/guest.sh"
	mount_disk /dev/vda $mnt
	ok $? "mounted"
	mkdir -p /tmp/mnt-inline
	mount_disk /dev/vdb /tmp/mnt-inline
	ok $? "the inline_data disk mounted"
	# Each name as listed, upper-cased and lower-cased: the inode that
	# opens, or "-".  Then each inode listed, and how many names it has.
	# Written to the share: some 1,500 lines, more than the console
	# carries whole.  $2, after the repair: the name of the record of
	# the run before, whose spellings are looked up again, the renamed
	# ones among them.
	share=/run/vmrun/share
	python3 -S - "${2:+$share/$2}" $mnt/small $mnt/linear $mnt/indexed \
		/tmp/mnt-inline/inline >$share/$1.part <<'EOF'
import os, sys
before = {}
if sys.argv[1]:
    for line in open(sys.argv[1]):
        f = line.split()
        if f[0] == "lookup":
            before.setdefault(f[1], []).append(bytes.fromhex(f[2]))
for d in sys.argv[2:]:
    names = sorted(os.listdir(d.encode()))
    for n in names + before.get(os.path.basename(d), []):
        spellings = [n]
        try:
            s = n.decode("utf-8")
            spellings += [s.upper().encode(), s.lower().encode()]
        except UnicodeDecodeError:
            pass
        for sp in spellings:
            try:
                ino = os.lstat(os.path.join(d.encode(), sp)).st_ino
            except FileNotFoundError:
                ino = "-"
            print("lookup", os.path.basename(d), sp.hex(), ino)
    seen = {}
    for e in os.scandir(d.encode()):
        seen[e.inode()] = seen.get(e.inode(), 0) + 1
    for ino, count in sorted(seen.items()):
        print("inode", os.path.basename(d), ino, count)
EOF
	ok $? "every name looked up in three spellings" &&
		mv $share/$1.part $share/$1
	cd / && umount $mnt /tmp/mnt-inline
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
. "$tests_lib/e2fsprogs.sh"
require_patched_e2fsprogs
require_kernel $(test_kernels)
require_cmd debugfs python3
make_scratch

# debugfs_cmds IMG: the commands on stdin, run against IMG.
debugfs_cmds() {
	debugfs -w -f - "$1" >/dev/null 2>&1
}

img=$scratch/base.img
make_casefold_image "$img" 64M || exit 1
# /indexed first: 300 names, +F, indexed by e2fsck -D with the folded
# hashes (-D works on the whole image, so before anything it would
# repair is planted); the duplicates are added to its leaves afterwards.
{
	echo "mkdir indexed"
	echo "cd indexed"
	for i in $(seq 300); do echo "write /dev/null Texture_$i.DDS"; done
} | debugfs_cmds "$img"
set_casefold "$img" /indexed
"$patched_sbin/e2fsck" -fyD "$img" >/dev/null 2>&1
{
	echo "cd indexed"
	echo "write /dev/null Beta.dds"
	echo "write /dev/null BETA.DDS"
	echo "write /dev/null texture_7.dds"
} | debugfs_cmds "$img"
plant_names "$img" /small +F
# /linear: Beta.dds in its first block, BETA.DDS (first by bytes) in its
# last, 200 names between them and no index.
{
	echo "mkdir linear"
	echo "cd linear"
	echo "write /dev/null Beta.dds"
	for i in $(seq 200); do echo "write /dev/null level_${i}_lightmap_texture_set.dds"; done
	echo "write /dev/null BETA.DDS"
} | debugfs_cmds "$img"
set_casefold "$img" /linear
flags=$(inode_flags "$img" /linear)
[ $((flags & 0x1000)) = 0 ] && [ "$(debugfs -R "stat /linear" "$img" 2>/dev/null |
	sed -n 's/.*Size: \([0-9]*\).*/\1/p' | head -n1)" -gt 4096 ]
ok $? "/linear has several blocks and no index"
# /inline: three names that fit the inode's 60 bytes, Foo.txt first.
inline=$scratch/inline.img
make_casefold_image "$inline" 16M -O inline_data -I 512 || exit 1
{
	echo "mkdir inline"
	echo "cd inline"
	echo "write /dev/null Foo.txt"
	echo "write /dev/null FOO.TXT"
	echo "write /dev/null foo.txt"
} | debugfs_cmds "$inline"
set_casefold "$inline" /inline
flags=$(inode_flags "$inline" /inline)
[ $((flags & 0x10000000)) != 0 ] && [ $((flags & casefold_fl)) != 0 ]
ok $? "/inline is +F and kept in its inode"
flags=$(inode_flags "$img" /indexed)
[ $((flags & 0x1000)) != 0 ] && [ $((flags & casefold_fl)) != 0 ]
ok $? "/indexed is +F and indexed"

mkdir "$scratch/share"
for k in $(test_kernels); do
	cp --sparse=always "$img" "$scratch/$k.img"
	cp --sparse=always "$inline" "$scratch/$k-inline.img"
	disks=(--disk "$scratch/$k.img" --disk "$scratch/$k-inline.img")
	guest_run "$k" "${disks[@]}" --share "$scratch/share" -- "$k.b"
	for i in "$k" "$k-inline"; do
		"$patched_sbin/e2fsck" -fy "$scratch/$i.img" >"$scratch/$i.fsck" 2>&1
		is $? 1 "[$k] the patched e2fsck -fy renamed the duplicates of $i.img" ||
			diag "$(tail -n 20 "$scratch/$i.fsck")"
	done
	guest_run "$k" "${disks[@]}" --share "$scratch/share" -- "$k.a" "$k.b"
	[ -s "$scratch/share/$k.b" ] && [ -s "$scratch/share/$k.a" ]
	ok $? "[$k] the guest wrote both records" || continue
	python3 - "$scratch/share/$k.b" "$scratch/share/$k.a" >"$scratch/$k.verdict" <<'EOF'
import sys
def load(p):
    lookups, inodes = {}, {}
    for line in open(p):
        f = line.split()
        if f[0] == "lookup":
            lookups[(f[1], f[2])] = f[3]
        else:
            inodes.setdefault(f[1], {})[f[2]] = int(f[3])
    return lookups, inodes
bl, bi = load(sys.argv[1])
al, ai = load(sys.argv[2])
for d in sorted(bi):
    changed = [(sp, bl[(d, sp)], al.get((d, sp))) for (dd, sp) in bl
               if dd == d and bl[(d, sp)] != "-" and al.get((d, sp)) != bl[(d, sp)]]
    unreached = sum(1 for ino in bi[d] if bi[d][ino] and
                    ino not in {v for (dd, _), v in bl.items() if dd == d})
    lonely = [ino for ino in ai.get(d, {}) if ai[d][ino] != 1]
    print(d, len([1 for (dd, _) in bl if dd == d]), len(changed), unreached,
          sorted(bi[d]) == sorted(ai.get(d, {})), len(lonely))
    for sp, b, a in changed[:5]:
        print("#", d, bytes.fromhex(sp).decode("utf-8", "replace"), b, "->", a)
EOF
	grep '^#' "$scratch/$k.verdict" | while IFS= read -r line; do diag "$line"; done
	for d in small linear indexed inline; do
		read -r _ looked changed unreached same lonely < <(grep "^$d " "$scratch/$k.verdict")
		[ "${looked:-0}" -gt 0 ] && [ "$changed" = 0 ]
		ok $? "[$k] /$d: each of $looked lookups opens the inode it opened before the repair"
		[ "$unreached" -gt 0 ] && [ "$same" = True ] && [ "$lonely" = 0 ]
		ok $? "[$k] /$d: the $unreached inodes no path reached before each have a name of their own now, no inode lost"
	done
done
done_testing
