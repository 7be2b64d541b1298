#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# gamepart convert meets a full filesystem, then a read-only remount, in
# the middle of a conversion (patched kernel): each time it stops with
# exit status 2 and a message that names the cause and the --resume
# command, loses nothing, and --resume finishes once the cause is gone
# (the manifest is the one before with the reported renames, every
# directory +F, e2fsck -fn clean).  Both ways of converting a directory
# are run: keeping it (the default) and replacing it.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/convert.sh"
	convert_mount
	p=${DIRECTORIES:+$DIRECTORIES, }	# which pass a test belongs to

	# A full filesystem: leave a few blocks free, fewer than the
	# temporary copy of the big directory's entries needs.
	lib=$mnt/full
	mkdir $lib
	"$tree" make $lib --big 1500
	"$manifest" $lib >/tmp/before-enospc.json
	bsize=$(stat -f -c %S $mnt)
	free=$(stat -f -c %a $mnt)
	fallocate -l $(( (free - 24) * bsize )) $mnt/filler
	"$gp" convert $directories --on-collision=rename $lib >/tmp/out 2>/tmp/err
	is $? 2 "${p}enospc: the conversion stops with exit status 2"
	grep -q 'No space left on device' /tmp/err
	ok $? "${p}enospc: the message names the cause" || diag "$(cat /tmp/err)"
	is "$(tail -n 1 /tmp/err)" \
		"gamepart: convert: $lib: the conversion stopped; once the cause is gone: gamepart convert --resume $lib" \
		"${p}enospc: and the command that finishes the job"
	rm $mnt/filler
	resumed "${p}enospc" $lib /tmp/before-enospc.json

	# A read-only remount while the conversion is stopped between two
	# of its changes (right after it removed a temporary directory, or
	# a replaced one, which it must not hold open then, or the remount
	# is refused); it goes on to meet it.
	lib=$mnt/ro
	mkdir $lib
	"$tree" make $lib --big 300
	"$manifest" $lib >/tmp/before-erofs.json
	stop="temporary directory removed"
	[ "${DIRECTORIES-}" = replace ] && stop="old directory removed"
	GAMEPART_TEST_CRASH_AFTER="$stop:stop" \
		"$gp" convert $directories --on-collision=rename \
		$lib >/tmp/out 2>/tmp/err &
	pid=$!
	poll_until 300 process_stopped $pid
	mount -o remount,ro $mnt 2>/tmp/remount.err
	[ "$(awk -v m=$mnt '$2 == m {print $4}' /proc/mounts | cut -d, -f1)" = ro ]
	ok $? "${p}erofs: remounted read-only under the stopped conversion" ||
		diag "$(cat /tmp/remount.err; ls -l /proc/[0-9]*/fd 2>/dev/null | grep $mnt)"
	kill -CONT $pid
	wait $pid
	is $? 2 "${p}erofs: the conversion stops with exit status 2"
	grep -q 'Read-only file system' /tmp/err
	ok $? "${p}erofs: the message names the cause" || diag "$(cat /tmp/err)"
	mount -o remount,rw $mnt
	resumed "${p}erofs" $lib /tmp/before-erofs.json
	unmount_and_fsck
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
gamepart_on_casefold_image 128M --
gamepart_on_casefold_image 128M --env DIRECTORIES=replace --
done_testing
