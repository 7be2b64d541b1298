# SPDX-License-Identifier: GPL-2.0
# Helpers for the tests of the e2fsprogs series (sourced after host.sh):
# where the patched programs are, and the names the tests plant.

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

# plant_names IMG DIR [+F]: make DIR (a path in IMG) and the planted names
# in it with debugfs, which links a name without looking for one that
# folds alike; with "+F", DIR is casefolded first, so that the names are
# duplicates at once.
plant_names() {
	local img=$1 dir=$2 casefold=${3-} cmds name flags
	debugfs -w -R "mkdir \"$dir\"" "$img" >/dev/null 2>&1
	if [ "$casefold" = +F ]; then
		# Added to the flags it has (extents), not in their place.
		flags=$(debugfs -R "stat \"$dir\"" "$img" 2>/dev/null |
			sed -n 's/.*Flags: \(0x[0-9a-f]*\).*/\1/p')
		debugfs -w -R "set_inode_field \"$dir\" flags $((flags | 0x40000000))" \
			"$img" >/dev/null 2>&1
	fi
	cmds=$(mktemp)
	{
		echo "cd \"$dir\""
		planted_names | while IFS= read -r name; do
			case $name in
			*/) echo "mkdir \"${name%/}\"" ;;
			*) echo "write /dev/null \"$name\"" ;;
			esac
		done
	} >"$cmds"
	debugfs -w -f "$cmds" "$img" >/dev/null 2>&1
	rm -f "$cmds"
}

# The names the planted ones become once renamed, by gamepart convert
# --on-collision=rename or by the patched e2fsck: the first of each group
# by bytes keeps its name.
renamed_names() {
	local upper lower116
	upper=A$(printf 'É%.0s' $(seq 125)).dds
	lower116=a$(printf 'é%.0s' $(seq 116))
	printf '%s\n' FOO.TXT "Foo (case conflict 1).txt" "foo (case conflict 2).txt" \
		SAVE.DAT "save (case conflict 1).dat" "save (case conflict 2).dat" \
		.Cache ".cache (case conflict 1)" Meshes "meshes (case conflict 1)" \
		STRASSE.txt "Straße (case conflict 1).txt" \
		"$(printf 'Cre\314\200me.dds')" "$(printf 'Cr\303\250me (case conflict 1).dds')" \
		"$upper" "$lower116 (case conflict 1).dds" \
		"$(printf 'bad\377.txt')" "$(printf 'BAD\377.txt')" unique.bin |
		LC_ALL=C sort
}

# names_in IMG DIR: the names DIR holds, byte order, one a line (none of
# the planted names holds a newline).
names_in() {
	debugfs -R "ls -p \"$2\"" "$1" 2>/dev/null | cut -d/ -f6 |
		grep -a -v -e '^\.\.\?$' -e '^$' | LC_ALL=C sort
}
