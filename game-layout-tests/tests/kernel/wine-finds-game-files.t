#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest slow
# kernels: one
# Windows games find their files however they spell them: on a library
# made by gamepart create and filled from a generated tree (four engines'
# layouts), under the patched kernel, layout-client.exe under Wine opens
# every reference in the game's own spelling and reads the file expected,
# counts every wildcard listing, finds no probed name, and gets Windows'
# answers to a create, an open and a rename of another case of an
# existing name.  The same client on a case-sensitive copy of the tree is
# run for information: where Wine's own emulation answers differently is
# reported, not failed.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	trees_tar=$2
	client=$top/build/wine/bin/layout-client.exe
	wine_setup
	ok $? "a private Wine prefix over the cached one"
	mount_disk /dev/vda $mnt
	lib=$mnt/steamapps/common
	tar -C "$lib" -xf "$trees_tar"
	ok $? "the generated library copied into the +F steamapps/common"
	mkdir $mnt/case-sensitive
	tar -C $mnt/case-sensitive -xf "$trees_tar"

	# Wine would find these names even without +F, by scanning; what
	# makes the scan unneeded is the kernel finding them itself.
	n=$(references_resolved "$lib")
	[ "${n%/*}" = "${n#*/}" ]
	ok $? "the kernel itself resolves every game spelling on +F ($n)"
	diag "on the case-sensitive copy it resolves $(references_resolved $mnt/case-sensitive)"

	# The client's TAP, folded into this test's.
	$wine64 "$client" 'Z:\tmp\mnt\steamapps\common' >/tmp/client.out 2>/tmp/client.err
	status=$?
	client_tap +F /tmp/client.out
	is $status 0 "layout-client.exe exits 0 on the +F library" ||
		diag "$(head -n 5 /tmp/client.err)"

	$wine64 "$client" 'Z:\tmp\mnt\case-sensitive' >/tmp/cs.out 2>/dev/null
	diag "for information, the same client on a case-sensitive copy (Wine's own emulation):"
	diag "  $(grep -c '^ok ' /tmp/cs.out) requests answered as on Windows, $(grep -c '^not ok ' /tmp/cs.out) not"
	grep '^not ok ' /tmp/cs.out | tr -d '\r' | head -n 10 | sed 's/^/  /' | while IFS= read -r l; do diag "$l"; done
	grep '^# timing ' /tmp/cs.out | tr -d '\r' | sed 's/^# /case-sensitive /' | while IFS= read -r l; do diag "$l"; done
	umount $mnt
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_kernel "$(the_kernel)"
[ -f "$build/wine/prefix/system.reg" ] || skip_all "no Wine prefix: run make wine-prefix"
[ -f "$build/wine/bin/layout-client.exe" ] || skip_all "no layout-client.exe: run make windows-progs"
[ -x "$build/bin/gamepart" ] || skip_all "no gamepart: run make tool"
make_scratch
GAMEPART=$build/bin/gamepart "$top/game-layout-tests/game-trees/gen-game-trees" --seed 42 --big 300 --files 60 "$scratch/trees" >/dev/null
ok $? "a generated library: $(tr -d '\n ' <"$scratch/trees/layout.json")"
# One file for the guest to read over 9p: cp -a of the 1,300 entries
# from the host's root took a TCG guest 6 to 8 s, tar -x 0.5 to 0.7.
tar -C "$scratch/trees" -cf "$scratch/trees.tar" .
"$build/bin/gamepart" create --size 256M "$scratch/games.img" >/dev/null
ok $? "gamepart create makes the game-data image"
guest_run "$(the_kernel)" --disk "$scratch/games.img" -- "$scratch/trees.tar"
done_testing
