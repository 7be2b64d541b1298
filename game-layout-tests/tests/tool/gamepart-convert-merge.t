#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# gamepart convert --on-collision=merge on a modded game (patched kernel),
# as mod managers leave it: Data/Meshes, Data/meshes and Data/MESHES,
# directories nested in them that collide again, a file "textures"
# beside directories "Textures" and "TEXTURES", two identical copies of
# a file.  The dry run's plan names every merge and rename and changes
# nothing; the conversion makes that plan (the same merges and renames,
# in order), merges directories into the first by bytes, renames only
# files, and the manifest is the one before with exactly those changes;
# every file that kept its name opens by its path before in four
# spellings, with its data, and so under Wine (layout-client.exe) when
# the Wine prefix is built.  Killed in a merge and resumed under the
# rename policy, the merge in flight is still finished as a merge.  Both
# ways of converting a directory.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/convert.sh"
	convert_mount
	p=${DIRECTORIES:-keep}:
	lib=$mnt/mods
	data=$lib/steamapps/common/ModdedGame/Data
	mkdir $lib
	"$tree" make-mods $lib
	"$manifest" $lib >/tmp/before.json

	"$gp" convert --dry-run --on-collision=merge --json $lib >/tmp/plan.json
	is $? 0 "$p a dry run exits 0"
	"$manifest" $lib | cmp -s - /tmp/before.json
	ok $? "$p the dry run changes nothing"
	# Data: {MESHES, Meshes, meshes}, {Sound, sound}, {TEXTURES,
	# Textures, textures}; then Meshes/Sub and Meshes/Sub/deeper meet
	# MESHES/sub and MESHES/sub/Deeper.
	jq -r '.convert.merges[] | "\(.from) -> \(.into)"' /tmp/plan.json |
		sed 's|^steamapps/common/ModdedGame/||; s| steamapps/common/ModdedGame/| |' >/tmp/merges
	cat >/tmp/merges.expected <<-'EOF'
	Data/Meshes/Sub/deeper -> Data/MESHES/sub/Deeper
	Data/Meshes/Sub -> Data/MESHES/sub
	Data/Meshes -> Data/MESHES
	Data/Textures -> Data/TEXTURES
	Data/meshes -> Data/MESHES
	Data/sound -> Data/Sound
	EOF
	diff /tmp/merges.expected /tmp/merges >/tmp/diff
	ok $? "$p the plan merges into the first by bytes, in byte order, nested merges first" ||
		diag "$(cat /tmp/diff)"
	jq -r '.convert.renames[] | "\(.dir)/\(.old) -> \(.new)"' /tmp/plan.json |
		sed 's|^steamapps/common/ModdedGame/||' | sort >/tmp/renames
	cat >/tmp/renames.expected <<-'EOF'
	Data/meshes/a.nif -> a (case conflict 1).nif
	Data/sound/hit.wav -> hit (case conflict 1).wav
	Data/textures -> textures (case conflict 1)
	EOF
	diff /tmp/renames.expected /tmp/renames >/tmp/diff
	ok $? "$p the plan renames files only: the file beside directories, the second of two" ||
		diag "$(cat /tmp/diff)"

	"$gp" convert $directories --on-collision=merge --json $lib \
		>/tmp/convert.json 2>/tmp/err
	is $? 0 "$p --on-collision=merge converts: exit 0" || diag "$(cat /tmp/err)"
	converted "$p merge" $lib /tmp/before.json /tmp/convert.json
	plan_of() {
		jq -c '[.convert.merges[], .convert.renames[]] | sort_by(.step) |
			map([.from, .into, .dir, .old, .new])' "$1"
	}
	is "$(plan_of /tmp/convert.json)" "$(plan_of /tmp/plan.json)" \
		"$p the run made the plan's merges and renames, in its order"
	[ "$(jq '[.convert.merges[], .convert.renames[]] | map(select(.planned | not)) | length' /tmp/convert.json)" = 0 ]
	ok $? "$p nothing unplanned"
	[ -z "$(find "$data" -maxdepth 1 -type d -name meshes -o -maxdepth 1 -name Meshes)" ] &&
		[ -d "$data/MESHES/sub/Deeper" ] && [ "$(ls "$data/MESHES/sub/Deeper")" = "e.nif
f.nif" ]
	ok $? "$p one MESHES is left, with the union of the three, nested too"
	[ -f "$data/textures (case conflict 1)" ] && [ -d "$data/TEXTURES" ] &&
		[ "$(ls "$data/TEXTURES")" = "Floor.dds
wall.dds" ]
	ok $? "$p the file beside the directories is renamed: directories land first"
	cmp -s "$data/Sound/hit.wav" "$data/Sound/hit (case conflict 1).wav"
	ok $? "$p identical copies are both kept"
	"$tree" reach $lib /tmp/before.json /tmp/convert.json >/tmp/reach
	ok $? "$p every file that kept its name opens by its old path in any case, with its data: $(tail -n 1 /tmp/reach)" ||
		diag "$(head -n 10 /tmp/reach)"

	if wine_setup; then
		client=$top/build/wine/bin/layout-client.exe
		$wine64 "$client" --no-changes 'Z:\tmp\mnt\mods' \
			>/tmp/client.out 2>/tmp/client.err
		status=$?
		is $status 0 "$p Wine (layout-client.exe) opens each by its old path, case swapped" ||
			diag "$(tr -d '\r' </tmp/client.out | grep '^not ok' | head -n 5)"
		is "$(grep -c '^ok ' /tmp/client.out)" "$(wc -l <$lib/references.tsv)" \
			"$p Wine: one request per file, all answered"
	else
		skip "no Wine prefix (make wine-prefix)" "$p Wine opens each by its old path"
	fi
	rm -f $lib/references.tsv $lib/probes.tsv
	nothing_left --on-collision=merge

	# Killed inside a merge, resumed under another policy: the merge is
	# finished as planned, the new policy applies to what is left.
	lib2=$mnt/mods-resumed
	mkdir $lib2
	"$tree" make-mods $lib2
	"$manifest" $lib2 >/tmp/before2.json
	{ GAMEPART_TEST_CRASH_AFTER="merging entries" "$gp" convert $directories \
		--on-collision=merge $lib2 >/dev/null 2>&1; } 2>/dev/null
	is $? 137 "$p killed while merging"
	"$gp" convert --resume --on-collision=rename --json $lib2 >/tmp/resume2.json 2>/tmp/err
	is $? 0 "$p --resume --on-collision=rename finishes" || diag "$(cat /tmp/err)"
	[ ! -e "$lib2/steamapps/common/ModdedGame/Data/meshes (case conflict 1)" ] &&
		[ -f "$lib2/steamapps/common/ModdedGame/Data/MESHES/b.nif" ]
	ok $? "$p the merge in flight is finished as a merge, not renamed aside"
	converted "$p resumed under rename" $lib2 /tmp/before2.json /tmp/resume2.json
	unmount_and_fsck
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
gamepart_on_casefold_image 128M --
gamepart_on_casefold_image 128M --env DIRECTORIES=replace --
done_testing
