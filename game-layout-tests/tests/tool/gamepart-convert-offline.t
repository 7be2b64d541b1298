#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# gamepart convert --offline on an unmounted image without the casefold
# feature: a dry run and the fail policy change nothing; the rename policy
# turns the feature on, makes every directory +F with a hash index e2fsck
# accepts, keeps every inode and renames only the reported names; a second
# run is a no-op; e2undo puts back the very image; DIR arguments limit the
# conversion; and the refusals.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
gamepart_offline_setup python3 cmp

# A library: a colliding file pair and directory pair, a hard link, a
# symbolic link, empty and sparse files, a deep chain and a directory of
# 3,000 entries (an htree of many blocks).
src=$scratch/src
mkdir -p "$src/Game/Data" "$src/Game/Sub" "$src/Game/SUB" "$src/big" "$src/empty"
echo one >"$src/Game/Data/Tex.dds"
echo two >"$src/Game/Data/TEX.DDS"
echo three >"$src/Game/Sub/x"
echo four >"$src/Game/readme.txt"
ln "$src/Game/readme.txt" "$src/Game/hard"
ln -s readme.txt "$src/Game/link"
: >"$src/Game/empty.bin"
truncate -s 1M "$src/Game/sparse.bin"
deep=$src/deep
for i in $(seq 1 20); do deep=$deep/Level$i; done
mkdir -p "$deep" && echo bottom >"$deep/bottom.txt"
for i in $(seq 1 3000); do : >"$src/big/File-$i.dat"; done

orig=$scratch/orig.img
mke2fs -q -t ext4 -d "$src" "$orig" 64M >/dev/null || exit 1
image_manifest "$orig" >"$scratch/orig.manifest"
mapfile -t dirs < <(image_dirs "$orig")
img=$scratch/lib.img
undo=$scratch/lib.e2undo
convert() {
	"$gp" convert --offline --undo-file="$undo" "$@" >"$scratch/out" 2>"$scratch/err"
}

cp "$orig" "$img"
convert --dry-run --on-collision=rename "$img"
is $? 0 "a dry run exits 0"
grep -q "would rename 'Tex.dds' -> 'Tex (case conflict 1).dds'" "$scratch/out"
ok $? "the dry run shows the planned rename"
cmp -s "$orig" "$img"
ok $? "the dry run left the image byte for byte as it was"
[ ! -e "$undo" ]
ok $? "the dry run made no undo file"

convert "$img"
is $? 1 "collisions stop the default (fail) policy with exit status 1"
grep -q '2 groups of names collide, nothing changed' "$scratch/err"
ok $? "it says how many groups collide and that nothing changed"
cmp -s "$orig" "$img"
ok $? "the image is unchanged"
[ ! -e "$undo" ]
ok $? "no undo file is left"

convert --on-collision=rename "$img"
is $? 0 "the rename policy converts (exit status 0)"
cat "$scratch/err" >&2
grep -q "^/Game/Data: renamed 'Tex.dds' -> 'Tex (case conflict 1).dds' (inode [0-9]*)$" "$scratch/out"
ok $? "the report lists the file rename with its inode"
grep -q "^/Game: renamed 'Sub' -> 'Sub (case conflict 1)'" "$scratch/out"
ok $? "the report lists the directory rename"
e2fsck -fn "$img" >"$scratch/fsck" 2>&1
ok $? "e2fsck -fn is clean afterwards" || diag "$(head -20 "$scratch/fsck")"
grep -qw casefold <<<"$(dumpe2fs_field "$img" "Filesystem features")"
ok $? "the casefold feature is on"
is "$(dumpe2fs_field "$img" "Character encoding")" utf8-12.1 "the encoding is utf8-12.1"
is "$(sb_u16 "$img" 0x27e)" 2 \
	"s_encoding_flags 0x2: no name was hashed under other rules (no-compat-fallback)"
mapfile -t dirs < <(convertible_dirs "$img")
is "$(count_casefolded "$img" "${dirs[@]}")" "${#dirs[@]}" "all ${#dirs[@]} directories below the root are +F"
is "$(count_casefolded "$img" / /lost+found)" 0 "the root and lost+found are left as they are, as online"
is "$(($(inode_flags "$img" /big) & 0x1000))" $((0x1000)) "the 3,000-entry directory has a hash index"
sed -e 's|^/Game/Data/Tex\.dds\t|/Game/Data/Tex (case conflict 1).dds\t|' \
	-e 's|^/Game/Sub\([/\t]\)|/Game/Sub (case conflict 1)\1|' \
	"$scratch/orig.manifest" | LC_ALL=C sort >"$scratch/want.manifest"
image_manifest "$img" >"$scratch/got.manifest"
diff -u "$scratch/want.manifest" "$scratch/got.manifest" >"$scratch/diff"
ok $? "every entry keeps its inode, mode, owner and size; only the reported names changed" ||
	diag "$(head -20 "$scratch/diff")"
debugfs -R 'cat "/Game/Sub (case conflict 1)/x"' "$img" 2>/dev/null | grep -qx three
ok $? "a file under a renamed directory reads back"
[ -s "$undo" ]
ok $? "the undo file is kept"

cp "$img" "$scratch/converted.img"
cp "$undo" "$scratch/kept.e2undo"
convert "$img"
is $? 0 "converting again exits 0"
grep -q '^nothing to do' "$scratch/out"
ok $? "and has nothing to do"
cmp -s "$img" "$scratch/converted.img"
ok $? "the image is unchanged by the second run"
cmp -s "$undo" "$scratch/kept.e2undo"
ok $? "the first run's undo file is untouched"

e2undo "$undo" "$img" >"$scratch/e2undo" 2>&1
ok $? "e2undo replays the undo file" || diag "$(cat "$scratch/e2undo")"
cmp -s "$orig" "$img"
ok $? "the rolled-back image is byte for byte the original"

# Only the directories named.
cp "$orig" "$img"
rm -f "$undo"
convert --on-collision=rename "$img" /Game deep/Level1/Level2
is $? 0 "converting two DIRs exits 0"
mapfile -t dirs < <(image_dirs "$img")
mapfile -t game < <(printf '%s\n' "${dirs[@]}" | grep -E '^/Game(/|$)|^/deep/Level1/Level2(/|$)')
is "$(count_casefolded "$img" "${game[@]}")" "${#game[@]}" "all ${#game[@]} directories under them are +F"
is "$(count_casefolded "$img" / /big /deep /deep/Level1 /empty)" 0 "the root and the other directories are not"
e2fsck -fn "$img" >/dev/null 2>&1
ok $? "e2fsck -fn is clean"

# The root is refused as a DIR, as online; lost+found is converted only
# when named.
cp "$orig" "$img"
rm -f "$undo"
convert --on-collision=rename "$img" /
is $? 2 "DIR / is refused"
grep -qF "$img: /: the root of the filesystem, which convert leaves as it is, online and offline" "$scratch/err"
ok $? "with the reason" || diag "$(cat "$scratch/err")"
cmp -s "$orig" "$img" && [ ! -e "$undo" ]
ok $? "and nothing is written"
convert --on-collision=rename "$img" lost+found
is "$?:$(count_casefolded "$img" /lost+found /Game)" 0:1 "lost+found named: converted, and nothing else"

# Without --undo-file: in $E2FSPROGS_UNDO_DIR, named before anything is written.
cp "$orig" "$img"
mkdir "$scratch/undo-dir"
E2FSPROGS_UNDO_DIR=$scratch/undo-dir "$gp" convert --offline --on-collision=rename "$img" \
	>"$scratch/out" 2>"$scratch/err"
is $? 0 "a conversion without --undo-file"
is "$(head -n 1 "$scratch/out")" \
	"undo file: $scratch/undo-dir/gamepart-convert-lib.img.e2undo: every block the conversion overwrites is saved there first" \
	"its first line names the undo file"
[ -s "$scratch/undo-dir/gamepart-convert-lib.img.e2undo" ] && [ -z "$(ls "$PWD" | grep e2undo)" ]
ok $? "which is there, and not in the current directory"

# JSON.
cp "$orig" "$img"
rm -f "$undo"
"$gp" convert --offline --undo-file="$undo" --json --on-collision=rename "$img" >"$scratch/json"
is $? 0 "--json converts"
jq -e --arg undo "$undo" '.convert | .outcome == "converted" and .undo_file == $undo
	and (.renames | length) == 2 and .directories_converted > 20' "$scratch/json" >/dev/null
ok $? "the JSON report names the outcome, the undo file and both renames" ||
	diag "$(jq -c .convert "$scratch/json")"

# Refusals: exit status 2, nothing changed.
cp "$orig" "$img"
rm -f "$undo"
debugfs -w -R "ssv state 0" "$img" 2>/dev/null
cp "$img" "$scratch/before.img"
convert --on-collision=rename "$img"
is $? 2 "a filesystem not cleanly unmounted is refused"
grep -q 'run e2fsck -f' "$scratch/err"
ok $? "the message says to run e2fsck first"
cmp -s "$img" "$scratch/before.img" && [ ! -e "$undo" ]
ok $? "nothing changed, no undo file"

quota=$scratch/quota.img
mke2fs -q -t ext4 -O quota -d "$src" "$quota" 64M >/dev/null 2>&1
cp "$quota" "$scratch/before.img"
convert --on-collision=rename "$quota"
is $? 2 "a filesystem with quotas is refused"
grep -q 'quota' "$scratch/err"
ok $? "the message names the quota feature"
cmp -s "$quota" "$scratch/before.img"
ok $? "nothing changed"

convert --on-collision=rename "$scratch"
is $? 2 "a directory given to --offline is refused"

cp "$orig" "$img"
convert --resume "$img"
is $? 2 "--resume without an interrupted conversion is refused"
grep -q 'no interrupted conversion' "$scratch/err"
ok $? "the message says there is none"

convert --on-collision=rename "$img" /no/such/dir
is $? 2 "a DIR that does not exist is refused"
cmp -s "$orig" "$img"
ok $? "nothing changed"

# A run stopped before its first write leaves an undo file with no record.
cp "$orig" "$img"
: >"$undo"
convert --on-collision=rename "$img"
is $? 0 "an undo file with nothing in it does not stop a conversion"
e2fsck -fn "$img" >/dev/null 2>&1
ok $? "e2fsck -fn is clean"

"$gp" convert --undo-file="$undo" "$scratch" >/dev/null 2>"$scratch/err"
is $? 2 "--undo-file without --offline is a usage error"

done_testing
