#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# A rename to another spelling of the same name in a +F directory stores
# the new spelling, as Windows does: in the directory entry (a listing
# after a remount shows it) and in the dcache (a listing at once), for a
# file and a directory, in a small and an indexed directory, for a new
# spelling longer in bytes (U+212A KELVIN SIGN for K), with one inotify
# move.  RENAME_NOREPLACE allows it, RENAME_EXCHANGE of a name with
# itself changes nothing, and e2fsck finds the filesystem clean.  Hard
# links, real replacements and plain directories behave as before.  On
# stock 6.1 the rename succeeds and keeps the old spelling.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	role=$2
	rename2=$(prog rename2)
	cf_mount

	# names DIR PATTERN: the entries of DIR matching PATTERN, ignoring
	# case, as stored.
	names() {
		ls -a -- "$1" | grep -ix -- "$2" | tr '\n' ' ' | sed 's/ $//'
	}
	remount() {
		cd / && umount $mnt && mount_disk /dev/vda $mnt
	}
	# inotify_moves DIR CMD...: run CMD and print the IN_MOVED_FROM and
	# IN_MOVED_TO names DIR reported, "from:NAME to:NAME".
	inotify_moves() {
		python3 - "$@" <<'PY'
import ctypes, os, struct, subprocess, sys
libc = ctypes.CDLL(None, use_errno=True)
IN_MOVED_FROM, IN_MOVED_TO, IN_NONBLOCK = 0x40, 0x80, 0o4000
fd = libc.inotify_init1(IN_NONBLOCK)
libc.inotify_add_watch(fd, sys.argv[1].encode(), IN_MOVED_FROM | IN_MOVED_TO)
subprocess.run(sys.argv[2:], check=True)
out, buf = [], b''
try:
    buf = os.read(fd, 65536)
except BlockingIOError:
    pass
while buf:
    wd, mask, cookie, n = struct.unpack_from('iIII', buf)
    name = buf[16:16 + n].rstrip(b'\0').decode()
    out.append(('from:' if mask & IN_MOVED_FROM else 'to:') + name)
    buf = buf[16 + n:]
print(' '.join(out))
PY
	}

	echo saved >$ci/save.dat
	ino=$(stat -c %i $ci/save.dat)
	moves=$(inotify_moves $ci "$rename2" $ci/save.dat $ci/SAVE.dat)
	ok $? "rename(save.dat, SAVE.dat) succeeds"
	if [ $role = stock ]; then
		is "$(names $ci save.dat)" save.dat "stock: the old spelling stays"
		is "$moves" "" "stock: and no move is reported"
		remount
		is "$(names $ci save.dat)" save.dat "stock: on disk too"
		cf_done
	fi
	is "$(names $ci save.dat)" SAVE.dat "the listing shows the new spelling at once"
	is "$moves" "from:save.dat to:SAVE.dat" "inotify reports one move, old name to new"
	is "$(stat -c %i $ci/save.dat):$(cat $ci/Save.Dat)" "$ino:saved" \
		"the same file, found under any spelling, content kept"
	"$rename2" --noreplace $ci/save.dat $ci/Save.Dat
	ok $? "RENAME_NOREPLACE allows it: nothing else is replaced"
	is "$(names $ci save.dat)" Save.Dat "and stores that spelling"
	"$rename2" --exchange $ci/Save.Dat $ci/SAVE.DAT
	ok $? "RENAME_EXCHANGE of a name with another spelling of itself succeeds"
	is "$(names $ci save.dat)" Save.Dat "and changes nothing"
	echo other >$ci/other.dat
	! "$rename2" --noreplace $ci/other.dat $ci/SAVE.DAT 2>/dev/null
	ok $? "RENAME_NOREPLACE onto another file's name still fails"
	moves=$(inotify_moves $ci "$rename2" $ci/Save.Dat $ci/Save.Dat)
	is "$(names $ci save.dat):$moves" Save.Dat: \
		"a rename to the stored name's own bytes is still a silent no-op"

	mkdir $ci/Data && echo in >$ci/Data/file.txt
	"$rename2" $ci/data $ci/DATA
	ok $? "rename(data, DATA) of a directory succeeds"
	is "$(names $ci data)" DATA "the directory shows the new spelling"
	is "$(stat -c %i $ci/DATA/..)" "$(stat -c %i $ci)" "its .. is unchanged"
	is "$(cat $ci/data/FILE.TXT)" in "its files are still found"
	is "$(stat -c %h $ci)" 3 "the parent's link count is unchanged"

	# Hard links are two names of one inode: a rename between them stays
	# the POSIX no-op, and neither name changes.
	touch $ci/first && ln $ci/first $ci/second
	"$rename2" $ci/first $ci/SECOND
	is "$(names $ci first) $(names $ci second)" "first second" \
		"a rename between two hard links of one file changes neither"

	# An indexed directory: the entry stays in its hash leaf.
	mkdir $ci/big && (cd $ci/big && seq -f 'texture_%05g.dds' 3000 | xargs touch)
	lsattr -d $ci/big | grep -q '^[^ ]*I'
	ok $? "the 3000-entry directory is indexed"
	"$rename2" $ci/big/texture_01500.dds $ci/big/TEXTURE_01500.DDS
	ok $? "a case-only rename in the indexed directory succeeds"
	touch $ci/big/kelvin.txt
	"$rename2" $ci/big/kelvin.txt $ci/big/$'\xe2\x84\xaa'elvin.txt
	ok $? "so does one to a longer spelling (U+212A KELVIN SIGN for K)"
	is "$(names $ci/big texture_01500.dds)" TEXTURE_01500.DDS \
		"the indexed directory shows the new spelling"

	# Plain directories: a rename to another case is a rename to a new name.
	echo plain >$cs/a.txt
	"$rename2" $cs/a.txt $cs/A.txt
	[ -f $cs/A.txt ] && missing $cs/a.txt
	ok $? "in a plain directory, a.txt renamed to A.txt is a new name"

	remount
	is "$(names $ci save.dat) $(names $ci data)" "Save.Dat DATA" \
		"after a remount the stored spellings are the new ones"
	listed $ci/big TEXTURE_01500.DDS && listed $ci/big $'\xe2\x84\xaa'elvin.txt &&
		! listed $ci/big texture_01500.dds && ! listed $ci/big kelvin.txt
	ok $? "so are those of the indexed directory"
	same_file $ci/big/kelvin.txt $ci/big/KELVIN.TXT &&
		[ -f $ci/big/texture_01500.dds ] && [ -f $ci/big/texture_03000.dds ]
	ok $? "and every name is found by a lookup in any case"
	cf_done_fsck
fi

. "$(dirname "$0")/../../lib/host.sh"
require_prog rename2
require_cmd python3
casefold_guests
done_testing
