#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# gamepart convert --offline, proved by the kernel (patched): a library
# written on a filesystem without the casefold feature is converted while
# unmounted; e2fsck -fn is clean, and once mounted the manifest (inodes,
# link counts, data, modes, owners, extended attributes, mtimes) is the
# one taken before with exactly the reported renames applied, every
# directory is +F, names are found in any case through the rebuilt hash
# indexes, and new directories inherit +F.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/convert.sh"
	convert_library library "${BIG:-800}"
	umount $mnt

	"$gp" convert --offline --undo-file=/tmp/convert.e2undo \
		--on-collision=rename --json /dev/vda library >/tmp/offline.json 2>/tmp/err
	is $? 0 "convert --offline exits 0" || diag "$(cat /tmp/err)"
	e2fsck -fn /dev/vda >/tmp/fsck 2>&1
	ok $? "e2fsck -fn is clean" || diag "$(head -n 20 /tmp/fsck)"
	dumpe2fs -h /dev/vda 2>/dev/null | grep '^Filesystem features:' | grep -qw casefold
	ok $? "the casefold feature is on"
	# Offline, a rename's directory is a path inside the filesystem;
	# the manifest's paths are relative to the library.
	jq '.convert.renames[].dir |= (if . == "library" then "." else ltrimstr("library/") end)' \
		/tmp/offline.json >/tmp/convert.json
	is "$(jq '.convert.renames | length' /tmp/convert.json)" \
		6 "6 renames are reported"

	convert_mount
	converted offline $lib /tmp/before.json /tmp/convert.json
	[ "$(cat "$lib/STEAMAPPS/Common/GAME/data/CONFIG.INI")" = "[b]" ]
	ok $? "the kernel finds a file by any case, the name first by bytes kept"
	n=$(ls "$lib/steamapps/common/Game/Shaders" | wc -l)
	miss=0
	for i in 0 1 $((n / 2)) $((n - 1)); do
		name=$(ls "$lib/steamapps/common/Game/Shaders" | sed -n "$((i + 1))p")
		upper=$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')
		[ -e "$lib/steamapps/common/Game/Shaders/$upper" ] || miss=$((miss + 1))
	done
	is $miss 0 "names in the big directory (Shaders) are found in upper case (its new hash index)"
	mkdir "$lib/steamapps/common/NewGame"
	has_f "$lib/steamapps/common/NewGame"
	ok $? "a new directory inherits +F"
	rmdir "$lib/steamapps/common/NewGame"
	unmount_and_fsck
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
gamepart_guest_setup
big=800
[ -n "${GAMEPART_FULL-}" ] && big=10000
# Without the casefold feature: the conversion turns it on.
img=$scratch/plain.img
make_ext4_image "$img" 512M
guest_run "$(the_kernel)" --env "GAMEPART=$gp" --env "BIG=$big" \
	--env "LSAN_OPTIONS=suppressions=$top/game-layout-tests/data/libext2fs.lsan" --disk "$img" --
done_testing
