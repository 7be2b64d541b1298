#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# check folds Unicode as the kernel's utf8-12.1 does (NFD + full case
# fold, ignorables dropped, no compatibility mappings): NFC/NFD, sharp s,
# Kelvin sign, final sigma, the fi ligature and ignorables collide;
# fullwidth letters and dotless i do not.

. "$(dirname "$0")/../../lib/host.sh"
require_gamepart
require_cmd mkfs.ext4 jq
make_scratch

# One directory per case, so that each group is asserted on its own.
d=$scratch/tree
mk() {	# mk DIR NAME...
	local dir=$d/$1
	shift
	mkdir -p "$dir"
	for n in "$@"; do touch "$dir/$n"; done
}
mk nfc-nfd $'caf\xc3\xa9' $'cafe\xcc\x81'
mk sharp-s $'stra\xc3\x9fe' 'STRASSE' $'STRA\xe1\xba\x9eE'
mk kelvin $'\xe2\x84\xaa' 'k'
mk sigma $'\xcf\x83' $'\xcf\x82' $'\xce\xa3'
mk ligature $'\xef\xac\x81le' 'FILE'
mk ignorable 'ab' $'a\xe2\x80\x8bb' $'a\xc2\xadb'
mk only-ignorables $'\xe2\x80\x8b' $'\xc2\xad\xc2\xad'
mk fullwidth $'\xef\xbc\xa1' 'a'
mk dotless $'\xc4\xb1' 'i' 'I'
mk unassigned $'\xf0\x9f\xa5\xb1' $'\xf0\x9f\xa5\xb2'	# U+1F971, U+1F972: after 12.1
make_casefold_image "$scratch/img" 32M -d "$d"

"$gamepart" check --json "$scratch/img" >"$scratch/json"
is $? 1 "collisions: exit status 1"
group() {	# DIR's groups, one a line, names in code point order
	jq -r --arg d "$1" '.collisions[] | select(.dir == $d) | .names | sort | join(" ")' \
		"$scratch/json" | sort
}
is "$(group nfc-nfd)" $'cafe\xcc\x81 caf\xc3\xa9' "NFC and NFD spellings collide"
is "$(group sharp-s)" $'STRASSE STRA\xe1\xba\x9eE stra\xc3\x9fe' "sharp s, capital sharp s and ss collide"
is "$(group kelvin)" $'k \xe2\x84\xaa' "Kelvin sign and k collide"
is "$(group sigma)" $'\xce\xa3 \xcf\x82 \xcf\x83' "sigma, final sigma and capital sigma collide"
is "$(group ligature)" $'FILE \xef\xac\x81le' "the fi ligature folds to fi"
is "$(group ignorable)" $'ab a\xc2\xadb a\xe2\x80\x8bb' "names differing by ignorables collide"
is "$(group only-ignorables)" $'\xc2\xad\xc2\xad \xe2\x80\x8b' "names made only of ignorables collide"
is "$(group fullwidth)" "" "fullwidth A is not a (no compatibility folding)"
is "$(group dotless)" "I i" "dotless i stays apart from i and I"
is "$(group unassigned)" "" "code points unassigned in 12.1 fold as themselves"

ign=$(jq -r '.ignorable[] | .dir + "/" + .name' "$scratch/json" | sort | tr '\n' ' ')
is "$ign" $'ignorable/a\xc2\xadb ignorable/a\xe2\x80\x8bb only-ignorables/\xc2\xad\xc2\xad only-ignorables/\xe2\x80\x8b ' \
	"names with ignorable code points are listed, and only those"
is "$(jq '.invalid | length' "$scratch/json")" 0 "no invalid names"

"$gamepart" check "$scratch/img" >"$scratch/out"
grep -qF 'ignorable: ignorable U+200B: "a' "$scratch/out"
ok $? "human form names the ignorable code point"

# NFC and NFD draw alike: both forms show the code points that differ.
is "$(jq -r '.collisions[] | select(.dir == "nfc-nfd") | .spelled | join(" ")' "$scratch/json")" \
	"cafe<U+0301> caf<U+00E9>" "JSON: each name spelled with its code points beyond ASCII"
is "$(jq -r '.collisions[] | select(.dir == "sigma") | .spelled | join(" ")' "$scratch/json")" \
	"<U+03A3> <U+03C2> <U+03C3>" "JSON: the sigmas, told apart"
grep -A1 '^nfc-nfd: ' "$scratch/out" | tail -n 1 | grep -qxF '    spelled: "cafe<U+0301>", "caf<U+00E9>"'
ok $? "human form: an indented spelled: line under the NFC/NFD group" || diag "$(cat "$scratch/out")"
is "$(grep -A1 '^dotless: ' "$scratch/out" | sed -n 's/^dotless: .*: //p;/spelled/p')" '"I", "i"' \
	"an ASCII-only group (dotless/I, i) has no spelled: line"
done_testing
