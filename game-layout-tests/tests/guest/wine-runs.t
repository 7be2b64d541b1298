#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Wine runs a Windows program in the guest: print-file.exe opens a file
# through CreateFileW, by a path whose case differs from the disk's, and
# prints it.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	wine_setup
	ok $? "a private Wine prefix over the cached one"
	mkdir -p /tmp/games/SomeGame
	echo "hello from the guest" >/tmp/games/SomeGame/ReadMe.txt
	out=$($wine64 "$top/build/wine/bin/print-file.exe" 'Z:\tmp\games\somegame\README.TXT' 2>/tmp/wine.err)
	status=$?
	is "$status" 0 "print-file.exe exits 0 under Wine"
	[ $status -eq 0 ] || diag "$(cat /tmp/wine.err)"
	is "$out" "hello from the guest" "it read the file through a wrong-case Windows path"
	$wine64 "$top/build/wine/bin/print-file.exe" 'Z:\tmp\games\no-such-file' 2>/dev/null
	is $? 1 "a missing file is reported as missing"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
require_kernel patched
[ -f "$build/wine/prefix/system.reg" ] || skip_all "no Wine prefix: run make wine-prefix"
[ -f "$build/wine/bin/print-file.exe" ] || skip_all "no print-file.exe: run make wine-client"
guest_run patched --
done_testing
