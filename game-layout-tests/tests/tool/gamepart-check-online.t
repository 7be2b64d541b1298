#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# check walks a mounted directory online (here: a scratch directory on the
# host's own filesystem, when it is ext4; nothing is mounted): it never
# follows symbolic links, and it finds the same names as offline on an
# image made from the same tree.

. "$(dirname "$0")/../../lib/host.sh"
require_gamepart
require_cmd mkfs.ext4 jq
make_scratch
[ "$(stat -f -c %T "$scratch")" = ext2/ext3 ] ||
	skip_all "$scratch is not on ext4 (online walking is tested in the guest)"

t=$scratch/tree
mkdir -p "$t/Game/Sub" "$scratch/outside"
touch "$t/Game/Level1.map" "$t/Game/LEVEL1.MAP" "$t/Game/Sub/"$'n\xc3\xa4me' \
	"$t/Game/Sub/"$'na\xcc\x88me' "$t/"$'odd\xfe' "$t/"$'zero\xe2\x80\x8bwidth'
touch "$scratch/outside/X" "$scratch/outside/x"
ln -s ../outside "$t/Game/link"		# a symbolic link to a directory
ln -s "$scratch/outside" "$t/abs"

"$gamepart" check --json "$t" >"$scratch/online.json" 2>"$scratch/err"
is $? 1 "online: collisions, exit status 1"
is "$(jq -r '.collisions[] | .dir + ": " + (.names | join(" "))' "$scratch/online.json" | sort | tr '\n' '|')" \
	$'Game/Sub: na\xcc\x88me n\xc3\xa4me|Game: LEVEL1.MAP Level1.map|' \
	"online: the groups, and nothing behind the symbolic links"
is "$(jq -r '.invalid[].name' "$scratch/online.json")" 'odd\xfe' "online: invalid name"
is "$(jq -r '.ignorable[].name' "$scratch/online.json")" $'zero\xe2\x80\x8bwidth' "online: ignorable"
# Only the superblock note (the device is rarely readable here), no error.
grep -v ': note: ' "$scratch/err" >/dev/null
ok $((!$?)) "online: no error messages"

make_casefold_image "$scratch/img" 32M -d "$t"
"$gamepart" check --json "$scratch/img" >"$scratch/offline.json"
is $? 1 "offline: exit status 1"
for key in collisions invalid ignorable; do
	is "$(jq -c ".$key" "$scratch/offline.json")" "$(jq -c ".$key" "$scratch/online.json")" \
		"online and offline agree on $key"
done
# The image also holds lost+found.
is "$(jq .scanned "$scratch/offline.json")" "$(($(jq .scanned "$scratch/online.json") + 1))" \
	"offline scanned the same names plus lost+found"

"$gamepart" check "$t/Game/Sub" >"$scratch/out" 2>/dev/null
is $? 1 "a subdirectory as the start"
grep -qF '.: would collide once casefolded:' "$scratch/out"
ok $? "paths are relative to the start"

chmod 000 "$t/Game/Sub"
if [ "$(id -u)" -ne 0 ]; then
	"$gamepart" check "$t" >/dev/null 2>"$scratch/err"
	is $? 2 "an unreadable directory: exit status 2"
	grep -q "^gamepart: check: $t/Game/Sub: Permission denied$" "$scratch/err"
	ok $? "an unreadable directory is named"
elif command -v setpriv >/dev/null; then
	chmod 755 "$scratch" "$t" "$t/Game"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$gamepart" check "$t" \
		>/dev/null 2>"$scratch/err"
	is $? 2 "an unreadable directory: exit status 2"
	grep -q "^gamepart: check: $t/Game/Sub: Permission denied$" "$scratch/err"
	ok $? "an unreadable directory is named"
fi
chmod 755 "$t/Game/Sub"
done_testing
