#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# gamepart check online stays on the filesystem it started on and never
# follows a symbolic link: colliding names behind a tmpfs, a second ext4
# filesystem, a bind mount of the same filesystem, or a link to a directory
# are not reported (each mount point is named on stderr as not checked),
# while those in the tree itself are.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/gamepart.sh"
	t=$mnt/tree
	mount_disk /dev/vda $mnt || { echo "not ok - mount /dev/vda"; exit 1; }
	mkdir -p $t/Game/tmpfs $t/Game/ext4 $t/Game/bind $mnt/elsewhere
	touch $t/Game/level.pak $t/Game/LEVEL.PAK
	mount -t tmpfs tmpfs $t/Game/tmpfs
	mount_disk /dev/vdb $t/Game/ext4 || ok 1 "mount /dev/vdb"
	mount --bind $mnt/elsewhere $t/Game/bind
	for d in $t/Game/tmpfs $t/Game/ext4 $mnt/elsewhere; do
		touch $d/save.dat $d/SAVE.DAT
	done
	ln -s $mnt/elsewhere $t/Game/link

	"$gp" check --json $t >/tmp/out 2>/tmp/err
	is $? 1 "collisions in the tree: exit status 1"
	is "$(jq -r '.collisions[] | .dir + ": " + (.names | join(" "))' /tmp/out)" \
		"Game: LEVEL.PAK level.pak" \
		"only the tree's own collision is reported"
	for d in tmpfs ext4 bind; do
		grep -qx "gamepart: check: $t/Game/$d: note: another filesystem is mounted here; not checked" /tmp/err
		ok $? "the $d mount point is named as not checked"
	done
	# tree, Game: two directories; their entries: Game, and Game's six.
	is "$(jq .scanned /tmp/out)" 7 "nothing behind a mount point or a link is scanned"

	# Started on the mount point itself, the other filesystem is checked.
	"$gp" check --json $t/Game/ext4 >/tmp/out 2>/tmp/err
	is "$(jq -r '.collisions[].names | join(" ")' /tmp/out)" "SAVE.DAT save.dat" \
		"check started on the second filesystem reports its collision"

	umount $t/Game/bind $t/Game/ext4 $t/Game/tmpfs $mnt
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_cmd jq
gamepart_guest_setup
"$gp" create --size 32M "$scratch/a.img" >/dev/null || exit 1
"$gp" create --size 32M "$scratch/b.img" >/dev/null || exit 1
guest_run "$(the_kernel)" --env "GAMEPART=$gp" \
	--disk "$scratch/a.img" --disk "$scratch/b.img" --
done_testing
