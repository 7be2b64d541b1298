#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# gamepart convert and the patched e2fsck give names that fold alike the
# same new names, and differ only in which entry of a group keeps its
# name.  The same planted directory, case-sensitive, in copies of one
# image: gamepart convert --offline --on-collision=rename casefolds one,
# keeping the first of each group by bytes (no kernel has folded the
# directory: each name reached its own file); in another the directory
# is made +F with debugfs and the patched e2fsck -fy renames what
# collides, keeping the first in the directory's order, which is the
# entry the kernel finds.  Where the names were written in byte order the
# two rules meet, and both copies hold the same names, byte for byte.
# Every image must be clean for the stock e2fsck.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
. "$tests_lib/e2fsprogs.sh"
require_patched_e2fsprogs
gamepart_offline_setup mkfs.ext4

make_casefold_image "$scratch/a.img" 64M || exit 1
cp --sparse=always "$scratch/a.img" "$scratch/c.img"
plant_names "$scratch/a.img" /game
! is_casefolded "$scratch/a.img" /game
ok $? "/game is case-sensitive, its names planted"
cp --sparse=always "$scratch/a.img" "$scratch/b.img"
plant_names "$scratch/c.img" /game "" bytes

"$gp" convert --offline --on-collision=rename --undo-file="$scratch/a.e2undo" \
	"$scratch/a.img" /game >"$scratch/convert.out" 2>&1
ok $? "gamepart convert --offline --on-collision=rename succeeds" ||
	diag "$(cat "$scratch/convert.out")"

for i in b c; do
	set_casefold "$scratch/$i.img" /game
	"$patched_sbin/e2fsck" -fy "$scratch/$i.img" >"$scratch/fsck.out" 2>&1
	is $? 1 "$i.img: the patched e2fsck -fy renames (exit 1)"
done

is_casefolded "$scratch/a.img" /game && is_casefolded "$scratch/b.img" /game &&
	is_casefolded "$scratch/c.img" /game
ok $? "/game is +F in every copy"
is "$(names_in "$scratch/a.img" /game)" "$(renamed_names)" \
	"gamepart convert: the names the scheme gives, the first of each group by bytes kept"
is "$(names_in "$scratch/b.img" /game)" "$(renamed_names written)" \
	"e2fsck: the same new names, the first written of each group kept"
is "$(names_in "$scratch/c.img" /game)" "$(names_in "$scratch/a.img" /game)" \
	"written in byte order, e2fsck and gamepart convert chose the same names"
for i in a b c; do
	e2fsck -fn "$scratch/$i.img" >"$scratch/stock.out" 2>&1
	ok $? "$i.img: the stock e2fsck -fn finds it clean" || diag "$(cat "$scratch/stock.out")"
done
done_testing
