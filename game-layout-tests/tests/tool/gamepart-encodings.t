#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# The encodings of the series, from gamepart's side, on the host.  The
# gamepart linked with the series' libext2fs (make tool-series) judges a
# tree on any filesystem with check --encoding: the generated game copied
# from a Windows disk (gen-game-trees --profile ntfs) has no collision
# under utf8-windows-12.1, and under utf8-12.1 and utf8-nfkd-12.1 exactly
# the groups the generator planted as names NTFS keeps apart.  It makes a
# card in each encoding (create --encoding, with the series' mke2fs),
# which dumpe2fs, status and the series' e2fsck agree on, and which check
# folds as its own encoding.  A gamepart on
# the system's libext2fs refuses those encodings before touching anything
# (exit 2), saying why; an unknown name is a usage error.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_cmd python3 jq
require_gamepart
require_gamepart_series
sbin=$build/e2fsprogs/sbin
[ -x "$sbin/mke2fs" ] || skip_all "no $sbin/mke2fs: run make e2fsprogs"
make_scratch
gen=$top/game-layout-tests/game-trees/gen-game-trees

# What the system's libext2fs cannot fold is refused, with the reason.
"$gp" check --json --encoding utf8-windows-12.1 "$scratch" "$scratch" >"$scratch/out" 2>"$scratch/err"
is $? 2 "system libext2fs: check --encoding utf8-windows-12.1 exits 2"
[ ! -s "$scratch/out" ] && [ "$(wc -l <"$scratch/err")" = 1 ]
ok $? "before any target: no report, one message"
grep -q "encoding utf8-windows-12.1: gamepart's libext2fs cannot fold its names (e2fsprogs-patches adds it)" "$scratch/err"
ok $? "and says why" || diag "$(cat "$scratch/err")"
"$gp" create --encoding utf8-nfkd-12.1 --size 64M "$scratch/refused.img" >/dev/null 2>&1
is $? 2 "system libext2fs: create --encoding utf8-nfkd-12.1 exits 2"
[ ! -e "$scratch/refused.img" ]
ok $? "and makes no image"
"$gp_series" fold --encoding utf8-13.0 x >/dev/null 2>"$scratch/err"
is $? 2 "an unknown encoding is a usage error (exit 2)"
grep -q "unknown encoding 'utf8-13.0' (known: utf8-12.1, utf8-nfkd-12.1, utf8-windows-12.1)" "$scratch/err"
ok $? "which names the known ones" || diag "$(cat "$scratch/err")"

GAMEPART=$gp_series "$gen" --profile ntfs --profile unity --encoding utf8-windows-12.1 \
	--big 100 --files 40 "$scratch/tree" >/dev/null
ok $? "a game from a Windows disk, with a Unity game beside it"
planted_groups "$scratch/tree/layout.json" >"$scratch/planted"
is "$(wc -l <"$scratch/planted")" 6 "the generator planted 6 groups of names NTFS keeps apart"
names=$(find "$scratch/tree" -mindepth 1 | wc -l)

"$gp_series" check --json --encoding utf8-windows-12.1 "$scratch/tree" >"$scratch/windows.json" 2>"$scratch/err"
is $? 0 "utf8-windows-12.1: nothing collides (exit 0)"
is "$(jq '.collisions | length' "$scratch/windows.json")" 0 "utf8-windows-12.1: 0 groups"
is "$(jq .scanned "$scratch/windows.json")" "$names" "utf8-windows-12.1: every name examined"
is "$(jq '.ignorable | length' "$scratch/windows.json")" 0 "utf8-windows-12.1: no name has an ignorable code point"

for enc in utf8-12.1 utf8-nfkd-12.1; do
	"$gp_series" check --json --encoding $enc "$scratch/tree" >"$scratch/$enc.json" 2>/dev/null
	is $? 1 "$enc: collisions found (exit 1)"
	d=$(diff "$scratch/planted" <(collision_groups <"$scratch/$enc.json"))
	ok $? "$enc: exactly the 6 planted groups collide" || diag "< planted, > check" "$d"
done
is "$(jq '.ignorable | length' "$scratch/utf8-12.1.json")" 2 \
	"utf8-12.1: two names hold an ignorable code point (U+200B, U+00AD)"

for enc in utf8-12.1 utf8-nfkd-12.1 utf8-windows-12.1; do
	img=$scratch/$enc.img
	PATH=$sbin:$PATH "$gp_series" create --encoding $enc --size 64M "$img" >"$scratch/out" 2>&1
	is $? 0 "$enc: create --encoding $enc" || diag "$(cat "$scratch/out")"
	grep -q "casefold $enc," "$scratch/out"
	ok $? "$enc: create says the encoding" || diag "$(cat "$scratch/out")"
	is "$("$sbin/dumpe2fs" -h "$img" 2>/dev/null | sed -n 's/^Character encoding: *\([^ ]*\).*/\1/p')" "$enc" \
		"$enc: the series' dumpe2fs reads it back"
	"$gp_series" status "$img" >"$scratch/status"
	is "$(sed -n 's/^encoding: *//p' "$scratch/status")" "$enc" "$enc: status names it"
	"$sbin/e2fsck" -fn "$img" >"$scratch/fsck" 2>&1
	ok $? "$enc: the series' e2fsck finds the card clean" || diag "$(tail -n 5 "$scratch/fsck")"
	# Two names of a directory that is not casefolded yet: one name in
	# utf8-12.1 and utf8-nfkd-12.1, two in utf8-windows-12.1.
	printf '%s\n' "mkdir old" "write /dev/null old/straße.txt" "write /dev/null old/strasse.txt" |
		"$sbin/debugfs" -w -f - "$img" >/dev/null 2>&1
	"$gp_series" check --json "$img" >"$scratch/card.json" 2>/dev/null
	st=$?
	want=1
	[ $enc = utf8-windows-12.1 ] && want=0
	is "$st:$(jq '.collisions | length' "$scratch/card.json")" "$want:$want" \
		"$enc: check of the card folds as its encoding: $want group(s) of straße.txt, strasse.txt"
done
done_testing
