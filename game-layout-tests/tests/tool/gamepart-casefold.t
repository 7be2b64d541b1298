#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# gamepart casefold on a mounted filesystem (patched kernel): +F on empty
# directories, as the kernel reports it back; and for each refusal a
# specific message and exit status 2: a directory that is not empty (which
# points to gamepart convert), not a directory, missing, not on ext4, a
# filesystem without the casefold feature, a read-only mount, and a
# directory the caller does not own.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/gamepart.sh"
	plain=/tmp/plain
	mount_disk /dev/vda $mnt || { echo "not ok - mount /dev/vda"; exit 1; }
	mount_disk /dev/vdb $plain || { echo "not ok - mount /dev/vdb"; exit 1; }

	# fails DESCRIPTION MESSAGE ARGS...: exit 2 and exactly MESSAGE.
	fails() {
		local what=$1 msg=$2
		shift 2
		"$@" >/tmp/out 2>/tmp/err
		is $? 2 "$what: exit status 2"
		is "$(cat /tmp/err)" "$msg" "$what: message"
	}

	mkdir $mnt/a $mnt/b
	"$gp" casefold $mnt/a $mnt/b
	ok $? "casefold of two empty directories exits 0"
	has_f $mnt/a && has_f $mnt/b
	ok $? "both have +F (lsattr)"
	touch $mnt/a/Foo
	[ "$(stat -c %i $mnt/a/FOO)" = "$(stat -c %i $mnt/a/Foo)" ]
	ok $? "and the kernel looks names up case-insensitively in them"
	"$gp" casefold $mnt/a
	ok $? "a directory that already has +F is left as it is (exit 0)"

	mkdir $mnt/full
	touch $mnt/full/game.exe
	fails "non-empty directory" \
		"gamepart: casefold: $mnt/full: not empty; use gamepart convert $mnt/full" \
		"$gp" casefold $mnt/full
	! has_f $mnt/full
	ok $? "the non-empty directory keeps no +F"

	mkdir $mnt/c
	"$gp" casefold $mnt/full $mnt/c 2>/dev/null
	is $? 2 "one failure among several directories: exit status 2"
	has_f $mnt/c
	ok $? "the other directories are still made +F"

	fails "a regular file" "gamepart: casefold: $mnt/full/game.exe: not a directory" \
		"$gp" casefold $mnt/full/game.exe
	fails "a missing directory" "gamepart: casefold: $mnt/none: No such file or directory" \
		"$gp" casefold $mnt/none
	mkdir /run/t
	fails "a directory on tmpfs" "gamepart: casefold: /run/t: not on an ext4 filesystem (it is on tmpfs)" \
		"$gp" casefold /run/t
	mkdir $plain/d
	fails "a filesystem without the casefold feature" \
		"gamepart: casefold: $plain/d: the filesystem has no casefold feature (or it is encrypted); add it with tune2fs -O casefold while it is unmounted, then make the directories that have entries case-insensitive with gamepart convert --offline" \
		"$gp" casefold $plain/d

	mkdir $mnt/ro /tmp/ro
	mount --bind $mnt/ro /tmp/ro && mount -o remount,bind,ro /tmp/ro
	fails "a read-only mount" "gamepart: casefold: /tmp/ro: read-only file system" \
		"$gp" casefold /tmp/ro
	umount /tmp/ro

	mkdir $mnt/root-owned
	chmod 755 $mnt/root-owned
	fails "a directory owned by someone else" \
		"gamepart: casefold: $mnt/root-owned: permission denied (only the owner or root may set +F)" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$gp" casefold $mnt/root-owned
	chown 65534:65534 $mnt/root-owned
	setpriv --reuid=65534 --regid=65534 --clear-groups "$gp" casefold $mnt/root-owned
	ok $? "its owner may set +F without privileges"

	fails "no directory given" "gamepart: casefold: no DIR given; see 'gamepart casefold --help'" \
		"$gp" casefold
	umount $mnt $plain
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
gamepart_guest_setup
make_casefold_image "$scratch/casefold.img" 64M
truncate -s 32M "$scratch/plain.img"
mkfs.ext4 -q -F "$scratch/plain.img"
guest_run "$(the_kernel)" --env "GAMEPART=$gp" --disk "$scratch/casefold.img" --disk "$scratch/plain.img" --
done_testing
