#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# gamepart convert refuses, with exit status 2, a specific message and no
# change to the tree (patched kernel): a directory not on ext4, a
# filesystem without the casefold feature (the message gives the tune2fs
# command), a read-only mount, a tree with another filesystem mounted
# inside, the root of a filesystem, too few free inodes, a conversion
# pending without --resume, --resume with none pending or the other
# --directories, another conversion holding the lock, a file, replacing
# directories offline.  status names a library directory whose
# conversion was interrupted.  Names a strict filesystem would refuse in a
# casefolded directory stop it with exit status 1.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/convert.sh"
	plain=/tmp/plain tiny=/tmp/tiny strict=/tmp/strict
	mount_disk /dev/vda $mnt && mount_disk /dev/vdb $plain &&
		mount_disk /dev/vdc $tiny && mount_disk /dev/vdd $strict ||
		{ echo "not ok - mount the disks"; exit 1; }

	# refused DESCRIPTION MESSAGE DIR ARGS...: exit 2, MESSAGE as the
	# last line of stderr, DIR's manifest unchanged.
	refused() {
		local what=$1 msg=$2 dir=$3
		shift 3
		"$manifest" "$dir" >/tmp/before.json 2>/dev/null
		"$gp" convert "$@" >/tmp/out 2>/tmp/err
		is $? 2 "$what: exit status 2"
		is "$(tail -n 1 /tmp/err)" "$msg" "$what: message"
		"$manifest" "$dir" 2>/dev/null | cmp -s - /tmp/before.json
		ok $? "$what: nothing changed"
	}
	small_tree() {
		mkdir -p "$1/Game/Data"
		echo a >"$1/Game/Data/a.txt"
		echo b >"$1/Game/Readme"
	}

	# /run, a plain tmpfs (/tmp is an overlay).
	mkdir /run/t
	small_tree /run/t
	refused "tmpfs" "gamepart: convert: /run/t: not on an ext4 filesystem (it is on tmpfs)" \
		/run/t /run/t
	small_tree $plain/lib
	refused "no casefold feature" \
		"gamepart: convert: $plain/lib: the filesystem has no casefold feature; unmount it, then convert it offline, which turns the feature on: gamepart convert --offline /dev/vdb DIR (DIR: this directory's path inside the filesystem)" \
		$plain/lib $plain/lib
	# status gives the offline command with the paths inside the
	# filesystem, through a bind mount of a subtree as well.
	mkdir -p $plain/lib2/steamapps/common/Game
	echo x >$plain/lib2/steamapps/common/Game/x
	mkdir -p /tmp/bind && mount --bind $plain/lib2 /tmp/bind
	for at in $plain/lib2 /tmp/bind; do
		"$gp" status $at >/tmp/out 2>&1
		grep -qxF "next: unmount /dev/vdb, then: gamepart convert --offline /dev/vdb lib2/steamapps  (it turns the casefold feature on)" /tmp/out
		ok $? "status of $at without the feature: the offline command, paths inside the filesystem" ||
			diag "$(grep next: /tmp/out)"
	done
	umount /tmp/bind

	# A process holding a file under the tree (a game): refused unless
	# forced, and named.
	small_tree $mnt/held
	held=$(find $mnt/held -type f | head -n 1)
	sleep 600 <"$held" &
	holder=$!
	"$gp" convert --on-collision=rename $mnt/held >/dev/null 2>/tmp/err
	is $? 2 "a tree a process holds a file of: refused, exit status 2"
	is "$(cat /tmp/err)" "gamepart: convert: $mnt/held: in use by sleep ($holder), whose files would be away for a moment while each directory converts; close it, or give --force" \
		"the message names the process"
	! has_f $mnt/held
	ok $? "and nothing was converted"
	"$gp" convert --dry-run --on-collision=rename $mnt/held >/dev/null 2>/tmp/err
	grep -qxF "gamepart: convert: $mnt/held: note: in use by sleep ($holder); their files are away for a moment while each directory converts" /tmp/err
	ok $? "a dry run notes it" || diag "$(cat /tmp/err)"
	"$gp" convert --force --on-collision=rename $mnt/held >/dev/null 2>/tmp/err
	is "$?:$(not_f_dirs $mnt/held)" 0:0 "--force converts it anyway" || diag "$(cat /tmp/err)"
	kill $holder
	wait $holder 2>/dev/null
	# The shell that runs convert may stand inside the tree: it waits.
	small_tree $mnt/here
	(cd $mnt/here/Game && "$gp" convert --on-collision=rename $mnt/here >/dev/null 2>/tmp/err)
	is "$?:$(not_f_dirs $mnt/here)" 0:0 "the shell running it, standing inside the tree, does not count" ||
		diag "$(cat /tmp/err)"

	small_tree $mnt/lib
	mkdir /tmp/ro
	mount --bind $mnt /tmp/ro && mount -o remount,bind,ro /tmp/ro
	refused "read-only" "gamepart: convert: /tmp/ro/lib: the filesystem is mounted read-only" \
		$mnt/lib /tmp/ro/lib
	umount /tmp/ro

	mkdir $mnt/lib/mnt
	mount -t tmpfs none $mnt/lib/mnt
	refused "a mount inside" \
		"gamepart: convert: $mnt/lib: 1 other filesystem is mounted inside the tree, nothing changed" \
		$mnt/lib $mnt/lib
	umount $mnt/lib/mnt
	rmdir $mnt/lib/mnt

	refused "the root of a filesystem" \
		"gamepart: convert: $mnt: the root of its filesystem: its entries have nowhere to go while it is emptied; convert the directories under it (gamepart convert --offline with no DIR converts them all once it is unmounted)" \
		$mnt/lib $mnt

	small_tree $tiny/lib
	i=0
	while touch $tiny/fill-$i 2>/dev/null; do i=$((i + 1)); done
	rm -f $tiny/fill-0 $tiny/fill-1
	refused "too few free inodes" \
		"gamepart: convert: $tiny/lib: 2 free inodes, 3 needed for the temporary directories" \
		$tiny/lib $tiny/lib

	refused "a file" \
		"gamepart: convert: $mnt/lib/Game/Readme: not a directory (an unmounted device or image is converted with --offline)" \
		$mnt/lib $mnt/lib/Game/Readme
	refused "replacing directories offline" \
		"gamepart: convert: --directories=replace goes with a mounted PATH: offline, every directory keeps its inode; see 'gamepart convert --help'" \
		$mnt/lib --offline --directories=replace /dev/vdb
	refused "--resume with nothing pending" \
		"gamepart: convert: $mnt/lib: no interrupted conversion to resume" \
		$mnt/lib --resume $mnt/lib

	# A conversion stopped dead after its first changes.
	{ GAMEPART_TEST_CRASH_AFTER=4 "$gp" convert $mnt/lib >/dev/null; } 2>/dev/null
	is $? 137 "a conversion killed after its 4th change"
	refused "a pending conversion" \
		"gamepart: convert: $mnt/lib: an interrupted conversion is pending; finish it with: gamepart convert --resume $mnt/lib" \
		$mnt/lib $mnt/lib
	refused "--resume the other way" \
		"gamepart: convert: $mnt/lib: the interrupted conversion keeps directories: resume it without --directories" \
		$mnt/lib --resume --directories=replace $mnt/lib
	work=$(echo $mnt/.gamepart-convert.*)
	exec 9<"$work/journal"
	flock 9
	refused "another conversion holding the lock" \
		"gamepart: convert: $mnt/lib: another conversion of this tree is in progress" \
		$mnt/lib --resume $mnt/lib
	exec 9<&-
	"$gp" convert --resume $mnt/lib >/dev/null
	ok $? "once the lock is free, --resume finishes"

	# status names a library directory whose conversion was interrupted.
	small_tree $mnt/st/steamapps/common
	{ GAMEPART_TEST_CRASH_AFTER=3 "$gp" convert $mnt/st/steamapps >/dev/null; } 2>/dev/null
	"$gp" status $mnt/st >/tmp/out 2>&1
	grep -qx "steamapps: a conversion was interrupted" /tmp/out &&
		grep -qx "next: gamepart convert --resume $mnt/st/steamapps" /tmp/out
	ok $? "status says the conversion of steamapps was interrupted" ||
		diag "$(cat /tmp/out)"
	"$gp" convert --resume $mnt/st/steamapps >/dev/null
	ok $? "and --resume finishes it"
	# So does one of a game folder, which is no Proton prefix (moved in
	# with mv, so not +F).
	small_tree $mnt/st-elsewhere/Moved
	mv $mnt/st-elsewhere/Moved $mnt/st/steamapps/common/
	{ GAMEPART_TEST_CRASH_AFTER=3 "$gp" convert $mnt/st/steamapps/common/Moved >/dev/null; } 2>/dev/null
	"$gp" status $mnt/st >/tmp/out 2>&1
	grep -qx "steamapps/common/Moved: a conversion was interrupted" /tmp/out &&
		grep -qx "next: gamepart convert --resume $mnt/st/steamapps/common/Moved" /tmp/out
	ok $? "status says the conversion of a game folder was interrupted, and how to finish it" ||
		diag "$(cat /tmp/out)"
	"$gp" convert --resume $mnt/st/steamapps/common/Moved >/dev/null
	ok $? "and --resume finishes it"

	mkdir $strict/lib
	echo x >"$(printf "$strict/lib/bad-\xff.txt")"
	echo y >$strict/lib/good.txt
	"$manifest" $strict/lib >/tmp/before.json
	"$gp" convert $strict/lib >/tmp/out 2>/tmp/err
	is $? 1 "strict: an invalid name stops the conversion (exit 1)"
	is "$(tail -n 1 /tmp/err)" \
		"gamepart: convert: $strict/lib: 1 name that a strict casefolded directory refuses, nothing changed" \
		"strict: message"
	"$manifest" $strict/lib | cmp -s - /tmp/before.json
	ok $? "strict: nothing changed"

	umount $mnt $plain $tiny $strict
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_cmd mkfs.ext4 flock
gamepart_guest_setup
make_casefold_image "$scratch/casefold.img" 64M
truncate -s 32M "$scratch/plain.img" "$scratch/tiny.img" "$scratch/strict.img"
mkfs.ext4 -q -F "$scratch/plain.img"
mkfs.ext4 -q -F -O casefold -N 64 "$scratch/tiny.img"
mkfs.ext4 -q -F -O casefold -E encoding_flags=strict "$scratch/strict.img"
guest_run "$(the_kernel)" --env "GAMEPART=$gp" --disk "$scratch/casefold.img" \
	--disk "$scratch/plain.img" --disk "$scratch/tiny.img" \
	--disk "$scratch/strict.img" --
done_testing
