# SPDX-License-Identifier: GPL-2.0
# Helpers for tests that run on the host and boot guests (sourced).
# A test file is both sides of one scenario: run with no argument on the
# host, it prepares images and boots guests that run the same file with
# "--guest ..." (see in_guest and guest_run).

tests_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$tests_lib/../.." && pwd)
. "$tests_lib/tap.sh"
. "$tests_lib/poll.sh"
vmrun=$top/game-layout-tests/rig/vmrun
build=$top/build

# This test file, by a path that a "cd" in the test does not change.
test_file=$(readlink -f "$0")

# kernel_image, kernel_field, kernels_for_test: the table of kernels
# (kernel-patches/kernels), shared with the build scripts.
. "$top/scripts/lib.sh"

# test_kernels: the kernels this test boots in this run, as its
# "# kernels:" line asks (each, patched, one, distro; see
# kernels_for_test in scripts/lib.sh), one a line: under make check
# 6.1-stock and 6.1-patched for "each"; GAMEPART_KERNELS="6.1-debug"
# (say) runs a test on those alone.
test_kernels() {
	kernels_for_test "$test_file"
}

# the_kernel: the one kernel of a test whose line says "one" (the first
# of test_kernels otherwise); nothing when this run has none for it,
# which require_kernel "$(the_kernel)" turns into a skip.
the_kernel() {
	test_kernels | head -n 1
}

# require_kernel KERNEL...: each is built, else the whole test skips (as
# it does when it is given none: this run has no kernel for the test).
require_kernel() {
	local k
	[ $# -gt 0 ] && [ -n "$*" ] ||
		skip_all "no kernel for this test among this run's: $(run_kernels | xargs)"
	for k in "$@"; do
		[ -f "$(kernel_image "$k")" ] ||
			skip_all "no $k kernel: run make guest first"
	done
}

require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null || skip_all "$c is not installed (make deps)"
	done
}

# A scratch folder for this test, removed at exit.  Undo files that an
# offline conversion makes without --undo-file go there too, not to the
# host's /var/lib/e2fsprogs.
scratch=
make_scratch() {
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/$(test_name).XXXXXX")
	trap 'rm -rf "$scratch"' EXIT
	export E2FSPROGS_UNDO_DIR=$scratch
}

# guest_run KERNEL [vmrun options] -- ARGS: boot KERNEL and run this test
# file in the guest with "--guest ARGS".  The guest's TAP lines are folded
# into this test's numbering, prefixed with the kernel's name; a guest that
# fails or whose kernel complains is one more failed test.  Lines the guest
# starts with "record " are appended to the file $guest_record names, when
# it names one (nls-probe writes them; the A/B tests compare the files).
guest_run() {
	local kernel=$1 line status rc
	shift
	local opts=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	shift
	diag "$kernel kernel: $(cat "$(dirname "$(kernel_image "$kernel")")/VERSION")"
	exec 4< <("$vmrun" --kernel "$(kernel_image "$kernel")" "${opts[@]}" \
		-- bash "$(readlink -f "$0")" --guest "$@"; echo "vmrun-exit $?")
	rc=
	while IFS= read -r line <&4; do
		case $line in
		"ok "*|"not ok "*)
			status=0
			[ "${line#not ok}" = "$line" ] || status=1
			line=${line#not }
			line=${line#ok }
			line=${line#[0-9]* - }
			case $line in
			*" # TODO "*) todo $status "${line##* # TODO }" "[$kernel] ${line% # TODO *}" ;;
			*) ok $status "[$kernel] $line" ;;
			esac
			;;
		"vmrun-exit "*) rc=${line#vmrun-exit } ;;
		"record "*)
			if [ -n "${guest_record:-}" ]; then
				printf '%s\n' "${line#record }" >>"$guest_record"
			else
				diag "$line"
			fi
			;;
		1..*) ;;
		"#"*) echo "$line" ;;
		*) diag "$line" ;;
		esac
	done
	exec 4<&-
	ok "${rc:-1}" "[$kernel] guest run completed (vmrun status ${rc:-unknown})"
}

# make_ext4_image IMG SIZE [MKFS_OPTIONS...]: a fresh ext4 image, made
# offline on the host.
make_ext4_image() {
	local img=$1 size=$2
	shift 2
	rm -f "$img"
	truncate -s "$size" "$img"
	mkfs.ext4 -q -F -m 0 "$@" "$img"
}

# With the casefold feature (SIZE defaults to 64M).
make_casefold_image() {
	local img=$1 size=${2:-64M}
	shift 2 || true
	make_ext4_image "$img" "$size" -O casefold "$@"
}

# make_hashed_casefold_image IMG SIZE [MKFS OPTIONS...]: a casefold image
# whose superblock says no name in it was hashed under other folding
# rules (SB_ENC_NO_COMPAT_FALLBACK_FL, 0x2), as on the cards gamepart
# makes: kernels with upstream's rule (the patched one, 6.12) then search
# by hash alone, where each create in a large +F directory would
# otherwise read the whole directory.
make_hashed_casefold_image() {
	make_casefold_image "$@" && set_encoding_flags "$1" 0x2
}

# make_encoded_image IMG SIZE NUMBER [MKFS OPTIONS...]: a casefold image
# whose superblock names encoding NUMBER, such as the series' 0xff01
# (utf8-nfkd-12.1) or 0xff02 (utf8-windows-12.1), which 1.47.0's mke2fs
# does not know; its debugfs stores the number as it is.
make_encoded_image() {
	local img=$1 size=$2 number=$3
	shift 3
	make_casefold_image "$img" "$size" "$@" &&
		debugfs -w -R "ssv encoding $number" "$img" >/dev/null 2>&1
}

# copy_project DEST: the project's files without build products or git,
# for tests that change the series or the build scripts.
copy_project() {
	mkdir -p "$1"
	tar -C "$top" --exclude=./build --exclude=./.git -cf - . | tar -C "$1" -xf -
}

require_linux_source() {
	[ -r /usr/src/linux-source-6.1.tar.xz ] ||
		skip_all "linux-source-6.1 is not installed (make deps)"
}

# The gamepart binary under test: $GAMEPART (e.g. build/asan/gamepart for
# the ASan/UBSan build), by default build/bin/gamepart (make tool).
gamepart_bin() {
	echo "${GAMEPART:-$build/bin/gamepart}"
}

# Skip the whole test when that binary has not been built; sets $gamepart.
require_gamepart() {
	gamepart=$(gamepart_bin)
	[ -x "$gamepart" ] || skip_all "no $gamepart: run make tool (or tool-asan) first"
}

# The gamepart linked with the libext2fs of the e2fsprogs series (make
# tool-series), which folds the encodings the series adds: $GAMEPART_SERIES,
# else build/series/gamepart.  Skip the whole test without it; sets
# $gp_series.
require_gamepart_series() {
	gp_series=${GAMEPART_SERIES:-$build/series/gamepart}
	[ -x "$gp_series" ] || skip_all "no $gp_series: run make tool-series"
}

# kernel_role KERNEL: "stock" for the kernels built without a series
# (6.1-stock, 6.1-stock-distro), "patched" for those built with one
# (6.1-patched, 6.1-distro, 6.1-debug), for guests whose checks differ
# between them.
kernel_role() {
	if [ "$(kernel_field "$1" series)" = - ]; then
		echo stock
	else
		echo patched
	fi
}

# patched_test_kernels: those of test_kernels built with the series, one
# a line (none when GAMEPART_KERNELS names only stock ones).
patched_test_kernels() {
	local k
	for k in $(test_kernels); do
		[ "$(kernel_role "$k")" = patched ] && echo "$k"
	done
	return 0
}

# ab_pairs [KERNEL...]: "STOCK PATCHED" a line, for each patched kernel
# of those given (by default test_kernels) and the stock kernel among
# them built from the same source in the same class (6.1-stock
# 6.1-patched): the A/B tests compare what the two do.
ab_pairs() {
	local kernels p s
	kernels=${*:-$(test_kernels)}
	for p in $kernels; do
		[ "$(kernel_role "$p")" = patched ] || continue
		for s in $kernels; do
			[ "$(kernel_role "$s")" = stock ] &&
				[ "$(kernel_field "$s" source)" = "$(kernel_field "$p" source)" ] &&
				[ "$(kernel_field "$s" class)" = "$(kernel_field "$p" class)" ] &&
				echo "$s $p"
		done
	done
	return 0
}

# require_ab_pairs: this run has a stock and a patched kernel of one
# source, each built, else the whole test skips.  An A/B test calls it
# before its first test line: a skip after one breaks the TAP plan.
require_ab_pairs() {
	local pair
	pair=$(ab_pairs)
	[ -n "$pair" ] ||
		skip_all "no stock and patched kernels of one source among: $(test_kernels | xargs)"
	# shellcheck disable=SC2086 # the kernels' names, one per word
	require_kernel $pair
}

# require_prog NAME...: the test programs (game-layout-tests/progs, make progs).
require_prog() {
	local h
	for h in "$@"; do
		[ -x "$build/progs/$h" ] || skip_all "no $h: run make progs"
	done
}

# casefold_guests [-k "KERNELS"] [-e NUMBER] [MKFS OPTIONS...]: boot each
# kernel (by default those of test_kernels) on a fresh casefold image made
# with the given mkfs.ext4 options (and encoding NUMBER in its superblock,
# as make_encoded_image), running this test with "--guest ROLE" (ROLE
# from kernel_role).
casefold_guests() {
	local kernels k encoding=
	kernels=$(test_kernels)
	if [ "${1-}" = -k ]; then
		kernels=$2
		shift 2
	fi
	if [ "${1-}" = -e ]; then
		encoding=$2
		shift 2
	fi
	require_kernel $kernels
	[ -n "$scratch" ] || make_scratch
	for k in $kernels; do
		if [ -n "$encoding" ]; then
			make_encoded_image "$scratch/$k.img" 64M "$encoding" "$@"
		else
			make_casefold_image "$scratch/$k.img" 64M "$@"
		fi || {
			ok 1 "[$k] mkfs.ext4 -O casefold $* ${encoding:+(encoding $encoding)}"
			continue
		}
		guest_run "$k" --disk "$scratch/$k.img" -- "$(kernel_role "$k")"
	done
}
