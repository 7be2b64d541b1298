#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# gamepart convert folds as the filesystem's encoding does.  One tree
# (straße.txt and strasse.txt, café.txt in NFC and NFD, ab.txt and the
# same with U+200B, Data.txt and DATA.txt) on two unmounted images made
# by the series' mke2fs with the casefold feature, one in
# utf8-windows-12.1 and one in utf8-12.1, converted offline with
# --on-collision=rename by the gamepart linked with the series'
# libext2fs: on the Windows one only Data.txt and DATA.txt collide and one
# of them is renamed; on the other every pair collides.  The series'
# e2fsck finds both clean afterwards (each hash index built with its own
# encoding's folding), and on the Windows one straße.txt and strasse.txt
# are still two files, in a casefolded directory.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_cmd jq
require_gamepart_series
sbin=$build/e2fsprogs/sbin
[ -x "$sbin/mke2fs" ] || skip_all "no $sbin/mke2fs: run make e2fsprogs"
make_scratch
export LSAN_OPTIONS=suppressions=$top/game-layout-tests/data/libext2fs.lsan

src=$scratch/src
mkdir -p "$src/Game"
for name in straße.txt strasse.txt café.txt $'cafe\xcc\x81.txt' ab.txt $'a\xe2\x80\x8bb.txt' \
	Data.txt DATA.txt; do
	echo "$name" >"$src/Game/$name"
done

# renamed JSON: the names convert renamed, sorted, one a line.
renamed() {
	jq -r '.convert.renames[] | .old' "$1" | LC_ALL=C sort
}

for enc in utf8-windows-12.1 utf8-12.1; do
	img=$scratch/$enc.img
	"$sbin/mke2fs" -q -t ext4 -O casefold -E encoding=$enc -d "$src" "$img" 16M >/dev/null
	ok $? "$enc: an image of the tree, no directory casefolded"
	"$gp_series" convert --offline --on-collision=rename --json \
		--undo-file="$scratch/$enc.e2undo" "$img" >"$scratch/$enc.json" 2>"$scratch/err"
	is $? 0 "$enc: convert --offline --on-collision=rename exits 0" || diag "$(cat "$scratch/err")"
	"$sbin/e2fsck" -fn "$img" >"$scratch/fsck" 2>&1
	ok $? "$enc: the series' e2fsck finds it clean" || diag "$(tail -n 5 "$scratch/fsck")"
done

is "$(jq '.collisions | length' "$scratch/utf8-windows-12.1.json")" 1 \
	"utf8-windows-12.1: one group collides"
renamed "$scratch/utf8-windows-12.1.json" | grep -qx -e Data.txt -e DATA.txt &&
	[ "$(renamed "$scratch/utf8-windows-12.1.json" | wc -l)" = 1 ]
ok $? "utf8-windows-12.1: one name is renamed, Data.txt or DATA.txt"
is "$(jq '.collisions | length' "$scratch/utf8-12.1.json")" 4 \
	"utf8-12.1: four groups collide"
is "$(renamed "$scratch/utf8-12.1.json" | wc -l)" 4 "utf8-12.1: one name of each is renamed"

img=$scratch/utf8-windows-12.1.img
a=$("$sbin/debugfs" -R "stat /Game/straße.txt" "$img" 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p')
b=$("$sbin/debugfs" -R "stat /Game/strasse.txt" "$img" 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p')
[ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ]
ok $? "utf8-windows-12.1: straße.txt and strasse.txt are two files (inodes $a, $b)"
PATH=$sbin:$PATH is_casefolded "$img" /Game
ok $? "utf8-windows-12.1: /Game is casefolded"
done_testing
