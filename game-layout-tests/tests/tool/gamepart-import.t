#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# gamepart import brings a library from a filesystem that is not ext4 (an
# overlay, case-sensitive as btrfs is) into a card made by gamepart
# create, where cp -a would skip every name that collides: with the fail
# policy nothing changes and the groups are named; a dry run changes
# nothing; with merge, every file and symbolic link of the source is in
# the library, at the path the report gives it, with its data, mode and
# mtime, in +F directories, owned by the library's owner, hard links
# kept, a sparse file's holes kept, what the library held untouched,
# and a record of the renames and merges left beside it; a second import
# of the same tree collides with the first; with rename, directories are
# renamed rather than merged, and one already named as the conflict name
# another would get keeps its name.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/gamepart.sh"
	mount_disk /dev/vda $mnt
	lib=$mnt

	# The source: a modded game whose directories collide in case, a
	# game beside it with a file in two spellings (NFC and NFD), a hard
	# link pair and symbolic links, on an overlay.
	base=/run/import
	mkdir -p $base/lower $base/rw $base/src
	mount -t tmpfs tmpfs $base/rw
	mkdir -p $base/rw/upper $base/rw/work
	"$tree" make-mods $base/lower
	# A copy of a card's root: its lost+found is not the library's.
	mkdir $base/lower/lost+found
	echo recovered >$base/lower/lost+found/'#1234'
	game=$base/lower/steamapps/common/Other
	mkdir -p "$game/Save"
	echo nfc >"$game/"$'caf\xc3\xa9.txt'
	echo nfd >"$game/"$'cafe\xcc\x81.txt'
	echo config >"$game/Config.ini"
	ln "$game/Config.ini" "$game/Save/config-link.ini"
	ln -s Config.ini "$game/current.ini"
	ln -s /nowhere "$game/dangling"
	# A sparse file: 64 MiB, of which two pages hold data.
	truncate -s 64M "$game/cache.bin"
	printf head | dd of="$game/cache.bin" conv=notrunc status=none
	printf middle | dd of="$game/cache.bin" bs=1 seek=$((32 << 20)) \
		conv=notrunc status=none
	# A directory named as a conflict name would be: never merged into
	# the renamed one.
	mkdir -p "$game/Mods" "$game/mods" "$game/mods (case conflict 1)"
	echo a >"$game/Mods/a.txt"
	echo b >"$game/mods/b.txt"
	echo c >"$game/mods (case conflict 1)/c.txt"
	mount -t overlay overlay -o lowerdir=$base/lower,upperdir=$base/rw/upper,workdir=$base/rw/work \
		$base/src
	ok $? "the source tree, on an overlay"
	src=$base/src
	# (jq would round the nanoseconds: python3 drops lost+found.)
	"$manifest" $src | python3 -c 'import json, sys
m = json.load(sys.stdin)
json.dump({k: v for k, v in m.items() if not k.startswith("lost+found")}, sys.stdout)' >/tmp/src.json

	# What the library already holds.
	mkdir -p $lib/steamapps/common/Held
	echo held >$lib/steamapps/common/Held/keep.txt
	chown -R 1000:1000 $lib/steamapps/common/Held
	"$manifest" $lib >/tmp/held.json

	unchanged() {
		"$manifest" $lib >/tmp/now.json
		cmp -s /tmp/held.json /tmp/now.json && [ ! -e $lib/.gamepart-import ]
		ok $? "$1: the library is unchanged"
	}

	rc=0
	"$gp" import $src $lib >/tmp/out 2>/tmp/err || rc=$?
	is $rc 1 "fail (the default): exit status 1" || diag "$(cat /tmp/err)"
	grep -q "groups of names would collide in $lib, nothing changed" /tmp/err
	ok $? "fail: says how many groups collide" || diag "$(cat /tmp/err)"
	grep -q "^steamapps/common/ModdedGame/Data: collide: \"MESHES\", \"Meshes\", \"meshes\"" /tmp/out
	ok $? "fail: names the groups, as check does" || diag "$(cat /tmp/out)"
	grep -q "^steamapps/common/Other: collide: .*caf" /tmp/out &&
		grep -q "spelled: " /tmp/out
	ok $? "fail: the NFC/NFD pair, spelled apart"
	unchanged fail

	"$gp" import --dry-run --on-collision=merge $src $lib >/tmp/out 2>/tmp/err
	is $? 0 "dry run: exit status 0"
	grep -q "^would merge 'steamapps/common/ModdedGame/Data/Meshes' into 'steamapps/common/ModdedGame/Data/MESHES'" /tmp/out
	ok $? "dry run: the merges it would make" || diag "$(cat /tmp/out)"
	unchanged "dry run"

	"$gp" import --on-collision=merge --json $src $lib >/tmp/merge.json 2>/tmp/err
	is $? 0 "merge: exit status 0" || diag "$(cat /tmp/err)"
	grep -qx "gamepart: import: SRC/lost+found: note: not imported: .*" /tmp/err &&
		[ ! -e $lib/lost+found/'#1234' ]
	ok $? "merge: the source's lost+found is not imported, and a note says so"
	"$tree" imported /tmp/src.json $lib /tmp/merge.json /tmp/held.json >/tmp/diff
	ok $? "merge: every file of the source is where the report says, as it was" ||
		diag "$(head -n 20 /tmp/diff)"
	is "$(jq '[.merges[]] | length' /tmp/merge.json):$(jq '[.renames[]] | length' /tmp/merge.json)" \
		"7:4" "merge: 7 directories merged, 4 names renamed"
	is "$(jq -r '.renames[].to' /tmp/merge.json | grep -c 'case conflict')" 4 \
		"merge: renamed to ' (case conflict N)' names"
	is "$(jq '.files' /tmp/merge.json)" \
		"$(find $src -type f -not -path "$src/lost+found/*" | wc -l)" "merge: the count of files is the source's (but lost+found)"
	is "$(not_f_dirs $lib/steamapps)" 0 "merge: every directory of the library is +F"
	is "$(find $lib/steamapps -not -user 1000 | wc -l)" 0 \
		"merge: everything belongs to the library's owner, 1000"
	sparse_src=$(stat -c %b "$src/steamapps/common/Other/cache.bin")
	sparse_lib=$(stat -c %b "$lib/steamapps/common/Other/cache.bin")
	# Within one block of 4 KiB, 8 of stat's 512-byte units.
	[ $((sparse_lib - sparse_src)) -le 8 ] && [ $((sparse_src - sparse_lib)) -le 8 ] &&
		cmp -s "$src/steamapps/common/Other/cache.bin" "$lib/steamapps/common/Other/cache.bin"
	ok $? "merge: a sparse file keeps its holes and its data ($sparse_src and $sparse_lib units of 512 bytes allocated)"
	is "$(stat -c %i $lib/steamapps/common/Other/Config.ini)" \
		"$(stat -c %i $lib/steamapps/common/Other/Save/config-link.ini)" \
		"merge: the hard link pair is one file"
	is "$(cat $lib/STEAMAPPS 2>&1 >/dev/null | wc -l):$(cat $lib/steamapps/COMMON/moddedgame/data/meshes/a.NIF | head -n 1)" \
		"1:Meshes/a.nif" "merge: files open in any case below the library root"
	record=$(ls $lib | grep '^gamepart-import-src-.*\.json$')
	[ -n "$record" ] && is "$(jq -c '[.renames, .merges]' "$lib/$record")" \
		"$(jq -c '[.renames, .merges]' /tmp/merge.json)" "merge: the record in the library holds them"
	[ -n "$record" ]
	ok $? "merge: a record file is kept in the library"
	[ ! -e $lib/.gamepart-import ]
	ok $? "merge: no journal is left"

	"$manifest" $lib >/tmp/held.json
	rc=0
	"$gp" import $src $lib >/tmp/out 2>/tmp/err || rc=$?
	is $rc 1 "importing it again collides with the first import"
	unchanged "again"

	# rename, into a library directory of its own.
	mkdir $lib/second
	chattr +F $lib/second
	"$gp" import --on-collision=rename --json $src $lib/second >/tmp/rename.json 2>/tmp/err
	is $? 0 "rename: exit status 0" || diag "$(cat /tmp/err)"
	"$tree" imported /tmp/src.json $lib/second /tmp/rename.json >/tmp/diff
	ok $? "rename: every file of the source is where the report says" ||
		diag "$(head -n 20 /tmp/diff)"
	is "$(jq '[.merges[]] | length' /tmp/rename.json)" 0 "rename: nothing merged"
	jq -r '.renames[].to' /tmp/rename.json | grep -qx 'steamapps/common/ModdedGame/Data/Meshes (case conflict 1)'
	ok $? "rename: a colliding directory is renamed"
	other=$lib/second/steamapps/common/Other
	[ "$(ls "$other/mods (case conflict 1)")" = c.txt ] &&
		[ "$(ls "$other/mods (case conflict 2)")" = b.txt ]
	ok $? "rename: a directory already named 'mods (case conflict 1)' keeps its name, the renamed one takes the next" ||
		diag "$(ls "$other")"
	# For people: every rename and merge on a line, then the summary,
	# the owner and the record.
	mkdir $lib/third
	chattr +F $lib/third
	chown 1000:1000 $lib/third
	"$gp" import --on-collision=merge $src $lib/third >/tmp/out 2>/tmp/err
	is $? 0 "text: exit status 0"
	is "$(grep -c "^renamed '.*' -> '.*(case conflict 1)" /tmp/out):$(grep -c "^merged '.*' into '.*'" /tmp/out)" \
		"4:7" "text: a line for each rename and merge" || diag "$(cat /tmp/out)"
	grep -qx "imported: $(jq .files /tmp/merge.json) files, 2 symbolic links, $(jq .directories /tmp/merge.json) directories copied from $src into $lib/third, 4 renamed, 7 merged" /tmp/out
	ok $? "text: the summary" || diag "$(cat /tmp/out)"
	grep -q "^renamed 'steamapps/common/Other/caf.*\.txt' -> .* (spelled \"caf<U+00E9>\.txt\")$" /tmp/out
	ok $? "text: the renamed spelling of the NFC/NFD pair is told apart" || diag "$(grep caf /tmp/out)"
	grep -qx "owner: the copies belong to .* (1000:1000), the library's owner" /tmp/out
	ok $? "text: whom the copies belong to"
	grep -q "^record: $lib/third/gamepart-import-src-.*\.json" /tmp/out
	ok $? "text: where the record is"
	unmount_and_fsck
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_cmd jq
gamepart_on_created_image --owner 1000:1000
done_testing
