#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# gamepart advises tune2fs -O casefold for a library on a filesystem
# without the feature, then gamepart convert --offline.  The patched
# tune2fs says that the library's directories stay case-sensitive,
# naming no tool of ours (review of the e2fsprogs series, finding 14:
# upstream ships no advice that names a downstream tool), and the
# conversion then makes them case-insensitive; on a new filesystem it
# says nothing, and with the encrypt feature it notes the kernels that
# cannot mount the result.
# The stock e2fsck finds every result clean.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
. "$tests_lib/e2fsprogs.sh"
require_patched_e2fsprogs
gamepart_offline_setup mkfs.ext4

img=$scratch/lib.img
truncate -s 64M "$img"
mkfs.ext4 -q -F "$img"
printf '%s\n' "mkdir steamapps" "mkdir steamapps/common" "mkdir steamapps/common/Game" \
	"write /dev/null steamapps/common/Game/Data.pak" >"$scratch/cmds"
debugfs -w -f "$scratch/cmds" "$img" >/dev/null 2>&1

"$patched_sbin/tune2fs" -O casefold "$img" >"$scratch/out" 2>&1
ok $? "tune2fs -O casefold succeeds on a library that has data"
grep -q "Existing directories stay case-sensitive" "$scratch/out" &&
	! grep -q gamepart "$scratch/out"
ok $? "it says the directories stay case-sensitive, and names no tool of ours" ||
	diag "$(cat "$scratch/out")"
! grep -q encrypt "$scratch/out"
ok $? "no note about encryption without the encrypt feature"
e2fsck -fn "$img" >/dev/null 2>&1
ok $? "the stock e2fsck -fn finds it clean"

"$gp" convert --offline --undo-file="$scratch/undo" "$img" /steamapps >"$scratch/convert" 2>&1
ok $? "gamepart convert --offline, the step gamepart casefold names, then converts the library" ||
	diag "$(cat "$scratch/convert")"
is_casefolded "$img" /steamapps/common/Game
ok $? "steamapps/common/Game is +F"

truncate -s 32M "$scratch/new.img"
mkfs.ext4 -q -F "$scratch/new.img"
"$patched_sbin/tune2fs" -O casefold "$scratch/new.img" >"$scratch/out" 2>&1
ok $? "tune2fs -O casefold succeeds on a new filesystem"
! grep -q "stay case-sensitive" "$scratch/out"
ok $? "and says nothing about converting: nothing to convert"

truncate -s 32M "$scratch/enc.img"
mkfs.ext4 -q -F -O encrypt "$scratch/enc.img"
"$patched_sbin/tune2fs" -O casefold "$scratch/enc.img" >"$scratch/out" 2>&1
ok $? "tune2fs -O casefold accepts a filesystem with the encrypt feature"
grep -q "Linux before 5.13 cannot mount" "$scratch/out"
ok $? "and notes that Linux before 5.13 cannot mount it" || diag "$(cat "$scratch/out")"
e2fsck -fn "$scratch/enc.img" >/dev/null 2>&1
ok $? "the stock e2fsck -fn finds encrypt and casefold together clean"
done_testing
