#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# check looks at a tree on any filesystem, not only ext4, so that a library
# can be judged before it is brought onto a card: on tmpfs and on an
# overlay (case-sensitive, like btrfs), it reports the groups, invalid and
# ignorable names a card would meet, with a note that it folds as a card
# made by gamepart create does; on vfat (case-insensitive itself, and
# without inode flags) it walks the tree without an error and finds the
# one group vfat lets be: an NFC and an NFD spelling.  An ext4 target is still checked as its superblock says.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/gamepart.sh"
	base=/run/anyfs
	mkdir -p $base/tmpfs $base/lower $base/upper $base/overlay $base/vfat
	mount -t tmpfs tmpfs $base/tmpfs

	# make_tree DIR: the names, the colliding ones where the filesystem
	# lets them be two.
	make_tree() {
		mkdir -p "$1/Game/Sub" "$1/Data/Meshes" "$1/Data/meshes"
		touch "$1/Game/Level1.map" "$1/Game/LEVEL1.MAP" "$1/Game/Sub/"$'n\xc3\xa4me' \
			"$1/Game/Sub/"$'na\xcc\x88me' "$1/Data/Meshes/a.nif" "$1/Data/meshes/b.nif" \
			"$1/"$'zero\xe2\x80\x8bwidth' 2>/dev/null
		touch "$1/"$'odd\xfe' 2>/dev/null
		return 0
	}
	groups_of() {
		jq -r '.collisions[] | .dir + ": " + (.names | join(" "))' "$1" | sort | tr '\n' '|'
	}
	want=$'Data: Meshes meshes|Game/Sub: na\xcc\x88me n\xc3\xa4me|Game: LEVEL1.MAP Level1.map|'

	# check_on NAME DIR FSTYPE: check on a case-sensitive filesystem.
	check_on() {
		local rc=0
		"$gp" check --json "$2" >/tmp/out.json 2>/tmp/err || rc=$?
		is $rc 1 "$1: collisions, exit status 1" || diag "$(cat /tmp/err)"
		is "$(groups_of /tmp/out.json)" "$want" "$1: the groups a card would meet"
		is "$(jq -r '.invalid[].name' /tmp/out.json)" 'odd\xfe' "$1: the invalid name"
		is "$(jq -r '.ignorable[].name' /tmp/out.json)" $'zero\xe2\x80\x8bwidth' "$1: the ignorable one"
		is "$(jq .scanned /tmp/out.json)" 13 "$1: every name read"
		grep -qxF "gamepart: check: $2: note: on $3, not ext4: names are folded as in a casefolded directory of a gamepart card (utf8-12.1, not strict)" /tmp/err
		ok $? "$1: a note says how the names are judged" || diag "$(cat /tmp/err)"
	}

	make_tree $base/tmpfs/lib
	check_on tmpfs $base/tmpfs/lib tmpfs

	make_tree $base/lower
	mkdir -p $base/tmpfs/upper $base/tmpfs/work
	mount -t overlay overlay -o lowerdir=$base/lower,upperdir=$base/tmpfs/upper,workdir=$base/tmpfs/work \
		$base/overlay
	ok $? "an overlay over the same tree"
	check_on overlayfs $base/overlay overlay

	mount -t vfat -o utf8 /dev/vda $base/vfat
	ok $? "a vfat card"
	make_tree $base/vfat/lib
	rc=0
	"$gp" check --json $base/vfat/lib >/tmp/out.json 2>/tmp/err || rc=$?
	# vfat folds case itself, but keeps NFC and NFD apart, as a card
	# would not.
	is "$rc:$(groups_of /tmp/out.json)" $'1:Game/Sub: na\xcc\x88me n\xc3\xa4me|' \
		"vfat: only the NFC/NFD pair collides (vfat folds case itself)" || diag "$(cat /tmp/err)"
	! grep -q 'reading its flags' /tmp/err
	ok $? "vfat: no inode flags is no error"
	grep -q "note: on vfat, not ext4" /tmp/err
	ok $? "vfat: the note names it"
	umount $base/vfat

	# ext4 without casefold: as before, judged by its superblock.
	mount_disk /dev/vdb $mnt
	make_tree $mnt/lib
	rc=0
	"$gp" check --json $mnt/lib >/tmp/out.json 2>/tmp/err || rc=$?
	is "$rc:$(groups_of /tmp/out.json)" "1:$want" "ext4 without casefold: the same groups"
	grep -q "the filesystem has no casefold feature" /tmp/err && ! grep -q "not ext4" /tmp/err
	ok $? "ext4: the superblock's note, not the foreign one"
	umount $mnt
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_gamepart
require_kernel "$(the_kernel)"
require_cmd mkfs.vfat mkfs.ext4 jq
make_scratch
truncate -s 32M "$scratch/vfat.img"
mkfs.vfat -n CARD "$scratch/vfat.img" >/dev/null
ok $? "mkfs.vfat of a card image"
make_ext4_image "$scratch/ext4.img" 32M
guest_run "$(the_kernel)" --env "GAMEPART=$gp" --disk "$scratch/vfat.img" --disk "$scratch/ext4.img" --
done_testing
