# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest side of a test (sourced inside the guest).

guest_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$guest_lib/../.." && pwd)
. "$guest_lib/tap.sh"
. "$guest_lib/poll.sh"

# prog NAME: the path of a test program of progs/ (make progs).
prog() {
	echo "$top/build/progs/$1"
}

# The library generator and the manifest of a mounted tree, with which
# the convert, import and units tests make libraries and compare them.
tree=$top/game-layout-tests/progs/library-tree
manifest=$(prog tree-manifest)

# Where a test mounts its disk; tests that mount more than one add a
# suffix ($mnt-strict).
mnt=/tmp/mnt

# mount_disk DEV DIR [OPTIONS]
mount_disk() {
	mkdir -p "$2"
	mount -t ext4 ${3:+-o "$3"} "$1" "$2"
}

# unmount_and_fsck: e2fsck -fn of the disk is clean once $mnt is
# unmounted.
unmount_and_fsck() {
	cd / && umount $mnt
	e2fsck -fn /dev/vda >/tmp/fsck 2>&1
	ok $? "e2fsck -fn is clean" || diag "$(cat /tmp/fsck)"
}

# f_flags: of the "lsattr -d" lines on stdin, "+F PATH" for a directory
# with the casefold flag, "-F PATH" for one without: the one place that
# reads the flag online (offline, gamepart.sh reads it with debugfs).
f_flags() {
	awk '{ flags = $1; sub(/^[^ ]* /, ""); print (flags ~ /F/ ? "+F " : "-F ") $0 }'
}

# has_f DIR: DIR exists and has +F.
has_f() {
	lsattr -d -- "$1" 2>/dev/null | f_flags | grep -q '^+F '
}

# not_f_dirs DIR: how many directories under DIR lack +F.
not_f_dirs() {
	find "$1" -type d -print0 | xargs -0 lsattr -d -- | f_flags |
		awk '$1 == "-F" { n++ } END { print n + 0 }'
}

# references_resolved ROOT: "FOUND/TOTAL", the open lines of a generated
# library's references.tsv (gen-game-trees) that the kernel itself
# resolves as spelled, with no help from Wine's scan of directories.
references_resolved() {
	local root=$1 kind what rest found=0 total=0
	while IFS=$'\t' read -r kind what rest; do
		[ "$kind" = open ] || continue
		total=$((total + 1))
		[ -f "$root/${what//\\//}" ] && found=$((found + 1))
	done <"$root/references.tsv"
	echo "$found/$total"
}

# client_tap LABEL FILE: the TAP of a Windows test program (layout-client.exe)
# in FILE, folded into this test's, each line prefixed with LABEL; its
# timings as diagnostics.
client_tap() {
	local label=$1 line
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		"ok "*) ok 0 "$label: ${line#ok [0-9]* - }" ;;
		"not ok "*) ok 1 "$label: ${line#not ok [0-9]* - }" ;;
		"# timing "*) diag "$label ${line#\# }" ;;
		esac
	done <"$2"
}

# Give Wine a private, writable prefix: the cached one (read-only, shared
# from the host) under a tmpfs overlay, so no test can alter the cache.
wine_setup() {
	# On /run, a plain tmpfs: /tmp is itself an overlay, which overlayfs
	# does not take as an upper layer.  A folder of this job's own: a
	# pooled guest's /run outlives its jobs, and Wine writes its
	# registry to the upper layer.
	local base lower
	lower=$(readlink -f "$top/build/wine/prefix")
	[ -f "$lower/system.reg" ] || return 1
	base=$(mktemp -d /run/wine.XXXXXX) || return 1
	mkdir -p "$base/upper" "$base/work" "$base/prefix"
	mount -t overlay overlay \
		-o "lowerdir=$lower,upperdir=$base/upper,workdir=$base/work" \
		"$base/prefix" || return 1
	export WINEPREFIX=$base/prefix WINEDEBUG=-all HOME=/tmp
	# Wine maps Windows names to Unix ones through the locale's charset:
	# UTF-8, as on any desktop or handheld, or names beyond ASCII are lost.
	export LC_ALL=C.UTF-8
	export WINEDLLOVERRIDES="mscoree,mshtml,winemenubuilder.exe="
	unset DISPLAY WAYLAND_DISPLAY
	# One wineserver, and its services (services.exe, winedevice,
	# plugplay), for the whole job, as in a desktop session: each
	# program otherwise starts them again, 8 s under TCG against 0.7 s.
	# The job's end (a guest that powers off, or vmpool's clean-up of
	# the job's cgroup) stops them.  Only a matter of time: if it does
	# not start, each program starts its own, and the test goes on.
	/usr/lib/wine/wineserver -p || diag "wineserver -p failed: each Wine program starts its own"
}

wine64=/usr/lib/wine/wine64
