#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# gamepart convert --directories=replace on a populated library (patched
# kernel): every directory below the library is a new +F one, with the
# old one's mode, owner, extended attributes (ACLs and trusted.* among
# them), chattr flags and times, and every file and symbolic link keeps
# its inode; the library's root keeps its own.  A process working inside
# a replaced directory sees what the man page says: its working
# directory is the old one, emptied and deleted, while a file it holds
# open still reads the same, and one working in the root is unaffected;
# an inotify watch on it sees the entries leave, then its removal.
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
	# An inotify watch on a directory to be replaced: the names of the
	# events it gets, until the kernel drops it (IN_IGNORED).
	python3 - $data >/tmp/events <<'EOF' &
import ctypes, os, select, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
names = {0x40: "IN_MOVED_FROM", 0x80: "IN_MOVED_TO", 0x100: "IN_CREATE",
         0x200: "IN_DELETE", 0x400: "IN_DELETE_SELF", 0x800: "IN_MOVE_SELF",
         0x8000: "IN_IGNORED"}
fd = libc.inotify_init1(os.O_CLOEXEC)
if fd < 0 or libc.inotify_add_watch(fd, sys.argv[1].encode(), 0xfff) < 0:
    sys.exit("inotify: %s" % os.strerror(ctypes.get_errno()))
print("watching", flush=True)
seen = []
while "IN_IGNORED" not in seen and select.select([fd], [], [], 600)[0]:
    buf = os.read(fd, 65536)
    while buf:
        _, mask, _, length = struct.unpack("iIII", buf[:16])
        seen += [n for bit, n in names.items() if mask & bit and n not in seen]
        buf = buf[16 + length:]
print(" ".join(seen))
EOF
	watcher=$!
	watched() { [ -s /tmp/events ] || ! kill -0 $watcher 2>/dev/null; }
	poll_until 300 watched

	# --force: the processes above hold files under $lib on purpose.
	"$gp" convert --directories=replace --on-collision=rename --force --json $lib \
		>/tmp/convert.json 2>/tmp/err
	is $? 0 "--directories=replace converts: exit 0" || diag "$(cat /tmp/err)"
	is "$(jq -r .convert.directories /tmp/convert.json)" \
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
	# Removed for good once no process works inside it any more.
	wait $watcher
	# (IN_MOVED_TO: its subdirectory Textures, replaced first.)
	is "$(tail -n 1 /tmp/events)" "IN_MOVED_FROM IN_MOVED_TO IN_MOVE_SELF IN_DELETE_SELF IN_IGNORED" \
		"an inotify watch on it sees entries move, the directory move, then its removal"

	nothing_left --directories=replace
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
