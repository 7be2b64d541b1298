# SPDX-License-Identifier: GPL-2.0
# Helpers for the tests of the e2fsprogs series (sourced after host.sh):
# where the patched programs are, and the directories the tests plant.

# Images are read with gamepart.sh's helpers (inode_flags).
declare -F inode_flags >/dev/null || . "$tests_lib/gamepart.sh"

# The patched programs (make e2fsprogs); the system's stay on PATH as the
# stock 1.47.0 that every image must still satisfy.
patched_sbin=$build/e2fsprogs/sbin

require_patched_e2fsprogs() {
	[ -x "$patched_sbin/e2fsck" ] ||
		skip_all "no patched e2fsprogs at $patched_sbin (make e2fsprogs)"
}

# The names planted in one directory, one a line, each group of names
# that fold alike together: ASCII case with and without a suffix, a name
# whose "(case conflict 1)" spelling is taken already, a dotfile, two
# directories, German sharp s against "SS" (full case folding), NFC
# against NFD, and two 255-byte names of two-byte letters, which the tag
# must shorten at a character boundary.  Then two names that are not
# UTF-8, which the kernel compares as bytes: they collide with nothing,
# and neither does unique.bin.  Directories are the lines ending in "/".
planted_names() {
	local upper lower
	upper=A$(printf 'É%.0s' $(seq 125)).dds
	lower=a$(printf 'é%.0s' $(seq 125)).dds
	printf '%s\n' Foo.txt foo.txt FOO.TXT save.dat SAVE.DAT \
		"save (case conflict 1).dat" .Cache .cache Meshes/ meshes/ \
		Straße.txt STRASSE.txt "$(printf 'Cr\303\250me.dds')" \
		"$(printf 'Cre\314\200me.dds')" "$upper" "$lower" \
		"$(printf 'bad\377.txt')" "$(printf 'BAD\377.txt')" unique.bin
}

# plant_names IMG DIR [+F] [bytes]: make DIR (a path in IMG) and the
# planted names in it with debugfs, which links a name without looking for
# one that folds alike; with "+F", DIR is casefolded first, so that the
# names are duplicates at once; with "bytes", the names are written in
# byte order rather than planted_names' order.
plant_names() {
	local img=$1 dir=$2 casefold=${3-} order=${4-} cmds name
	debugfs -w -R "mkdir \"$dir\"" "$img" >/dev/null 2>&1
	[ "$casefold" = +F ] && set_casefold "$img" "$dir"
	cmds=$(mktemp)
	{
		echo "cd \"$dir\""
		if [ "$order" = bytes ]; then
			planted_names | LC_ALL=C sort
		else
			planted_names
		fi | while IFS= read -r name; do
			case $name in
			*/) echo "mkdir \"${name%/}\"" ;;
			*) echo "write /dev/null \"$name\"" ;;
			esac
		done
	} >"$cmds"
	debugfs -w -f "$cmds" "$img" >/dev/null 2>&1
	rm -f "$cmds"
}

# set_casefold IMG DIR: +F on the directory DIR of the unmounted IMG,
# added to the flags it has (extents, index) rather than in their place.
set_casefold() {
	local flags
	flags=$(inode_flags "$1" "$2") || return 1
	debugfs -w -R "set_inode_field \"$2\" flags $((flags | casefold_fl))" "$1" >/dev/null 2>&1
}

# make_stale_index IMG DIR: DIR with 300 names (Texture_N.DDS), indexed
# by the stock e2fsck -D while it is case-sensitive, then made +F: its
# index hashes the names unfolded, as a +F set offline leaves it.  The
# e2fsck -D runs on the whole image: call it before planting duplicates
# that it would rename.
make_stale_index() {
	local img=$1 dir=$2 cmds i
	cmds=$(mktemp)
	{
		echo "mkdir \"$dir\""
		echo "cd \"$dir\""
		for i in $(seq 300); do echo "write /dev/null Texture_$i.DDS"; done
	} >"$cmds"
	debugfs -w -f "$cmds" "$img" >/dev/null 2>&1
	rm -f "$cmds"
	e2fsck -fyD "$img" >/dev/null 2>&1
	set_casefold "$img" "$dir"
}

# renamed_names [bytes|written]: the names the planted ones become once
# renamed, byte order.  bytes (the default): as gamepart convert
# --on-collision=rename renames them, casefolding a directory no kernel
# has folded yet, where the first of each group by bytes keeps its name.
# written: as the patched e2fsck repairs a +F directory, where the first
# in the directory's order keeps it, the entry the kernel found (debugfs
# writes the names in the order of planted_names, one after the other).
renamed_names() {
	local keep=${1:-bytes} upper lower116
	upper=A$(printf 'É%.0s' $(seq 125)).dds
	lower116=a$(printf 'é%.0s' $(seq 116))
	{
		case $keep in
		bytes)
			printf '%s\n' FOO.TXT "Foo (case conflict 1).txt" \
				"foo (case conflict 2).txt" SAVE.DAT "save (case conflict 2).dat" \
				STRASSE.txt "Straße (case conflict 1).txt" \
				"$(printf 'Cre\314\200me.dds')" "$(printf 'Cr\303\250me (case conflict 1).dds')"
			;;
		written)
			printf '%s\n' Foo.txt "foo (case conflict 1).txt" \
				"FOO (case conflict 2).TXT" save.dat "SAVE (case conflict 2).DAT" \
				Straße.txt "STRASSE (case conflict 1).txt" \
				"$(printf 'Cr\303\250me.dds')" "$(printf 'Cre\314\200me (case conflict 1).dds')"
			;;
		esac
		printf '%s\n' "save (case conflict 1).dat" .Cache ".cache (case conflict 1)" \
			Meshes "meshes (case conflict 1)" "$upper" "$lower116 (case conflict 1).dds" \
			"$(printf 'bad\377.txt')" "$(printf 'BAD\377.txt')" unique.bin
	} | LC_ALL=C sort
}

# names_in IMG DIR: the names DIR holds, byte order, one a line (none of
# the planted names holds a newline).
names_in() {
	debugfs -R "ls -p \"$2\"" "$1" 2>/dev/null | cut -d/ -f6 |
		grep -a -v -e '^\.\.\?$' -e '^$' | LC_ALL=C sort
}
