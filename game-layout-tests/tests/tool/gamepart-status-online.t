#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# gamepart status on a mounted library (patched kernel): the encoding and
# strict flag read from the superblock, kernel support, +F of each library
# directory as FS_IOC_GETFLAGS reports it, and the advice for directories
# that are not casefolded (casefold when empty, convert otherwise).

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

	# A SteamOS-style library: no +F; common holds a game, temp is empty.
	mkdir -p $mnt/lib/steamapps/common/Game $mnt/lib/steamapps/temp
	"$gp" status $mnt/lib >/tmp/out 2>/tmp/err
	is $? 0 "status of a library path exits 0"
	grep -qx "steamapps/common is not casefolded: gamepart convert $mnt/lib/steamapps/common" /tmp/out
	ok $? "advice: convert the non-empty steamapps/common"
	grep -qx "steamapps/temp is not casefolded: gamepart casefold $mnt/lib/steamapps/temp" /tmp/out
	ok $? "advice: casefold the empty steamapps/temp"
	"$gp" casefold $mnt/lib/steamapps/temp
	"$gp" status $mnt/lib >/tmp/out 2>/tmp/err
	grep -Eq '^  steamapps/temp +casefolded \(\+F\)$' /tmp/out
	ok $? "after gamepart casefold, status reports steamapps/temp casefolded"

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
