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

# host.sh has its own (which sets $gamepart); guest.sh has none.
if ! declare -F require_gamepart >/dev/null; then
	require_gamepart() {
		[ -x "$gp" ] || skip_all "no gamepart binary at $gp (make tool)"
	}
fi

# sb_u16 IMG OFFSET: a little-endian 16-bit superblock field.
sb_u16() {
	od -An -tu2 -j $((1024 + $2)) -N2 "$1" | tr -d ' '
}

# inode_flags IMG PATH: the inode flags, as a number.
inode_flags() {
	local f
	f=$(debugfs -R "stat \"$2\"" "$1" 2>/dev/null |
		sed -n 's/.*Flags: \(0x[0-9a-fA-F]*\).*/\1/p')
	[ -n "$f" ] && echo $((f))
}

# is_casefolded IMG PATH: the directory has EXT4_CASEFOLD_FL.
is_casefolded() {
	local f
	f=$(inode_flags "$1" "$2") || return 2
	[ $((f & 0x40000000)) -ne 0 ]
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

# Host side of a gamepart guest test: the patched kernel, the gamepart
# under test and a scratch folder ($scratch), or a skip.
gamepart_guest_setup() {
	require_kernel patched
	require_gamepart
	make_scratch
}

# gamepart_on_casefold_image SIZE [GUEST_RUN_OPTIONS...] -- [ARGS...]: the
# host side of a test whose guest side works on one casefold image of
# SIZE ($scratch/casefold.img, /dev/vda in the guest), on the patched
# kernel with the gamepart under test.
gamepart_on_casefold_image() {
	local size=$1
	shift
	require_cmd mkfs.ext4
	gamepart_guest_setup
	make_casefold_image "$scratch/casefold.img" "$size"
	guest_run patched --env "GAMEPART=$gp" --disk "$scratch/casefold.img" "$@"
}
