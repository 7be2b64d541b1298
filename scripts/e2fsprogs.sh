# How the patched e2fsprogs is fetched, unpacked, built and checked:
# sourced (after lib.sh) by build-e2fsprogs and e2fsprogs-series-check, so
# that the series check tries exactly what the build does.  This file is
# part of build-e2fsprogs' cache key.

# The project's top folder, where e2fsprogs-patches is.
e2fsprogs_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The Debian source version the series is built on: the one that
# e2fsprogs-patches/debian-base records (a rebase on a Debian update is a
# commit there, which also moves the packages' stamp on), or
# E2FSPROGS_SOURCE, to try the series on another before committing it.
e2fsprogs_source_version() {
	local base
	if [ -n "${E2FSPROGS_SOURCE:-}" ]; then
		e2fsprogs_debian_version "$E2FSPROGS_SOURCE"
		return
	fi
	base=$(sed -n '1{s/[[:space:]]//g;p}' "$e2fsprogs_top/e2fsprogs-patches/debian-base" 2>/dev/null)
	[ -n "$base" ] || die "e2fsprogs-patches/debian-base names no Debian version"
	printf '%s\n' "$base"
}

# e2fsprogs_deb_version DEBIAN STAMP: the version of make e2fsprogs-deb's
# packages built from Debian's source version DEBIAN, the series at
# STAMP (YYYYMMDD.HHMM): "+gamepartSTAMP" in the Debian revision, after
# its number and before a stable or security update's suffix
# (1.47.0-2+deb12u1 gives 1.47.0-2+gamepartSTAMP+deb12u1).  So the
# packages sort after every Debian version of the release (their symbols
# file can then say 1.47.0-2+gamepart~), and a rebase onto a Debian
# update sorts after the build it replaces when the series is unchanged
# or newer (its stamp is its last commit's, and the rebase is a commit).
e2fsprogs_deb_version() {
	local debian=$1 stamp=$2 upstream revision number
	upstream=${debian%-*}
	revision=${debian##*-}
	number=${revision%%[+~]*}
	printf '%s-%s+gamepart%s%s\n' "$upstream" "$number" "$stamp" "${revision#"$number"}"
}

# e2fsprogs_debian_version VERSION: Debian's source version that VERSION,
# one of e2fsprogs_deb_version's or Debian's own, was built from.
e2fsprogs_debian_version() {
	local version=$1 head tail
	case ${version##*-} in
	*+gamepart*)
		head=${version%+gamepart*}
		tail=${version##*+gamepart}
		case $tail in
		*[+~]*) printf '%s%s\n' "$head" "${tail#"${tail%%[+~]*}"}" ;;
		*) printf '%s\n' "$head" ;;
		esac ;;
	*) printf '%s\n' "$version" ;;
	esac
}

# e2fsprogs_debian_versions: the source versions of e2fsprogs in Debian's
# archives that apt knows (security and stable updates included), ours
# left out, one a line.  A binary rebuild (+bN) is its source's.
e2fsprogs_debian_versions() {
	apt-cache madison e2fsprogs 2>/dev/null |
		awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | grep -v '+gamepart' |
		sed 's/+b[0-9]*$//' | sort -u
}

# e2fsprogs_newest: the newest, in dpkg's order, of the versions on
# standard input (sort -V does not know "~").
e2fsprogs_newest() {
	local v newest=
	while read -r v; do
		if [ -z "$newest" ] || dpkg --compare-versions "$v" gt "$newest"; then
			newest=$v
		fi
	done
	printf '%s\n' "$newest"
}

# The deb-src lines of the system's Debian archives: each URI and suite
# of each enabled stanza of debian.sources (deb822: field names in any
# case, values continued on indented lines), main only, with the
# stanza's key; or Debian 12's main, update and security archives.
e2fsprogs_deb_src_lines() {
	local key=/usr/share/keyrings/debian-archive-keyring.gpg
	awk -v key="$key" '
		function flush(  i, j, n, m, u, s, k) {
			k = signed != "" ? signed : key
			if (enabled !~ /^(no|false|0)$/ && types ~ /(^| )deb(-src)?( |$)/) {
				n = split(uris, u, " "); m = split(suites, s, " ")
				for (i = 1; i <= n; i++)
					for (j = 1; j <= m; j++)
						printf "deb-src [signed-by=%s] %s %s main\n", k, u[i], s[j]
			}
			uris = suites = types = signed = enabled = field = ""
		}
		/^#/ { next }
		/^[[:space:]]*$/ { flush(); next }
		/^[[:space:]]/ { # a value continued
			v = $0; gsub(/^[[:space:]]+|[[:space:]]+$/, "", v)
			if (field == "uris") uris = uris " " v
			else if (field == "suites") suites = suites " " v
			else if (field == "types") types = types " " v
			next
		}
		{
			field = tolower($0); sub(/:.*/, "", field)
			v = $0; sub(/^[^:]*:[[:space:]]*/, "", v); sub(/[[:space:]]+$/, "", v)
			if (field == "uris") uris = v
			else if (field == "suites") suites = v
			else if (field == "types") types = v
			else if (field == "signed-by" && v ~ /^\//) signed = v
			else if (field == "enabled") enabled = tolower(v)
		}
		END { flush() }' /etc/apt/sources.list.d/debian.sources 2>/dev/null | grep . ||
		printf 'deb-src [signed-by=%s] %s main\n' \
			"$key" "http://deb.debian.org/debian bookworm" \
			"$key" "http://deb.debian.org/debian bookworm-updates" \
			"$key" "http://deb.debian.org/debian-security bookworm-security"
}

# e2fsprogs_fetch_source VERSION: print the path of the source package's
# .dsc, fetched into the cache folder with apt-get source (through a
# deb-src list given to apt for that call alone) if it is not there yet.
# dpkg-source checks the files against the .dsc's checksums on unpacking.
e2fsprogs_fetch_source() {
	local version=$1 cache_root srcdir dsc apt_dir apt_opts
	cache_root=$(gamepart_cache_dir)
	srcdir=$cache_root/e2fsprogs-source/$version
	dsc=$srcdir/e2fsprogs_${version#*:}.dsc
	if [ ! -f "$dsc" ]; then
		echo "e2fsprogs: fetching the source of e2fsprogs $version" >&2
		apt_dir=$cache_root/e2fsprogs-source/apt
		mkdir -p "$apt_dir/lists/partial" "$apt_dir/parts" "$srcdir.tmp"
		# Debian 12's own archives and key, as its deb lines name them:
		# each suite, so that a security update's source is found too.
		e2fsprogs_deb_src_lines >"$apt_dir/sources.list"
		apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list"
			-o "Dir::Etc::SourceParts=$apt_dir/parts"
			-o "Dir::State::Lists=$apt_dir/lists" -o APT::Sandbox::User=root -q)
		apt-get "${apt_opts[@]}" update >/dev/null ||
			die "apt-get update with a deb-src list for bookworm failed"
		(cd "$srcdir.tmp" && apt-get "${apt_opts[@]}" source --download-only \
			"e2fsprogs=$version" >/dev/null 2>&1) ||
			die "apt-get source e2fsprogs=$version failed"
		[ -f "$srcdir.tmp/${dsc##*/}" ] ||
			die "apt-get source e2fsprogs=$version gave no ${dsc##*/}"
		rm -rf "$srcdir"
		mv "$srcdir.tmp" "$srcdir"
	fi
	printf '%s\n' "$dsc"
}

# e2fsprogs_patch TREE SOURCE PATCH...: the patches applied to TREE, none
# with fuzz (a patch must apply exactly, as for the kernel); SOURCE names
# the tree's origin when one does not apply.
e2fsprogs_patch() {
	local tree=$1 source=$2 p
	shift 2
	for p in "$@"; do
		patch -d "$tree" -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch \
			--quiet -i "$p" || die "${p#"$e2fsprogs_top"/} does not apply to $source"
	done
}

# e2fsprogs_unpack DSC TREE PATCH...: a fresh TREE from the source
# package with the patches applied.  dpkg-source leaves the upstream
# tarball beside the tree it unpacks: TREE's folder is for it alone.
e2fsprogs_unpack() {
	local dsc=$1 tree=$2
	shift 2
	rm -rf "$(dirname "$tree")"
	mkdir -p "$(dirname "$tree")"
	dpkg-source -x "$dsc" "$tree" >"$tree.log" 2>&1 ||
		die "dpkg-source could not unpack $dsc: $tree.log"
	e2fsprogs_patch "$tree" "${dsc##*/}" "$@"
}

# e2fsprogs_build TREE: configure and build, or fail with the log's path.
# The system's libblkid and libuuid, as Debian builds it; no translations
# and no fuse2fs, which nothing here uses.
e2fsprogs_build() {
	local tree=$1
	(cd "$tree" && ./configure -q --prefix=/usr --sysconfdir=/etc \
		--disable-libblkid --disable-libuuid --disable-uuidd \
		--disable-nls --disable-fuse2fs >configure.log 2>&1) ||
		{ echo "configure failed: $tree/configure.log"; return 1; }
	make -C "$tree" -s -j"$(nproc)" >"$tree/make.log" 2>&1 ||
		{ echo "does not build: $tree/make.log"; return 1; }
}

# e2fsprogs_check TREE: e2fsprogs' own test suite, into TREE/check.log;
# its status is the suite's.  Run by root, a few of its tests attach loop
# devices to this machine's kernel, which nothing here may do; as nobody,
# they say "skipped (not root)".
e2fsprogs_check() {
	local tree=$1 as_user=()
	if [ "$(id -u)" = 0 ]; then
		chown -R nobody: "$tree"
		as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups --reset-env)
	fi
	"${as_user[@]}" make -C "$tree" -j"$(nproc)" check >"$tree/check.log" 2>&1
}

# e2fsprogs_check_prefix TREE LABEL LOG: build TREE and run its suite,
# saying "LABEL: builds; SUMMARY" or what failed (the suite's log kept
# as LOG); fails if either does.  The series checks run it per prefix.
e2fsprogs_check_prefix() {
	local tree=$1 label=$2 log=$3 status
	if ! status=$(e2fsprogs_build "$tree"); then
		echo "$label: $status"
		return 1
	fi
	if ! e2fsprogs_check "$tree"; then
		echo "$label: make check fails:"
		grep -E ': failed$' "$tree/check.log" | sed 's/^/    /'
		cp "$tree/check.log" "$log"
		return 1
	fi
	echo "$label: builds; $(e2fsprogs_check_summary "$tree")"
}

# e2fsprogs_check_summary TREE: "N tests succeeded M tests failed, K
# skipped", from TREE/check.log.
e2fsprogs_check_summary() {
	printf '%s, %s skipped\n' \
		"$(grep -E '^[0-9]+ tests succeeded' "$1/check.log" | tail -n1 | tr '\t' ' ')" \
		"$(grep -c ': skipped' "$1/check.log" || true)"
}
