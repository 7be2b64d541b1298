# SPDX-License-Identifier: GPL-2.0
# Helpers for the gamepart tests (sourced after host.sh or guest.sh):
# which binary to test, and reading an unmounted image offline.

# The gamepart under test: $GAMEPART (e.g. the ASan build), else the
# build's own.
if declare -F gamepart_bin >/dev/null; then
	gp=$(gamepart_bin)
else
	gp=${GAMEPART:-$top/build/bin/gamepart}
fi

# Without --owner, create gives the library to whoever ran sudo or pkexec
# (gamepart-create-owner.t): a test run through sudo must not change what
# the other tests find.
unset SUDO_UID SUDO_GID SUDO_USER PKEXEC_UID

# host.sh has its own (which sets $gamepart); guest.sh has none.
if ! declare -F require_gamepart >/dev/null; then
	require_gamepart() {
		[ -x "$gp" ] || skip_all "no gamepart binary at $gp (make tool)"
	}
fi

# +F, offline: EXT4_CASEFOLD_FL of <ext2fs/ext2_fs.h> in an inode's flags.
# (Online, guest.sh's f_flags reads it from lsattr.)
casefold_fl=0x40000000

# image_flags IMG PATH...: the inode flags of each PATH that exists, as
# numbers, one a line; one debugfs run for them all.
image_flags() {
	local img=$1 cmds f
	shift
	cmds=$(mktemp)
	printf 'stat "%s"\n' "$@" >"$cmds"
	debugfs -f "$cmds" "$img" 2>/dev/null |
		sed -n 's/.*Flags: \(0x[0-9a-fA-F]*\).*/\1/p' |
		while read -r f; do echo $((f)); done
	rm -f "$cmds"
}

# inode_flags IMG PATH: the inode flags, as a number; fails if PATH does
# not exist.
inode_flags() {
	local f
	f=$(image_flags "$1" "$2")
	[ -n "$f" ] && echo "$f"
}

# is_casefolded IMG PATH: the directory has +F.
is_casefolded() {
	local f
	f=$(inode_flags "$1" "$2") || return 2
	[ $((f & casefold_fl)) -ne 0 ]
}

# owner_of IMG PATH: "UID:GID".
owner_of() {
	debugfs -R "stat \"$2\"" "$1" 2>/dev/null |
		sed -n 's/^User: *\([0-9]*\) *Group: *\([0-9]*\).*/\1:\2/p'
}

# dumpe2fs_field IMG NAME: a field of dumpe2fs -h ("Filesystem volume name").
dumpe2fs_field() {
	dumpe2fs -h "$1" 2>/dev/null | sed -n "s/^$2: *//p"
}

steam_dirs="steamapps steamapps/common steamapps/compatdata steamapps/shadercache steamapps/downloading steamapps/temp"

# Host side of a gamepart guest test: its kernel (the_kernel), the
# gamepart under test, mkfs.ext4 for its images and a scratch folder
# ($scratch), or a skip.
gamepart_guest_setup() {
	require_kernel "$(the_kernel)"
	require_gamepart
	require_cmd mkfs.ext4
	make_scratch
}

# gamepart_offline_setup [COMMAND...]: the host side of an offline
# conversion test: the gamepart under test, e2fsprogs' tools and the
# COMMANDs, $scratch, and LeakSanitizer told of the undo manager's own
# leak (data/libext2fs.lsan), or a skip.
gamepart_offline_setup() {
	require_gamepart
	require_cmd debugfs mke2fs e2fsck e2undo "$@"
	make_scratch
	export LSAN_OPTIONS=suppressions=$top/game-layout-tests/data/libext2fs.lsan
}

# gamepart_on_casefold_image SIZE [GUEST_RUN_OPTIONS...] -- [ARGS...]: the
# host side of a test whose guest side works on one casefold image of
# SIZE ($scratch/casefold.img, /dev/vda in the guest), on the_kernel with
# the gamepart under test.
gamepart_on_casefold_image() {
	local size=$1
	shift
	gamepart_guest_setup
	make_casefold_image "$scratch/casefold.img" "$size"
	guest_run "$(the_kernel)" --env "GAMEPART=$gp" --disk "$scratch/casefold.img" "$@"
}

# gamepart_on_created_image [CREATE_OPTIONS...]: the host side of a test
# whose guest side works on a 64M library made by gamepart create with
# those options ($scratch/lib.img, /dev/vda in the guest), on the_kernel
# with the gamepart under test.
gamepart_on_created_image() {
	gamepart_guest_setup
	"$gp" create --size 64M "$@" "$scratch/lib.img" >/dev/null || exit 1
	guest_run "$(the_kernel)" --env "GAMEPART=$gp" --disk "$scratch/lib.img" --
}

# image_manifest IMG: every entry of an unmounted image, one line each,
# sorted: "PATH<TAB>INODE<TAB>MODE<TAB>UID<TAB>GID<TAB>SIZE", SIZE "-" for
# a directory (progs/library-tree manifest --image).
image_manifest() {
	"$top/game-layout-tests/progs/library-tree" manifest --image "$1"
}

# image_dirs IMG: the directories of image_manifest's listing, "/" first.
image_dirs() {
	echo /
	image_manifest "$1" | awk -F'\t' '$6 == "-" { print $1 }'
}

# convertible_dirs IMG: the directories an offline conversion without
# DIR converts: all but the root and lost+found, which it leaves alone.
convertible_dirs() {
	image_dirs "$1" | grep -vx '/\|/lost+found'
}

# count_casefolded IMG DIR...: how many of the directories have +F.
count_casefolded() {
	image_flags "$@" | while read -r f; do
		[ $((f & casefold_fl)) -ne 0 ] && echo
	done | wc -l
}

# collision_groups: the groups of a check report (check --json, or the
# "report" of import --json) on stdin, each as DIR/NAME|DIR/NAME with its
# names sorted, one a line, sorted: the form planted_groups gives.
collision_groups() {
	jq -r '.collisions[] | .dir as $d | [.names[] | $d + "/" + .] | sort | join("|")' |
		LC_ALL=C sort
}

# planted_groups LAYOUT_JSON: the groups of names that NTFS keeps apart and
# utf8-12.1 makes one, as gen-game-trees --profile ntfs planted them.
planted_groups() {
	jq -r '.windows_only[] | sort | join("|")' "$1" | LC_ALL=C sort
}
