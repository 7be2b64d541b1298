#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# gamepart convert --directories=replace on a populated library (patched
# kernel): every directory below the library is a new +F one, with the
# old one's mode, owner, extended attributes (ACLs and trusted.* among
# them), chattr flags and times, and every file and symbolic link keeps
# its inode; the library's root keeps its own.  A process working inside
# a replaced directory sees what the man page says: its working
# directory is the old one, emptied and deleted, while a file it holds
# open still reads the same, and one working in the root is unaffected.
# e2fsck -fn is clean, no work directory is left, a second run has
# nothing to do.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/convert.sh"
	convert_library library "${BIG:-600}"
	data=$lib/steamapps/common/Game/Data
	root_ino=$(stat -c %i $lib)
	data_ino=$(stat -c %i $data)

	(cd $data && exec sleep 600) &
	inside=$!
	(cd $lib && exec sleep 600) &
	at_root=$!
	exec 5<$data/game.pak
	sum=$(sha256sum <$data/game.pak)

	"$gp" convert --directories=replace --on-collision=rename --json $lib \
		>/tmp/convert.json 2>/tmp/err
	is $? 0 "--directories=replace converts: exit 0" || diag "$(cat /tmp/err)"
	is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["convert"]["directories"])' /tmp/convert.json)" \
		replace "the report says directories were replaced"
	converted replace $lib /tmp/before.json /tmp/convert.json
	is "$(stat -c %i $lib)" "$root_ino" "the library's root keeps its inode"
	[ "$(stat -c %i $data)" != "$data_ino" ]
	ok $? "a directory below it is a new one"

	cwd=$(readlink /proc/$inside/cwd)
	case $cwd in
	"$mnt/.gamepart-convert.$root_ino/n$data_ino (deleted)") true ;;
	*) false ;;
	esac
	ok $? "a process inside a replaced directory: its working directory is the old one, deleted in the work directory" ||
		diag "its working directory: $cwd"
	is "$(ls -A /proc/$inside/cwd/ 2>&1 | wc -l)" 0 "and it is empty"
	is "$(readlink /proc/$at_root/cwd)" "$lib" "a process in the root is where it was"
	is "$(sha256sum <&5)" "$sum" "an open file still reads the same"
	exec 5<&-
	kill $inside $at_root
	wait $inside $at_root 2>/dev/null

	"$gp" convert --directories=replace $lib >/tmp/out
	is $? 0 "converting again exits 0"
	grep -q '^nothing to do, every directory is casefolded' /tmp/out
	ok $? "and has nothing to do"
	unmount_and_fsck
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
big=600
[ -n "${GAMEPART_FULL-}" ] && big=10000
gamepart_on_casefold_image 512M --env "BIG=$big" --env DIRECTORIES=replace --
done_testing
