# SPDX-License-Identifier: GPL-2.0
# Guest side of the gamepart convert tests (sourced after guest.sh): the
# casefold disk mounted at $mnt and the checks every conversion must pass.

. "$guest_lib/gamepart.sh"
# DIRECTORIES=replace in the guest's environment: a test's conversions
# replace directories ("$gp" convert $directories ...), and the checks
# expect every directory below the library to be a new one.
directories=--directories=${DIRECTORIES:-keep}
replaced=
[ "${DIRECTORIES-}" = replace ] && replaced=--replaced

# convert_mount: /dev/vda at $mnt, or the test ends.
convert_mount() {
	mount_disk /dev/vda $mnt || { echo "not ok - mount /dev/vda"; exit 1; }
}

# convert_library NAME BIG: /dev/vda at $mnt, a library generated at
# lib=$mnt/NAME with BIG entries in its big directory, and its manifest
# in /tmp/before.json.
convert_library() {
	convert_mount
	lib=$mnt/$1
	mkdir "$lib"
	"$tree" make "$lib" --big "$2"
	"$manifest" "$lib" >/tmp/before.json
}

# converted TAG LIB BEFORE JSON [--except PREFIX]: LIB is the manifest
# BEFORE with the renames JSON (convert --json) reports (its directories
# below LIB new ones under DIRECTORIES=replace), every directory of it is
# +F, and no work directory is left beside it.
converted() {
	local tag=$1 lib=$2 before=$3 json=$4
	shift 4
	"$manifest" "$lib" >/tmp/after.json
	"$tree" compare "$@" $replaced "$before" /tmp/after.json "$json" >/tmp/diff
	ok $? "$tag: the manifest is the one before, with the reported renames" ||
		diag "$(head -n 20 /tmp/diff)"
	is "$(not_f_dirs "$lib")" 0 "$tag: every directory is +F"
	[ -z "$(ls -A "$(dirname "$lib")" | grep "^\.gamepart-convert\.")" ]
	ok $? "$tag: no work directory is left"
}

# resumed TAG LIB BEFORE [REPORT]: --resume LIB finishes, and LIB is
# converted with the renames --resume reports, or REPORT's.
resumed() {
	"$gp" convert --resume --json "$2" >/tmp/resume.json 2>/tmp/err
	ok $? "$1: --resume finishes" || diag "$(cat /tmp/err)"
	# The resumed run reports the renames of the interrupted one too.
	converted "$1" "$2" "$3" "${4:-/tmp/resume.json}"
}

# nothing_left [OPTIONS...]: converting $lib again (with OPTIONS) exits 0
# and has nothing to do.
nothing_left() {
	"$gp" convert "$@" "$lib" >/tmp/out
	is $? 0 "converting again exits 0"
	grep -q '^nothing to do, every directory is casefolded' /tmp/out
	ok $? "and has nothing to do"
}
