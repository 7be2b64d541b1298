#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest slow
# kernels: each
# Under Wine, MoveFileExW of save.dat to SAVE.dat in a +F directory
# succeeds, and FindFirstFileW shows the spelling the kernel stores:
# after a native rename(2) to another case, Windows programs see the new
# spelling on the patched kernel and the old one on stock.  That
# MoveFileExW itself stores the new spelling is reported as a TODO: Wine
# 8's wineserver (server/fd.c, set_fd_name) returns early when the target
# is the source's own inode, so it never calls rename(2) for it.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	role=$2
	move=$top/build/wine/bin/move-file.exe
	wine_setup
	ok $? "a private Wine prefix over the cached one"
	cf_mount
	win='Z:\tmp\mnt\ci'

	echo saved >$ci/save.dat
	out=$($wine64 "$move" "$win\\save.dat" "$win\\SAVE.dat" 2>/dev/null | tr -d '\r')
	ok $? "MoveFileExW(save.dat, SAVE.dat) succeeds ($out)"
	todo $([ "$out" = "moved SAVE.dat" ]; echo $?) \
		"wineserver does not call rename(2) for a target that is the source's inode" \
		"FindFirstFileW then lists SAVE.dat"

	"$(prog rename2)" $ci/save.dat $ci/Save.Dat
	out=$($wine64 "$move" --list "$win\\SAVE.DAT" 2>/dev/null | tr -d '\r')
	listed=${out##* }
	if [ $role = stock ]; then
		is "$listed" save.dat "stock: after rename(2) to Save.Dat, Wine still lists save.dat"
	else
		is "$listed" Save.Dat "after rename(2) to Save.Dat, FindFirstFileW lists Save.Dat"
	fi
	cf_done
fi

. "$(dirname "$0")/../../lib/host.sh"
require_prog rename2
[ -f "$build/wine/prefix/system.reg" ] || skip_all "no Wine prefix: run make wine-prefix"
[ -f "$build/wine/bin/move-file.exe" ] || skip_all "no move-file.exe: run make windows-progs"
casefold_guests
done_testing
