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

linux_source_tarball=/usr/src/linux-source-6.1.tar.xz

# "6.1.192-3": the Debian version of the source package we build from.
linux_source_version() {
	dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null ||
		die "linux-source-6.1 is not installed (run: make deps)"
}

# Print the patch files named by a quilt-style series file, one per line,
# as paths relative to the series file's folder.
series_patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1"
}

# read_series SERIES: the patches SERIES names, as paths, into the array
# "patches"; dies naming one that does not exist.  (build-kernel keeps
# its own loop: it is part of the kernels' cache key.)
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

# kernel_image NAME: where make puts the guest kernel NAME (patched, stock,
# debug, distro, stock-distro): build/kernel for the patched one,
# build/kernel-NAME for the others.
kernel_image() {
	local top_dir
	top_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	case $1 in
	patched) echo "$top_dir/build/kernel/bzImage" ;;
	*) echo "$top_dir/build/kernel-$1/bzImage" ;;
	esac
}
