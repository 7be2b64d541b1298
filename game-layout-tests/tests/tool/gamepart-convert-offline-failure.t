#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# gamepart convert --offline that fails half-way (a directory block
# becomes unreadable while it runs, as a failing disk's would) stops with
# exit status 2 and leaves its undo file marked unfinished, so that
# status and check report the interruption and --resume, once the block
# reads again, rolls the partial run back with e2undo and converts: the
# image then passes e2fsck -fn and matches one converted in one go.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
gamepart_offline_setup dd od

src=$scratch/src
mkdir -p "$src/Game/Data" "$src/big"
echo one >"$src/Game/Data/Tex.dds"
echo two >"$src/Game/Data/TEX.DDS"
for i in $(seq 1 300); do : >"$src/big/Entry-$i.bin"; done
orig=$scratch/orig.img
mke2fs -q -t ext4 -b 4096 -d "$src" "$orig" 32M >/dev/null || exit 1

ref=$scratch/ref.img
cp "$orig" "$ref"
"$gp" convert --offline --undo-file="$scratch/ref.e2undo" --on-collision=rename "$ref" >/dev/null 2>&1
is $? 0 "the reference converts in one go"
image_manifest "$ref" >"$scratch/ref.manifest"

img=$scratch/lib.img
undo=$scratch/lib.e2undo
cp "$orig" "$img"
# /big is converted after / (parents first): its first block.
block=$(debugfs -R "bmap /big 0" "$img" 2>/dev/null)
[ -n "$block" ] && [ "$block" -gt 0 ]
ok $? "/big's first block is $block" || skip_all "cannot find /big's block"
dd if="$img" of="$scratch/block" bs=4096 skip="$block" count=1 status=none

# Stop the run after its first change, in /, and take the block away.
GAMEPART_TEST_CRASH_AFTER=1:stop "$gp" convert --offline --undo-file="$undo" \
	--on-collision=rename "$img" >/dev/null 2>"$scratch/err" &
pid=$!
poll_until 300 process_stopped_or_gone $pid
dd if=/dev/zero of="$img" bs=4096 seek="$block" count=1 conv=notrunc status=none
kill -CONT $pid
wait $pid
is $? 2 "the run fails when the block cannot be read: exit status 2"
grep -q "the conversion stopped; roll it back and convert again with: gamepart convert --offline --resume --on-collision=rename $img" "$scratch/err"
ok $? "and says how to go on" || diag "$(cat "$scratch/err")"
state=$(od -An -tu1 -j44 -N1 "$undo" | tr -d ' ')
is "$((state & 1))" 0 "the undo file is marked unfinished"
dd if="$scratch/block" of="$img" bs=4096 seek="$block" count=1 conv=notrunc status=none

"$gp" convert --offline --undo-file="$undo" --on-collision=rename "$img" >/dev/null 2>"$scratch/err"
is $? 2 "a new run refuses to start over"
grep -q 'an interrupted conversion left' "$scratch/err"
ok $? "and says why"
"$gp" convert --offline --resume --undo-file="$undo" --on-collision=rename "$img" >/dev/null 2>"$scratch/err"
is $? 0 "--resume rolls back and converts" || diag "$(cat "$scratch/err")"
e2fsck -fn "$img" >"$scratch/fsck" 2>&1
ok $? "e2fsck -fn is clean" || diag "$(head -20 "$scratch/fsck")"
image_manifest "$img" >"$scratch/got.manifest"
diff -u "$scratch/ref.manifest" "$scratch/got.manifest" >"$scratch/diff"
ok $? "the same entries, inodes and renames as in one go" || diag "$(head -20 "$scratch/diff")"

done_testing
