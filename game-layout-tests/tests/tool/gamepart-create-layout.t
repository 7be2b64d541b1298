#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# gamepart create --layout FILE: the directories of a layout file, +F
# exactly where it says "casefold", comments and blank lines ignored; each
# syntax error is reported as FILE:LINE: cause with exit status 2, before
# anything is written.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_gamepart
require_cmd debugfs e2fsck
make_scratch

layout=$scratch/layout
cat >"$layout" <<'LAYOUT'
# a library with a tools tree beside it

Games casefold
Games/common/ casefold	# trailing slash is fine
Games/logs
tools
tools/Windows casefold
LAYOUT
img=$scratch/l.img
"$gp" create --size 32M --layout "$layout" "$img" >/dev/null
ok $? "create with a layout file succeeds"
for d in Games Games/common tools/Windows; do
	is_casefolded "$img" "$d"
	ok $? "$d is +F"
done
for d in Games/logs tools; do
	f=$(inode_flags "$img" "$d")
	ok $? "$d exists"
	is $((f & casefold_fl)) 0 "$d is not +F"
done
[ -z "$(inode_flags "$img" steamapps)" ]
ok $? "the Steam layout is not created as well"
e2fsck -fn "$img" >/dev/null 2>&1
ok $? "e2fsck -fn finds the filesystem clean"

# bad_layout DESCRIPTION LINE CAUSE CONTENT: exit 2, "FILE:LINE: CAUSE".
n=0
bad_layout() {
	local what=$1 line=$2 cause=$3 file status
	n=$((n + 1))
	file=$scratch/bad$n
	printf '%b' "$4" >"$file"
	"$gp" create --size 32M --layout "$file" "$scratch/bad.img" 2>"$scratch/err" >/dev/null
	status=$?
	is "$status" 2 "$what: exit status 2"
	is "$(cat "$scratch/err")" "gamepart: create: $file:$line: $cause" "$what: message"
}
bad_layout "unknown keyword" 3 "unknown keyword 'casefolded' (expected 'casefold')" \
	'# c\na\na/b casefolded\n'
bad_layout "parent not listed" 2 "x/y: parent x is not listed on an earlier line" 'a\nx/y\n'
bad_layout "parent listed later" 1 "a/b: parent a is not listed on an earlier line" 'a/b\na\n'
bad_layout "absolute path" 1 "/steamapps: absolute path (paths are relative to the filesystem root)" \
	'/steamapps\n'
bad_layout "dot-dot" 2 "a/../b: '.' and '..' are not allowed" 'a\na/../b\n'
bad_layout "empty component" 2 "a//b: empty path component" 'a\na//b\n'
bad_layout "listed twice" 3 "a: listed twice" 'a\n\na casefold\n'
bad_layout "keyword twice" 1 "'casefold' given twice" 'a casefold casefold\n'
bad_layout "long name" 1 "$(printf 'x%.0s' $(seq 256)): path component longer than 255 bytes" \
	"$(printf 'x%.0s' $(seq 256))\n"
[ ! -e "$scratch/bad.img" ]
ok $? "no image is created for a bad layout"

printf '# nothing\n\n' >"$scratch/empty"
"$gp" create --size 32M --layout "$scratch/empty" "$scratch/bad.img" 2>"$scratch/err"
is $? 2 "an empty layout: exit status 2"
is "$(cat "$scratch/err")" "gamepart: create: $scratch/empty: no directories in the layout" "an empty layout: message"
"$gp" create --size 32M --layout "$scratch/missing" "$scratch/bad.img" 2>"$scratch/err"
is $? 2 "a missing layout file: exit status 2"
is "$(cat "$scratch/err")" "gamepart: create: $scratch/missing: No such file or directory" "a missing layout file: message"

# Names that fold together cannot both live in a casefolded directory:
# the layout file's line says so, before anything is written.
bad_layout "siblings that fold together in a +F parent" 4 \
	"A/COMMON: folds to A/Common (line 2) in its casefolded parent" 'A casefold\nA/Common\nA/x\nA/COMMON\n'
bad_layout "NFD against NFC in a +F parent" 3 \
	$'S/Cafe\xcc\x81: folds to S/Caf\xc3\xa9 (line 2) in its casefolded parent' \
	'S casefold\nS/Caf\xc3\xa9\nS/Cafe\xcc\x81\n'
[ ! -e "$scratch/bad.img" ]
ok $? "no image is created for either"
printf 'A\nA/Common\nA/COMMON\n' >"$scratch/nofold"
"$gp" create --size 32M --layout "$scratch/nofold" "$scratch/nofold.img" >/dev/null
ok $? "the same siblings in a parent without +F are fine"
done_testing
