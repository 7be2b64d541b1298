#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# A library copied from a Windows disk fits a utf8-windows-12.1 card with
# nothing renamed.  The generated games (gen-game-trees --profile ntfs,
# with straße and strasse, a precomposed and a decomposed é, names with
# and without an ignorable code point, ﬁ and fi, the Kelvin sign and K,
# side by side) are imported by the gamepart linked with the series'
# libext2fs into a card it made with --encoding utf8-windows-12.1, under
# the patched kernel: the import renames and merges nothing and every
# name arrives byte for byte; the kernel itself resolves every spelling
# the games use, each in another case, and so does layout-client.exe
# under Wine.  The same import into a utf8-12.1 card changes nothing and
# names exactly the groups the generator planted (the ones the two
# encodings differ on), as check --encoding utf8-12.1 of the source does.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/gamepart.sh"
	trees=$2
	gp=$GAMEPART_SERIES
	client=$top/build/wine/bin/layout-client.exe

	# names DIR: every path below DIR, one a line, sorted byte by byte.
	names() {
		(cd "$1" && find . -mindepth 1 ! -name 'gamepart-import-*.json' | LC_ALL=C sort)
	}

	mount_disk /dev/vda $mnt-windows
	lib=$mnt-windows/steamapps/common
	is "$(cat /sys/fs/ext4/vda/encoding)" "UTF-8 Windows (12.1.0)" "windows: the card's encoding"
	"$gp" import --json "$trees" "$lib" >/tmp/windows.json 2>/tmp/windows.err
	is $? 0 "windows: gamepart import exits 0" || diag "$(tail -n 5 /tmp/windows.err)"
	is "$(jq -r .outcome /tmp/windows.json)" imported "windows: outcome imported"
	is "$(jq '(.renames | length) + (.merges | length)' /tmp/windows.json)" 0 \
		"windows: nothing renamed, nothing merged"
	is "$(jq '.report.collisions | length' /tmp/windows.json)" 0 "windows: no group of names"
	d=$(diff <(names "$trees") <(names "$lib"))
	ok $? "windows: every name of the source arrived, byte for byte ($(names "$lib" | wc -l))" ||
		diag "< source, > library" "$d"
	n=$(references_resolved "$lib")
	[ "${n%/*}" = "${n#*/}" ]
	ok $? "windows: the kernel itself resolves every game spelling ($n)"
	[ "$(head -n 1 "$lib/NTFSLIKE/DATA/LOCALIZATION/DE/STRAßE.TXT")" = \
		"gamepart-layout NtfsLike/Data/Localization/de/Straße.txt" ]
	ok $? "windows: STRAßE.TXT reaches Straße.txt"
	[ "$(head -n 1 "$lib/NTFSLIKE/DATA/LOCALIZATION/DE/STRASSE.TXT")" = \
		"gamepart-layout NtfsLike/Data/Localization/de/Strasse.txt" ]
	ok $? "windows: STRASSE.TXT reaches Strasse.txt, not Straße.txt"
	[ "$(head -n 1 "$lib/ntfslike/data/textures/wallstone.dds")" = \
		"gamepart-layout NtfsLike/Data/Textures/WallStone.dds" ]
	ok $? "windows: wallstone.dds reaches WallStone.dds, not the name with U+200B"

	wine_setup
	ok $? "a private Wine prefix over the cached one"
	$wine64 "$client" 'Z:\tmp\mnt-windows\steamapps\common' >/tmp/client.out 2>/tmp/client.err
	status=$?
	client_tap windows /tmp/client.out
	is $status 0 "windows: layout-client.exe exits 0" || diag "$(head -n 5 /tmp/client.err)"
	cd / && umount $mnt-windows
	"$top/build/e2fsprogs/sbin/e2fsck" -fn /dev/vda >/tmp/fsck 2>&1
	ok $? "windows: the series' e2fsck finds the card clean" || diag "$(tail -n 5 /tmp/fsck)"

	mount_disk /dev/vdb $mnt-nfd
	lib=$mnt-nfd/steamapps/common
	"$gp" import --json "$trees" "$lib" >/tmp/nfd.json 2>/tmp/nfd.err
	is $? 1 "utf8-12.1: gamepart import refuses (exit 1)"
	is "$(jq -r .outcome /tmp/nfd.json)" stopped "utf8-12.1: outcome stopped"
	is "$(ls -A "$lib" | wc -l)" 0 "utf8-12.1: nothing changed in the library"
	planted_groups "$trees/layout.json" >/tmp/planted
	d=$(diff /tmp/planted <(jq .report /tmp/nfd.json | collision_groups))
	ok $? "utf8-12.1: the import names exactly the $(wc -l </tmp/planted) planted groups" ||
		diag "< planted, > import" "$d"
	"$gp" check --json --encoding utf8-12.1 "$trees" 2>/dev/null | collision_groups >/tmp/check
	d=$(diff /tmp/planted /tmp/check)
	ok $? "utf8-12.1: and so does check --encoding utf8-12.1 of the source" ||
		diag "< planted, > check" "$d"
	umount $mnt-nfd
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_kernel "$(the_kernel)"
require_cmd jq python3
require_gamepart_series
[ -f "$build/wine/prefix/system.reg" ] || skip_all "no Wine prefix: run make wine-prefix"
[ -f "$build/wine/bin/layout-client.exe" ] || skip_all "no layout-client.exe: run make windows-progs"
[ -x "$build/e2fsprogs/sbin/mke2fs" ] || skip_all "no series mke2fs: run make e2fsprogs"
make_scratch
GAMEPART=$gp_series "$top/game-layout-tests/game-trees/gen-game-trees" --seed 5 \
	--profile ntfs --profile bethesda --encoding utf8-windows-12.1 \
	--big 200 --files 40 "$scratch/trees" >/dev/null
ok $? "games from a Windows disk: $(jq -c '{files, dirs, references, windows_only: (.windows_only | length)}' "$scratch/trees/layout.json")"
for enc in utf8-windows-12.1 utf8-12.1; do
	PATH=$build/e2fsprogs/sbin:$PATH "$gp_series" create --encoding $enc \
		--size 128M "$scratch/$enc.img" >/dev/null
	ok $? "gamepart create --encoding $enc"
done
guest_run "$(the_kernel)" --env "GAMEPART_SERIES=$gp_series" --disk "$scratch/utf8-windows-12.1.img" \
	--disk "$scratch/utf8-12.1.img" -- "$scratch/trees"
done_testing
