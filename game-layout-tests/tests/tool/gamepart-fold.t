#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# gamepart fold answers each name with the first name of the run that
# folds like it, by the rule check uses (utf8-12.1: NFD, full case
# folding, ignorables dropped; invalid UTF-8 equal only to itself), from
# its arguments, from standard input line by line (answering each line
# before the next is read), and NUL-separated with -z.

. "$(dirname "$0")/../../lib/host.sh"
require_gamepart
make_scratch

# answers NAME...: gamepart fold's answers, joined with "|".
answers() {
	"$gamepart" fold "$@" | paste -sd'|'
}

is "$(answers Textures textures TEXTURES Meshes)" "Textures|Textures|Textures|Meshes" \
	"ASCII names that differ in case answer with the first"
is "$(answers $'caf\xc3\xa9' $'cafe\xcc\x81')" $'caf\xc3\xa9|caf\xc3\xa9' \
	"NFC and NFD forms are one name"
is "$(answers $'stra\xc3\x9fe' STRASSE)" $'stra\xc3\x9fe|stra\xc3\x9fe' \
	"sharp s folds to ss (full case folding)"
is "$(answers $'a\xe2\x80\x8bb' ab)" $'a\xe2\x80\x8bb|a\xe2\x80\x8bb' \
	"an ignorable code point is dropped"
is "$(answers $'\xef\xbc\xa1' a)" $'\xef\xbc\xa1|a' \
	"a fullwidth letter is not its ASCII one (no compatibility mappings)"
is "$(answers $'\xc4\xb1' i)" $'\xc4\xb1|i' "dotless i is not i"
is "$(answers $'x\xff' $'X\xff' $'x\xff')" $'x\xff|X\xff|x\xff' \
	"invalid UTF-8 is equal only to itself, byte for byte"

# Standard input, one answer per line, each before the next line is
# read: a coprocess that waits for every answer would hang otherwise.
coproc FOLD { "$gamepart" fold; }
got=
for n in Data data DATA other; do
	echo "$n" >&"${FOLD[1]}"
	IFS= read -r -t 30 line <&"${FOLD[0]}" || line="(no answer)"
	got+="$line|"
done
exec {FOLD[1]}>&-
wait "$FOLD_PID"
is "$?|$got" "0|Data|Data|Data|other|" "standard input: answered line by line, exit 0"

printf 'Save\nGame\0save\ngame\0' | "$gamepart" fold -z | tr '\0\n' '|~' >"$scratch/z"
is "$(cat "$scratch/z")" "Save~Game|Save~Game|" "-z: NUL-separated records, newlines inside names"

"$gamepart" fold --frobnicate 2>"$scratch/err" >/dev/null
is "$?|$(cat "$scratch/err")" "2|gamepart: fold: --frobnicate: unknown option; see 'gamepart fold --help'" \
	"an unknown option: exit 2, the shared message"

"$gamepart" fold --null=yes a 2>"$scratch/err" >/dev/null
is "$?|$(cat "$scratch/err")" "2|gamepart: fold: --null: takes no argument; see 'gamepart fold --help'" \
	"a long option given an argument it does not take: exit 2, said so"

done_testing
