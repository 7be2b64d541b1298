#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# gamepart convert --offline killed (SIGKILL) at points spread over the
# changes it makes, then resumed: without --resume it refuses to start
# over; --resume rolls the partial run back with e2undo and converts
# again; the image then passes e2fsck -fn and has the same entries, inodes
# and renames as an image converted without a stop; status and check
# report the interruption.  Prints which phases the stops hit.  4 stops
# under make check, 20 under make check-full.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
gamepart_offline_setup python3

src=$scratch/src
mkdir -p "$src/Game/Data" "$src/Game/Maps" "$src/Game/MAPS" "$src/big"
echo one >"$src/Game/Data/Tex.dds"
echo two >"$src/Game/Data/TEX.DDS"
echo three >"$src/Game/Maps/a.map"
ln "$src/Game/Data/Tex.dds" "$src/Game/hard.dds"
ln -s Data "$src/Game/link"
for i in $(seq 1 1500); do : >"$src/big/Entry-$i.bin"; done
orig=$scratch/orig.img
mke2fs -q -t ext4 -d "$src" "$orig" 32M >/dev/null || exit 1

# The reference: converted in one go.
ref=$scratch/ref.img
cp "$orig" "$ref"
"$gp" convert --offline --undo-file="$scratch/ref.e2undo" --on-collision=rename "$ref" >"$scratch/out" 2>&1
is $? 0 "an uninterrupted conversion succeeds" || diag "$(cat "$scratch/out")"
image_manifest "$ref" >"$scratch/ref.manifest"
mapfile -t dirs < <(convertible_dirs "$ref")
# Each directory is two changes (blocks freed, blocks written) plus one
# per entry linked.
dir_count=$(sed -n 's/^converted: \([0-9]*\) directories.*/\1/p' "$scratch/out")
entries=$(sed -n 's/.*, \([0-9]*\) entries relinked.*/\1/p' "$scratch/out")
changes=$((2 * dir_count + entries))
[ "$changes" -gt 100 ]
ok $? "the conversion makes $changes changes"

stops=4
[ -n "${GAMEPART_FULL:-}" ] && stops=20
points="1 2 $((changes / 2)) $((changes - 1))"
if [ "$stops" -gt 4 ]; then
	points="1 2 3"
	for i in $(seq 1 $((stops - 4))); do
		points="$points $((i * changes / (stops - 3)))"
	done
	points="$points $((changes - 1))"
fi

img=$scratch/lib.img
undo=$scratch/lib.e2undo
declare -A phases
for n in $points; do
	cp "$orig" "$img"
	rm -f "$undo"
	# The braces keep bash's "Killed" out of the TAP stream.
	{
		GAMEPART_TEST_CRASH_AFTER=$n "$gp" convert --offline --undo-file="$undo" \
			--on-collision=rename "$img" >/dev/null 2>"$scratch/err"
		rc=$?
	} 2>/dev/null
	phase=$(sed -n 's/.*test crash after change [0-9]* (\(.*\))$/\1/p' "$scratch/err")
	phase=${phase:-no stop}
	phases[$phase]=$((${phases[$phase]:-0} + 1))
	is $rc 137 "stop $n ($phase): killed"

	"$gp" convert --offline --undo-file="$undo" --on-collision=rename "$img" >/dev/null 2>"$scratch/err"
	is $? 2 "stop $n: a new run refuses to start over"
	grep -q 'an interrupted conversion left' "$scratch/err"
	ok $? "stop $n: and says why"

	"$gp" convert --offline --resume --undo-file="$undo" --on-collision=rename "$img" >"$scratch/out" 2>"$scratch/err"
	is $? 0 "stop $n: --resume finishes" || diag "$(cat "$scratch/err")"
	e2fsck -fn "$img" >"$scratch/fsck" 2>&1
	ok $? "stop $n: e2fsck -fn is clean" || diag "$(head -20 "$scratch/fsck")"
	image_manifest "$img" >"$scratch/got.manifest"
	diff -u "$scratch/ref.manifest" "$scratch/got.manifest" >"$scratch/diff"
	ok $? "stop $n: the same entries, inodes and renames as without a stop" ||
		diag "$(head -20 "$scratch/diff")"
	is "$(count_casefolded "$img" "${dirs[@]}")" "${#dirs[@]}" "stop $n: every directory is +F"
done

# With the default undo file ($E2FSPROGS_UNDO_DIR), status and check
# find the interrupted conversion.
cp "$orig" "$img"
export E2FSPROGS_UNDO_DIR=$scratch/undo
mkdir "$E2FSPROGS_UNDO_DIR"
{
	GAMEPART_TEST_CRASH_AFTER=2 "$gp" convert --offline --on-collision=rename "$img" >/dev/null 2>&1
} 2>/dev/null
default_undo=$E2FSPROGS_UNDO_DIR/gamepart-convert-lib.img.e2undo
[ -s "$default_undo" ]
ok $? "killed with the default undo file: $default_undo is left"
"$gp" status "$img" >"$scratch/out" 2>&1
grep -qxF "an offline conversion was interrupted (undo file $default_undo)" "$scratch/out" &&
	grep -qxF "next: gamepart convert --offline --resume $img" "$scratch/out"
ok $? "status says an offline conversion was interrupted, and how to finish it"
"$gp" check "$img" >/dev/null 2>"$scratch/err"
grep -qF "note: an offline conversion of it was interrupted (undo file $default_undo)" "$scratch/err"
ok $? "check says so too"
"$gp" convert --offline --resume --on-collision=rename "$img" >/dev/null 2>"$scratch/err"
is $? 0 "--resume finds the default undo file and finishes"
"$gp" status "$img" >"$scratch/out" 2>&1
! grep -q 'was interrupted' "$scratch/out"
ok $? "status no longer reports an interruption"

for phase in "${!phases[@]}"; do
	diag "stops in phase '$phase': ${phases[$phase]}"
done
[ "${#phases[@]}" -ge 3 ]
ok $? "the stops hit the three phases of a directory's conversion"

done_testing
