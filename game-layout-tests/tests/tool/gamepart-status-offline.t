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
grep -qxF "not casefolded: steamapps, steamapps/common, steamapps/compatdata, steamapps/shadercache" "$scratch/out"
ok $? "one line names what is not casefolded" || diag "$(cat "$scratch/out")"
grep -qxF "next: gamepart convert --offline $steamos steamapps" "$scratch/out"
ok $? "one command converts it all: the top-most directory, no policy where nothing collides"
is "$(grep -c '^next:' "$scratch/out"):$(grep -c 'gamepart convert' "$scratch/out")" 1:1 "and only one"

# Proton prefixes there: one Steam Cloud filled, one empty, and an
# entry without a prefix; a game folder with colliding names.
{
	for p in 1245620 1245620/pfx 1245620/pfx/drive_c 1245620/pfx/drive_c/users 2000 2000/pfx 2000/pfx/drive_c 4000; do
		echo "mkdir steamapps/compatdata/$p"
	done
	echo "write /dev/null steamapps/compatdata/1245620/pfx/drive_c/users/ER0000.sl2"
	echo "mkdir steamapps/common/Game"
	echo "write /dev/null steamapps/common/Game/ReadMe.txt"
	echo "write /dev/null steamapps/common/Game/README.TXT"
} | debugfs -w -f - "$steamos" >/dev/null 2>&1
"$gp" status "$steamos" >"$scratch/out" 2>"$scratch/err"
is $? 0 "with Proton prefixes, status exits 0"
grep -qxF "proton prefixes (steamapps/compatdata/*/pfx/drive_c): 2, 0 casefolded" "$scratch/out"
ok $? "it counts the prefixes" || diag "$(cat "$scratch/out")"
grep -Eq '^  steamapps/compatdata/1245620/pfx/drive_c +not casefolded \(holds files\)$' "$scratch/out" &&
	grep -Eq '^  steamapps/compatdata/2000/pfx/drive_c +not casefolded \(empty\)$' "$scratch/out"
ok $? "it lists each, with whether it holds files"
grep -qxF "game folders (steamapps/common/*): 1, 0 casefolded" "$scratch/out" &&
	! grep -q '^  steamapps/common/Game ' "$scratch/out"
ok $? "it counts the game folders, not listed while common/ itself is not casefolded"
grep -qxF "not casefolded: steamapps, steamapps/common, steamapps/compatdata, steamapps/shadercache, 1 game folder, 2 Proton prefixes" "$scratch/out"
ok $? "the summary counts them" || diag "$(grep 'not casefolded:' "$scratch/out")"
grep -qxF "names that would collide once casefolded: 1 group; gamepart check $steamos lists them, and rename renames them (merge, which joins colliding directories, needs the filesystem mounted)" "$scratch/out"
ok $? "the collisions are told before the command" || diag "$(cat "$scratch/out")"
next="next: gamepart convert --offline --on-collision=rename $steamos steamapps"
grep -qxF "$next" "$scratch/out"
ok $? "one command, with the policy the names need, offline" || diag "$(grep next: "$scratch/out")"
LSAN_OPTIONS=suppressions=$top/game-layout-tests/data/libext2fs.lsan \
	E2FSPROGS_UNDO_DIR=$scratch "$gp" ${next#next: gamepart } >/dev/null 2>"$scratch/err"
is $? 0 "the advised command runs" || diag "$(cat "$scratch/err")"
"$gp" status "$steamos" >"$scratch/out"
grep -qxF "proton prefixes (steamapps/compatdata/*/pfx/drive_c): 2, 2 casefolded" "$scratch/out" &&
	grep -qxF "game folders (steamapps/common/*): 1, 1 casefolded" "$scratch/out" &&
	! grep -q 'not casefolded\|next:' "$scratch/out"
ok $? "then everything is casefolded, and nothing is advised" || diag "$(cat "$scratch/out")"

plain=$scratch/plain.img
truncate -s 32M "$plain"
mke2fs -q -t ext4 "$plain"
"$gp" status "$plain" >"$scratch/out" 2>"$scratch/err"
is $? 0 "status of an ext4 image without casefold exits 0"
is "$(field casefold)" "feature off" "casefold feature off"
grep -qxF "the filesystem has no casefold feature: gamepart convert --offline $plain DIR turns it on and casefolds DIR" "$scratch/out"
ok $? "advice: convert --offline turns the feature on" || diag "$(cat "$scratch/out")"
debugfs -w -R "mkdir steamapps" "$plain" 2>/dev/null
"$gp" status "$plain" >"$scratch/out" 2>"$scratch/err"
grep -qxF "next: gamepart convert --offline $plain steamapps  (it turns the casefold feature on)" "$scratch/out"
ok $? "with a library: the one command, which turns the feature on" || diag "$(cat "$scratch/out")"

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
