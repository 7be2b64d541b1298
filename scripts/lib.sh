# Shared helpers for the build scripts (sourced, not run).

die() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

# The cache of slow build products lives outside the clone, so that a fresh
# clone on the same machine reuses kernels and the Wine prefix.  Every entry
# is keyed by a hash of its inputs, so a stale entry is never picked up.
gamepart_cache_dir() {
	if [ -n "${GAMEPART_CACHE:-}" ]; then
		printf '%s\n' "$GAMEPART_CACHE"
	elif [ -n "${XDG_CACHE_HOME:-}" ]; then
		printf '%s\n' "$XDG_CACHE_HOME/gamepart"
	elif [ -n "${HOME:-}" ]; then
		printf '%s\n' "$HOME/.cache/gamepart"
	else
		printf '%s\n' /var/cache/gamepart
	fi
}

# source_tarball SOURCE: the tarball of a linux-source-X.Y package.
source_tarball() {
	echo "/usr/src/$1.tar.xz"
}

# source_version SOURCE: "6.1.192-3", the Debian version of that package.
source_version() {
	dpkg-query -W -f='${Version}' "$1" 2>/dev/null ||
		die "$1 is not installed (run: make deps)"
}

# The base of kernel-patches/series, which kernel-series-check and the
# Unicode tables work on.
linux_source_tarball=$(source_tarball linux-source-6.1)
linux_source_version() {
	source_version linux-source-6.1
}

# Print the patch files named by a quilt-style series file, one per line,
# as paths relative to the series file's folder.
series_patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1"
}

# read_series SERIES: the patches SERIES names, as paths, into the array
# "patches"; dies naming one that does not exist.
read_series() {
	local dir p
	dir=$(dirname "$1")
	patches=()
	while IFS= read -r p; do
		[ -r "$dir/$p" ] || die "${dir##*/}/series names '$p', which does not exist"
		patches+=("$dir/$p")
	done < <(series_patches "$1")
}

# install_cached CACHE OUTDIR: OUTDIR becomes a copy of the cache entry
# CACHE, replaced whole, so that a copy cut short leaves no half of one.
install_cached() {
	rm -rf "$2.tmp"
	mkdir -p "$(dirname "$2")"
	cp -a "$1" "$2.tmp"
	rm -rf "$2"
	mv "$2.tmp" "$2"
}

# tree_key PATH...: a hash of the files git tracks (or would track) under
# the clone's PATHs, their names, modes and contents as they are now,
# committed or not: what a build of them depends on (not the libraries
# and compiler installed, which make deps keeps at Debian's).
tree_key() {
	(
		cd "$(dirname "${BASH_SOURCE[0]}")/.." &&
			git ls-files -z --cached --others --exclude-standard -- "$@" |
			sort -z | while IFS= read -r -d '' f; do
				[ -f "$f" ] && printf '%s\0' "$f"
			done | xargs -0 -r sh -c 'stat -c "%a %n" "$@" && sha256sum "$@"' -
	) | sha256sum | cut -c1-16
}

# The table of the lab's kernels (kernel-patches/kernels): its rows, a
# line each, as "NAME SOURCE SERIES FRAGMENTS CLASS".
# $GAMEPART_KERNEL_TABLE names another, for a dry run of a new row.
kernel_table_file=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/kernel-patches/kernels
kernel_rows() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "${GAMEPART_KERNEL_TABLE:-$kernel_table_file}" |
		tr -s ' \t' ' '
}

# kernel_field NAME FIELD: one field (source, series, fragments, class) of
# kernel NAME's row; fails for a name the table does not have.
kernel_field() {
	kernel_rows | awk -v name="$1" -v field="$2" '
		BEGIN { n = split("name source series fragments class", f, " ")
			for (i = 1; i <= n; i++) col[f[i]] = i }
		$1 == name { print $col[field]; found = 1 }
		END { exit !found }'
}

# kernels_of CLASS...: the names of the rows of those classes, in order.
kernels_of() {
	kernel_rows | awk -v classes=" $* " 'index(classes, " " $5 " ") { print $1 }'
}

# kernel_image NAME: where make puts the guest kernel NAME
# (build/kernel-NAME/bzImage, beside its config and VERSION).
kernel_image() {
	local top_dir
	top_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	echo "$top_dir/build/kernel-$1/bzImage"
}

# default_kernel: the kernel of the demo, the benchmarks of one kernel
# and the tests that need just one: the first patched kernel of class
# test.
default_kernel() {
	kernel_rows | awk '$5 == "test" && $3 != "-" { print $1; exit }'
}

# run_kernels: the kernels of this run, a line each: $GAMEPART_KERNELS
# (make check-full names each pass's), else those of class test.
run_kernels() {
	if [ -n "${GAMEPART_KERNELS:-}" ]; then
		printf '%s\n' $GAMEPART_KERNELS
	else
		kernels_of test
	fi
}

# test_header FILE NAME: the words of test FILE's "# NAME:" line near its
# top ("# kernels:"; the groups line is files_in_group's).
test_header() {
	sed -n "s/^# $2:[[:space:]]*//p" "$1" | head -n 1
}

# files_in_group GROUP FILE...: those FILEs whose "# groups:" line names
# GROUP, a line each; one awk for them all, as the Makefile reads every
# group at every start.
files_in_group() {
	local group=$1
	shift
	awk -v g="$group" '/^# groups:/ {
		for (i = 3; i <= NF; i++) if ($i == g) print FILENAME
		nextfile
	}' "$@"
}

# in_group FILE GROUP: whether test FILE is in GROUP.
in_group() {
	[ -n "$(files_in_group "$2" "$1")" ]
}

# kernels_for_test FILE: the kernels of this run that test FILE boots, a
# line each, as its "# kernels:" line asks, in the table's terms:
#   each     every kernel of the run but the distribution-like ones
#            (stock and patched of each version; the debug ones in
#            check-full's debug pass)
#   patched  those of them built with a series
#   one      the first of those: a test that uses the kernel as a
#            platform (the tool, the units)
#   distro   every distribution-like kernel of the run
#   own      (alone) none of the run's: the test builds its own
# A file without the line boots none.
kernels_for_test() {
	local wanted
	wanted=$(test_header "$1" kernels)
	kernel_rows | awk -v run="$(run_kernels | xargs)" -v wanted=" $wanted " '
		{ series[$1] = $3; class[$1] = $5 }
		function want(w) { return index(wanted, " " w " ") > 0 }
		END {
			n = split(run, kernels, " ")
			for (i = 1; i <= n; i++) {
				k = kernels[i]
				if (!(k in class))
					continue
				if (class[k] == "distro")
					pick = want("distro")
				else
					pick = want("each") || ((want("patched") || want("one")) && series[k] != "-")
				if (!pick)
					continue
				print k
				if (want("one") && !want("each"))
					exit
			}
		}'
}

# sb_u16 IMG OFFSET: a little-endian 16-bit superblock field.
sb_u16() {
	od -An -tu2 -j $((1024 + $2)) -N2 "$1" | tr -d ' '
}

# set_encoding_flags IMG VALUE: store VALUE in the superblock's
# s_encoding_flags, which 1.47.0's mke2fs and debugfs set only to "strict".
# The bytes are written in place, then debugfs (told to ignore the stale
# checksum) rewrites the superblock with a checksum that matches.
set_encoding_flags() {
	local img=$1 value=$(($2))
	printf "$(printf '\\x%02x\\x%02x' $((value & 255)) $((value >> 8)))" |
		dd of="$img" bs=1 seek=$((1024 + 0x27e)) conv=notrunc status=none &&
		debugfs -w -n -R "ssv mnt_count 0" "$img" >/dev/null 2>&1 &&
		e2fsck -fn "$img" >/dev/null 2>&1
}
