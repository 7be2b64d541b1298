#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# gamepart convert and the patched e2fsck give names that fold alike the
# same new names.  The same planted directory, case-sensitive, in two
# copies of one image: gamepart convert --offline --on-collision=rename
# casefolds one; in the other the directory is made +F with debugfs and
# the patched e2fsck -fy renames what collides.  Both must hold the same
# names, byte for byte, the ones the scheme gives, and both images must
# be clean for the stock e2fsck.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
. "$tests_lib/e2fsprogs.sh"
require_patched_e2fsprogs
gamepart_offline_setup mkfs.ext4

make_casefold_image "$scratch/a.img" 64M || exit 1
plant_names "$scratch/a.img" /game
! is_casefolded "$scratch/a.img" /game
ok $? "/game is case-sensitive, its names planted"
cp --sparse=always "$scratch/a.img" "$scratch/b.img"

"$gp" convert --offline --on-collision=rename --undo-file="$scratch/a.e2undo" \
	"$scratch/a.img" /game >"$scratch/convert.out" 2>&1
ok $? "gamepart convert --offline --on-collision=rename succeeds" ||
	diag "$(cat "$scratch/convert.out")"

set_casefold "$scratch/b.img" /game
"$patched_sbin/e2fsck" -fy "$scratch/b.img" >"$scratch/fsck.out" 2>&1
is $? 1 "the patched e2fsck -fy renames in the other copy (exit 1)"

is_casefolded "$scratch/a.img" /game && is_casefolded "$scratch/b.img" /game
ok $? "/game is +F in both"
is "$(names_in "$scratch/b.img" /game)" "$(names_in "$scratch/a.img" /game)" \
	"e2fsck and gamepart convert chose the same names"
is "$(names_in "$scratch/a.img" /game)" "$(renamed_names)" "the names the scheme gives"
for i in a b; do
	e2fsck -fn "$scratch/$i.img" >"$scratch/stock.out" 2>&1
	ok $? "$i.img: the stock e2fsck -fn finds it clean" || diag "$(cat "$scratch/stock.out")"
done
done_testing
