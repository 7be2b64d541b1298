#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# gamepart status on unmounted images: encoding name and version, strict
# flag, casefold feature, kernel support, the +F state of each library
# directory, and one advice line per directory that is not casefolded;
# the Proton prefixes that are not, and one advice line that converts
# them (run, it does); a filesystem without casefold, one that is not
# ext4 and a missing target.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_gamepart
require_cmd debugfs mke2fs
make_scratch

field() { sed -n "s/^$1: *//p" "$scratch/out"; }

img=$scratch/new.img
"$gp" create --size 32M --strict "$img" >/dev/null || exit 1
"$gp" status "$img" >"$scratch/out" 2>"$scratch/err"
is $? 0 "status of a created image exits 0"
is "$(field casefold)" "feature on" "casefold feature on"
is "$(field encoding)" utf8-12.1 "encoding utf8-12.1"
field strict | grep -q '^yes'
ok $? "strict: yes"
if [ -e /sys/fs/ext4/features/casefold ]; then want="this kernel supports"; else want="this kernel cannot mount"; fi
field kernel | grep -q "^$want"
ok $? "kernel line agrees with /sys/fs/ext4/features/casefold ($want)"
for d in $steam_dirs; do
	grep -Eq "^  $d +casefolded \(\+F\)$" "$scratch/out"
	ok $? "$d reported casefolded"
done
! grep -q 'gamepart convert\|gamepart casefold' "$scratch/out"
ok $? "no advice when everything is casefolded"

# SteamOS's way: casefold feature, no +F anywhere.
steamos=$scratch/steamos.img
truncate -s 32M "$steamos"
mke2fs -q -t ext4 -m 0 -O casefold "$steamos"
debugfs -w -R "mkdir steamapps" "$steamos" 2>/dev/null
for d in common compatdata shadercache; do
	debugfs -w -R "mkdir steamapps/$d" "$steamos" 2>/dev/null
done
"$gp" status "$steamos" >"$scratch/out" 2>"$scratch/err"
is $? 0 "status of a SteamOS-style image exits 0"
field strict | grep -q '^no$'
ok $? "strict: no"
grep -Eq '^  steamapps/common +not casefolded$' "$scratch/out"
ok $? "steamapps/common reported not casefolded"
grep -Eq '^  steamapps/temp +missing$' "$scratch/out"
ok $? "steamapps/temp reported missing"
grep -qx "steamapps/common is not casefolded: gamepart convert --offline $steamos steamapps/common" "$scratch/out"
ok $? "advice line for steamapps/common"
is "$(grep -c 'is not casefolded: gamepart convert' "$scratch/out")" 4 "one advice line per directory that is not casefolded"

# Proton prefixes there: one Steam Cloud filled, one empty, and an
# entry without a prefix.
{
	for p in 1245620 1245620/pfx 1245620/pfx/drive_c 1245620/pfx/drive_c/users 2000 2000/pfx 2000/pfx/drive_c 4000; do
		echo "mkdir steamapps/compatdata/$p"
	done
	echo "write /dev/null steamapps/compatdata/1245620/pfx/drive_c/users/ER0000.sl2"
} | debugfs -w -f - "$steamos" >/dev/null 2>&1
"$gp" status "$steamos" >"$scratch/out" 2>"$scratch/err"
is $? 0 "with Proton prefixes, status exits 0"
grep -qxF "proton prefixes (steamapps/compatdata/*/pfx/drive_c): 2, 0 casefolded" "$scratch/out"
ok $? "it counts the prefixes" || diag "$(cat "$scratch/out")"
grep -Eq '^  steamapps/compatdata/1245620/pfx/drive_c +not casefolded \(holds files\)$' "$scratch/out" &&
	grep -Eq '^  steamapps/compatdata/2000/pfx/drive_c +not casefolded \(empty\)$' "$scratch/out"
ok $? "it lists each, with whether it holds files"
advice="2 Proton prefixes are not casefolded: gamepart convert --offline $steamos steamapps/compatdata/2000/pfx/drive_c steamapps/compatdata/1245620/pfx/drive_c"
grep -qxF "$advice" "$scratch/out"
ok $? "one advice line converts them all, offline" || diag "$(grep Proton "$scratch/out")"
LSAN_OPTIONS=suppressions=$top/game-layout-tests/data/libext2fs.lsan \
	E2FSPROGS_UNDO_DIR=$scratch "$gp" ${advice#*: gamepart } >/dev/null 2>"$scratch/err"
is $? 0 "the advised command runs" || diag "$(cat "$scratch/err")"
"$gp" status "$steamos" >"$scratch/out"
grep -qxF "proton prefixes (steamapps/compatdata/*/pfx/drive_c): 2, 2 casefolded" "$scratch/out" &&
	! grep -q 'Proton prefix' "$scratch/out"
ok $? "then both are casefolded, and nothing is advised for them"

plain=$scratch/plain.img
truncate -s 32M "$plain"
mke2fs -q -t ext4 "$plain"
"$gp" status "$plain" >"$scratch/out" 2>"$scratch/err"
is $? 0 "status of an ext4 image without casefold exits 0"
is "$(field casefold)" "feature off" "casefold feature off"
grep -q '^the filesystem has no casefold feature: .*tune2fs -O casefold' "$scratch/out"
ok $? "advice: add the feature with tune2fs"

truncate -s 32M "$scratch/zero.img"
"$gp" status "$scratch/zero.img" >/dev/null 2>"$scratch/err"
is $? 2 "an image that holds no ext4: exit status 2"
grep -q "^gamepart: status: $scratch/zero.img: " "$scratch/err"
ok $? "an image that holds no ext4: one message naming it"

"$gp" status "$scratch/none.img" >/dev/null 2>"$scratch/err"
is $? 2 "a missing target: exit status 2"
grep -q "^gamepart: status: $scratch/none.img: No such file or directory" "$scratch/err"
ok $? "a missing target: message"
"$gp" status >/dev/null 2>"$scratch/err"
is $? 2 "no target: exit status 2"
done_testing
