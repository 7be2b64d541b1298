#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# check tells a +F directory that already holds colliding names (made
# offline: debugfs links names without comparing them) from a plain
# directory whose names WOULD collide once casefolded.

. "$(dirname "$0")/../../lib/host.sh"
require_gamepart
require_cmd mkfs.ext4 debugfs jq
make_scratch

mkdir -p "$scratch/tree/plain"
touch "$scratch/tree/plain/Save.dat" "$scratch/tree/plain/save.DAT"
make_casefold_image "$scratch/img" 32M -d "$scratch/tree"
# +F on the empty directory first (keeping the extents flag), then the
# names, so their directory entries are made the casefolded way.
cat >"$scratch/cmds" <<CMDS
mkdir cf
set_inode_field cf flags 0x40080000
cd cf
write /dev/null Save.dat
write /dev/null SAVE.DAT
write /dev/null other
CMDS
debugfs -w -f "$scratch/cmds" "$scratch/img" >/dev/null 2>&1
debugfs -R 'stat cf' "$scratch/img" 2>/dev/null | grep -q 'Flags: 0x40080000'
ok $? "setup: cf is +F"

"$gamepart" check "$scratch/img" >"$scratch/out"
is $? 1 "exit status 1"
grep -qxF 'cf: collide: "SAVE.DAT", "Save.dat"' "$scratch/out"
ok $? "+F directory: the names collide now"
grep -qxF 'plain: would collide once casefolded: "Save.dat", "save.DAT"' "$scratch/out"
ok $? "plain directory: the names would collide"

"$gamepart" check --json "$scratch/img" >"$scratch/json"
is "$(jq -r '.collisions[].dir' "$scratch/json" | sort | tr '\n' ' ')" "cf plain " \
	"JSON lists both groups"
done_testing
