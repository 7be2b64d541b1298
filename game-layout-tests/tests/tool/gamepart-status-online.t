#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# gamepart status on a mounted library (patched kernel): the encoding and
# strict flag read from the superblock, kernel support, +F of each library
# directory, game folder and prefix as FS_IOC_GETFLAGS reports it, and one
# command for all those that are not casefolded (casefold when they are
# empty, convert otherwise, with --on-collision=merge when names collide).

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/gamepart.sh"
	mount_disk /dev/vda $mnt || { echo "not ok - mount /dev/vda"; exit 1; }
	field() { sed -n "s/^$1: *//p" /tmp/out; }

	"$gp" status $mnt >/tmp/out 2>/tmp/err
	is $? 0 "status of a created library exits 0"
	is "$(field encoding)" utf8-12.1 "encoding utf8-12.1, read online"
	field strict | grep -q '^yes'
	ok $? "strict: yes, read online"
	field kernel | grep -q '^this kernel supports casefold'
	ok $? "the patched kernel supports casefold"
	is "$(grep -c 'casefolded (+F)$' /tmp/out)" 6 "six library directories casefolded"

	# A library whose directories are empty and not +F: casefold them.
	mkdir -p $mnt/empty/steamapps
	"$gp" status $mnt/empty/ >/tmp/out 2>/tmp/err
	is $? 0 "status of a library path exits 0"
	grep -qx "next: gamepart casefold $mnt/empty/steamapps" /tmp/out
	ok $? "advice: casefold the empty steamapps, once (a trailing / dropped)" || diag "$(cat /tmp/out)"

	# SteamOS-style: no +F; common holds a game with a mod folder twice.
	mkdir -p $mnt/lib/steamapps/common/Game/Data/Meshes $mnt/lib/steamapps/common/Game/Data/meshes \
		$mnt/lib/steamapps/temp
	"$gp" status $mnt/lib >/tmp/out 2>/tmp/err
	grep -qx "not casefolded: steamapps, steamapps/common, steamapps/temp, 1 game folder" /tmp/out
	ok $? "summary: what is not casefolded" || diag "$(cat /tmp/out)"
	grep -qxF "names that would collide once casefolded: 1 group; gamepart check $mnt/lib/steamapps lists them, and merge joins colliding directories and renames colliding files (rename renames both)" /tmp/out
	ok $? "the collisions, before the command"
	grep -qx "next: gamepart convert --on-collision=merge $mnt/lib/steamapps" /tmp/out
	ok $? "advice: one convert of the library, merging" || diag "$(cat /tmp/out)"
	"$gp" convert --on-collision=merge $mnt/lib/steamapps >/dev/null 2>/tmp/err
	ok $? "the advised command runs" || diag "$(cat /tmp/err)"
	"$gp" status $mnt/lib >/tmp/out 2>/tmp/err
	grep -Eq '^  steamapps/temp +casefolded \(\+F\)$' /tmp/out && ! grep -q '^next:' /tmp/out
	ok $? "then status reports the library casefolded, and advises nothing" || diag "$(cat /tmp/out)"

	# A game moved in with mv keeps no +F: status finds it below common/.
	mkdir -p $mnt/elsewhere/Moved/Bin
	mv $mnt/elsewhere/Moved $mnt/lib/steamapps/common/
	"$gp" status $mnt/lib >/tmp/out 2>/tmp/err
	grep -qxF "game folders (steamapps/common/*): 2, 1 casefolded" /tmp/out &&
		grep -Eq '^  steamapps/common/Moved +not casefolded \(holds files\)$' /tmp/out
	ok $? "a game folder moved in is listed as not casefolded" || diag "$(cat /tmp/out)"
	grep -qx "next: gamepart convert $mnt/lib/steamapps/common/Moved" /tmp/out
	ok $? "and converting it is advised" || diag "$(cat /tmp/out)"

	"$gp" status /tmp >/dev/null 2>/tmp/err
	is $? 2 "a path not on ext4: exit status 2"
	grep -q '^gamepart: status: /tmp: not on an ext4 filesystem' /tmp/err
	ok $? "a path not on ext4: message"
	umount $mnt
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
gamepart_on_created_image --strict
done_testing
