#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# The patched e2fsck on a casefold image with names that fold alike in a
# +F directory (planted with debugfs: with and without suffixes, a taken
# "(case conflict 1)" name, 255-byte names, NFC against NFD, names that
# are not UTF-8 beside them), and a +F directory whose index was hashed
# before it was casefolded: -fn reports every rename with its old and new
# name, -fy repairs with gamepart convert's names, keeping of each group
# the entry the kernel finds (the first written), a second -fn is clean,
# and the stock 1.47.0 e2fsck agrees.  The stock one alone does not look
# for the duplicates on a filesystem without the strict flag.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
. "$tests_lib/e2fsprogs.sh"
require_patched_e2fsprogs
require_cmd debugfs e2fsck
make_scratch

img=$scratch/lib.img
make_casefold_image "$img" 64M || exit 1
# Stale hashes: an index made while /stale was case-sensitive, then +F.
make_stale_index "$img" /stale
flags=$(inode_flags "$img" /stale)
[ $((flags & 0x1000)) -ne 0 ] && [ $((flags & casefold_fl)) -ne 0 ]
ok $? "/stale is indexed (hashed without folding), then +F"

# Then the duplicates, which the stock e2fsck -D would have renamed.
plant_names "$img" /game +F
is "$(names_in "$img" /game | wc -l)" "$(planted_names | wc -l)" "every planted name is in /game"

cp --sparse=always "$img" "$scratch/stock-only.img"
debugfs -w -R "set_inode_field /stale flags $((flags & ~casefold_fl))" "$scratch/stock-only.img" \
	>/dev/null 2>&1
e2fsck -fn "$scratch/stock-only.img" >"$scratch/stock-only.out" 2>&1
ok $? "the stock e2fsck -fn finds nothing wrong with /game's duplicates (why e2fsprogs patch 8 exists)"

"$patched_sbin/e2fsck" -fn "$img" >"$scratch/fn1" 2>&1
is $? 4 "patched e2fsck -fn: errors left uncorrected (exit 4)"
is "$(LC_ALL=C grep -a -c "^Entry '.*' in /game ([0-9]*) has a non-unique filename" "$scratch/fn1")" 8 \
	"-fn names the 8 entries of /game it would rename"
grep -a -q "^Rename to foo (case conflict 1).txt? no" "$scratch/fn1" &&
	grep -a -q "^Rename to FOO (case conflict 2).TXT? no" "$scratch/fn1" &&
	grep -a -q "^Rename to SAVE (case conflict 2).DAT? no" "$scratch/fn1" &&
	grep -a -q "^Rename to .cache (case conflict 1)? no" "$scratch/fn1"
ok $? "-fn gives each its new name: the suffix kept, N skipping a taken name, dotfiles whole" ||
	diag "$(grep -A1 non-unique "$scratch/fn1")"
grep -a -q "^Invalid HTREE directory inode [0-9]* (/stale)" "$scratch/fn1"
ok $? "-fn finds /stale's index wrong" || diag "$(grep -a -v "^Entry\\|^Rename\\|^$" "$scratch/fn1")"

"$patched_sbin/e2fsck" -fy "$img" >"$scratch/fy" 2>&1
is $? 1 "patched e2fsck -fy repairs (exit 1)"
"$patched_sbin/e2fsck" -fn "$img" >"$scratch/fn2" 2>&1
ok $? "a second patched -fn finds the filesystem clean" || diag "$(cat "$scratch/fn2")"
e2fsck -fn "$img" >"$scratch/stock" 2>&1
ok $? "the stock 1.47.0 e2fsck -fn agrees it is clean" || diag "$(cat "$scratch/stock")"
e2fsck -fn -E check_encoding "$img" >"$scratch/stock-ce" 2>&1
# Not UTF-8 is an error only in strict mode, which -E check_encoding
# applies: it may flag bad\377.txt, but no duplicate may be left.
! grep -a -q "Duplicate" "$scratch/stock-ce"
ok $? "nor does the stock one under -E check_encoding find a duplicate left"

is "$(names_in "$img" /game)" "$(renamed_names written)" "/game holds the renamed names, byte for byte, the first written of each group kept"
is "$(names_in "$img" /stale | grep -c '^Texture_[0-9]*\.DDS$')" 300 "/stale keeps its 300 names"
flags=$(inode_flags "$img" /stale)
[ $((flags & 0x1000)) -ne 0 ] && [ $((flags & 0x40000000)) -ne 0 ]
ok $? "/stale is still +F and indexed"
done_testing
