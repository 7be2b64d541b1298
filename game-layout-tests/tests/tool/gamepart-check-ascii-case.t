#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# check, offline on an image: names that differ only in ASCII case are one
# collision group per directory, reported with exit status 1; a tree
# without such names exits 0.

. "$(dirname "$0")/../../lib/host.sh"
require_gamepart
require_cmd mkfs.ext4
make_scratch

tree=$scratch/tree
mkdir -p "$tree/Game/Data" "$tree/Other"
touch "$tree/Game/Readme.txt" "$tree/Game/README.TXT" "$tree/Game/readme.txt" \
	"$tree/Game/Data/a.pak" "$tree/Game/Data/A.PAK" "$tree/Game/Data/b.pak" \
	"$tree/Other/unique" "$tree/Other/names"
mkdir "$tree/Game/data"		# a directory and a directory: Data / data
make_casefold_image "$scratch/img" 32M -d "$tree"

"$gamepart" check "$scratch/img" >"$scratch/out" 2>"$scratch/err"
is $? 1 "collisions: exit status 1"
grep -qxF 'Game: would collide once casefolded: "README.TXT", "Readme.txt", "readme.txt"' "$scratch/out"
ok $? "three case variants are one group, named by their directory"
grep -qxF 'Game: would collide once casefolded: "Data", "data"' "$scratch/out"
ok $? "directories collide like files"
grep -qxF 'Game/Data: would collide once casefolded: "A.PAK", "a.pak"' "$scratch/out"
ok $? "a nested directory is checked"
is "$(grep -c collide "$scratch/out")" 3 "no other group (b.pak, Other/ are alone)"
grep -q '^[0-9]* names in [0-9]* directories: 3 collision groups' "$scratch/out"
ok $? "summary line counts the groups"
is "$(cat "$scratch/err")" "" "nothing on stderr"

mkdir "$scratch/clean"
touch "$scratch/clean/One" "$scratch/clean/Two" "$scratch/clean/one.txt"
make_casefold_image "$scratch/clean.img" 32M -d "$scratch/clean"
"$gamepart" check "$scratch/clean.img" >"$scratch/out"
is $? 0 "no collision: exit status 0"
grep -q ' 0 collision groups' "$scratch/out"
ok $? "summary says 0 collision groups"
done_testing
