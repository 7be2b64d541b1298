#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# gamepart convert meets a full filesystem, then a read-only remount, in
# the middle of a conversion (patched kernel): each time it stops with
# exit status 2 and a message that names the cause and the --resume
# command, loses nothing, and --resume finishes once the cause is gone
# (the manifest is the one before with the reported renames, every
# directory +F, e2fsck -fn clean).

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/gamepart.sh"
	tree=$guest_lib/library-tree
	mnt=/tmp/mnt
	mount_disk /dev/vda $mnt || { echo "not ok - mount /dev/vda"; exit 1; }
	not_f_dirs() {
		find "$1" -type d -print0 | xargs -0 lsattr -d |
			awk '$1 !~ /F/' | wc -l
	}
	# finished TAG LIB: --resume LIB and check the result.
	finished() {
		local tag=$1 lib=$2
		"$gp" convert --resume --json $lib >/tmp/resume.json 2>/tmp/err
		ok $? "$tag: --resume finishes once the cause is gone" ||
			diag "$(cat /tmp/err)"
		"$tree" manifest $lib >/tmp/after.json
		"$tree" compare /tmp/before-$tag.json /tmp/after.json /tmp/resume.json >/tmp/diff
		ok $? "$tag: the manifest is the one before, with the renames" ||
			diag "$(head -n 20 /tmp/diff)"
		is "$(not_f_dirs $lib)" 0 "$tag: every directory is +F"
		[ -z "$(ls -A $mnt | grep gamepart-convert)" ]
		ok $? "$tag: no work directory is left"
	}

	# A full filesystem: leave a few blocks free, fewer than the
	# temporary copy of the big directory's entries needs.
	lib=$mnt/full
	mkdir $lib
	"$tree" make $lib --big 1500
	"$tree" manifest $lib >/tmp/before-enospc.json
	bsize=$(stat -f -c %S $mnt)
	free=$(stat -f -c %a $mnt)
	fallocate -l $(( (free - 24) * bsize )) $mnt/filler
	"$gp" convert --on-collision=rename $lib >/tmp/out 2>/tmp/err
	is $? 2 "enospc: the conversion stops with exit status 2"
	grep -q 'No space left on device' /tmp/err
	ok $? "enospc: the message names the cause" || diag "$(cat /tmp/err)"
	is "$(tail -n 1 /tmp/err)" \
		"gamepart: convert: $lib: the conversion stopped; once the cause is gone: gamepart convert --resume $lib" \
		"enospc: and the command that finishes the job"
	rm $mnt/filler
	finished enospc $lib

	# A read-only remount while the conversion is stopped between two
	# of its changes; it goes on to meet it.
	lib=$mnt/ro
	mkdir $lib
	"$tree" make $lib --big 300
	"$tree" manifest $lib >/tmp/before-erofs.json
	GAMEPART_TEST_CRASH_AFTER=60:stop "$gp" convert --on-collision=rename \
		$lib >/tmp/out 2>/tmp/err &
	pid=$!
	while [ "$(awk '{print $3}' /proc/$pid/stat 2>/dev/null)" != T ]; do
		sleep 0.1
	done
	mount -o remount,ro $mnt
	ok $? "erofs: remounted read-only under the stopped conversion"
	kill -CONT $pid
	wait $pid
	is $? 2 "erofs: the conversion stops with exit status 2"
	grep -q 'Read-only file system' /tmp/err
	ok $? "erofs: the message names the cause" || diag "$(cat /tmp/err)"
	mount -o remount,rw $mnt
	finished erofs $lib

	umount $mnt
	e2fsck -fn /dev/vda >/tmp/fsck 2>&1
	ok $? "e2fsck -fn is clean" || diag "$(cat /tmp/fsck)"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_cmd mkfs.ext4
gamepart_guest_setup
make_casefold_image "$scratch/casefold.img" 128M
guest_run patched --env "GAMEPART=$gp" --disk "$scratch/casefold.img" --
done_testing
