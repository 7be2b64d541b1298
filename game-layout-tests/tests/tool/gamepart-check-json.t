#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# check --json prints one valid JSON document with exactly the keys the
# man page gives (partition-tool/gamepart.8, check --json); bytes that
# are not valid UTF-8 appear as the four characters \xNN, in names and
# in directory paths; such names are "invalid", not collisions, and alone
# do not make the exit status 1.

. "$(dirname "$0")/../../lib/host.sh"
require_gamepart
require_cmd mkfs.ext4 jq
make_scratch

t=$scratch/tree
mkdir -p "$t/ok" "$t/"$'bad\xffdir'
touch "$t/ok/"$'caf\xe9' "$t/ok/"$'caf\xc3\xa9' "$t/ok/"$'\xc0\xaf' "$t/ok/plain" \
	"$t/"$'bad\xffdir/x' "$t/"$'bad\xffdir/'$'\xed\xa0\x80'
make_casefold_image "$scratch/img" 32M -d "$t"

"$gamepart" check --json "$scratch/img" >"$scratch/json" 2>"$scratch/err"
is $? 0 "invalid names alone: exit status 0"
jq empty "$scratch/json"
ok $? "output is valid JSON (jq)"
is "$(jq -c 'keys_unsorted' "$scratch/json")" '["scanned","collisions","invalid","ignorable"]' \
	"top-level keys are scanned, collisions, invalid, ignorable"
# Names in the image: lost+found, ok, bad\xffdir, 4 in ok, 2 in bad\xffdir.
is "$(jq .scanned "$scratch/json")" 9 "scanned counts every name"
is "$(jq -r '.invalid[] | .dir + " " + .name' "$scratch/json" | sort | tr '\n' '|')" \
	'. bad\xffdir|bad\xffdir \xed\xa0\x80|ok \xc0\xaf|ok caf\xe9|' \
	"Latin-1, overlong and surrogate bytes are invalid, written as \\xNN"
grep -qF '"caf\\xe9"' "$scratch/json"
ok $? "in the JSON text the backslash itself is escaped"
is "$(jq '.collisions | length' "$scratch/json")" 0 \
	"an invalid name is opaque: caf\\xe9 does not collide with caf\xc3\xa9"
is "$(cat "$scratch/err")" "" "nothing on stderr"

mkdir "$scratch/coll"
touch "$scratch/coll/A" "$scratch/coll/a"
make_casefold_image "$scratch/coll.img" 32M -d "$scratch/coll"
"$gamepart" check --json "$scratch/coll.img" >"$scratch/json"
is $? 1 "--json keeps exit status 1 for collisions"
is "$(jq -c '.collisions' "$scratch/json")" '[{"dir":".","names":["A","a"],"spelled":["A","a"]}]' \
	"the root directory is \".\", names sorted"
done_testing
