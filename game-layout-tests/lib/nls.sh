# SPDX-License-Identifier: GPL-2.0
# The NLS A/B tests (sourced after host.sh or guest.sh): the filesystems
# other than ext4 that convert names through fs/nls must behave on the
# patched kernel exactly as on the stock one.
#
# Host side, after require_ab_pairs (lib/host.sh):
#   nls_ab IMAGE [vmrun options]
#       run this test file's guest side ("--guest KERNEL") on the stock
#       kernel and on the patched one, each on its own copy of IMAGE
#       (/dev/vda), collect what nls-probe records in each, and test that
#       the two records are the same, byte for byte.  The guest side
#       asserts what some names must be as well, so that a change both
#       kernels share is caught too.
#
# Guest side:
#   nls_probe ARGS           progs/nls-probe: list, read (list and look up),
#                            create names
#   nls_read_mounts FS NAME...
#                            for each line "OPTIONS CODEC [EXPECTED...]" of
#                            standard input ("-": no option), mount
#                            /dev/vda read-only with OPTIONS, record its
#                            listing and the lookups of each NAME encoded
#                            with the Python codec CODEC, test that each
#                            EXPECTED path (printf %b escapes for bytes)
#                            exists, and unmount
#   nls_fresh_fs FS          on an empty FS: create $nls_utf8_names
#                            through a mount with iocharset=utf8, then
#                            $nls_latin1_names with iocharset=iso8859-1,
#                            then nls_read_mounts FS with all of them, and
#                            end the guest's plan
#
# Host side, for an image made on the host:
#   nls_source_tree NAME...  $scratch/src, a file of each NAME holding it
#   nls_vfat_image IMG KIB   a vfat image of KIB KiB holding $scratch/src,
#                            written by mtools
# and for an empty filesystem:
#   nls_ab_fresh FS          an empty 16 MiB image made with FS's mkfs,
#                            nls_ab on it, and the end of the plan

# Names for the images made on the host (each test adds what its
# filesystem shows differently)
nls_image_names=('Café.txt' 'MiXeD.Case.TXT' 'README.TXT' 'naïve résumé.sav'
	'straße.cfg' 'Ελληνικά.ini' 'ДАННЫЕ.bin' '日本語.dat')
# Names for the filesystems that start empty, as UTF-8 and as Latin-1
nls_utf8_names=('Café.txt' 'MiXeD.Case.TXT' 'naïve résumé.sav' 'straße.cfg'
	'Ελληνικά.ini' 'ДАННЫЕ.bin' '日本語.dat' 'smile 😀.png')
nls_latin1_names=('Déjà vu.TXT' 'ÅNGSTRÖM.dat' 'x×y.bin')

nls_ab() {
	local img=$1 stock patched k
	shift
	[ -n "$scratch" ] || make_scratch
	while read -r stock patched; do
		for k in "$stock" "$patched"; do
			cp "$img" "$scratch/$k.img"
			guest_record=$scratch/$k.record
			: >"$guest_record"
			guest_run "$k" --disk "$scratch/$k.img" "$@" -- "$(kernel_role "$k")"
		done
		guest_record=
		[ -s "$scratch/$stock.record" ]
		ok $? "[$stock] the stock kernel's guest recorded names ($(wc -l <"$scratch/$stock.record") lines)"
		cmp -s "$scratch/$stock.record" "$scratch/$patched.record"
		ok $? "[$patched] records the same names, lookups and creations as $stock" ||
			diag "$(diff "$scratch/$stock.record" "$scratch/$patched.record" | head -n 20)"
	done < <(ab_pairs)
}

nls_probe() {
	python3 -S "$top/game-layout-tests/progs/nls-probe" "$@"
}

nls_source_tree() {
	local n
	mkdir "$scratch/src"
	for n in "$@"; do
		printf '%s\n' "$n" >"$scratch/src/$n"
	done
}

nls_vfat_image() {
	require_cmd mkfs.vfat mcopy
	rm -f "$1"
	mkfs.vfat -C "$1" "$2" >/dev/null &&
		# mtools reads the host's names in the locale's charset
		LANG=C.UTF-8 MTOOLS_SKIP_CHECK=1 mcopy -i "$1" "$scratch/src"/* ::/
}

nls_ab_fresh() {
	local img
	require_cmd python3
	require_ab_pairs
	make_scratch
	img=$scratch/$1.img
	truncate -s 16M "$img"
	case $1 in
	exfat) require_cmd mkfs.exfat && mkfs.exfat "$img" >/dev/null ;;
	udf) require_cmd mkudffs && mkudffs --media-type=hd --blocksize=512 "$img" >/dev/null ;;
	esac
	ok $? "$1: an empty image"
	nls_ab "$img"
	done_testing
}

nls_fresh_fs() {
	local fs=$1
	mkdir -p $mnt
	mount -t "$fs" -o iocharset=utf8 /dev/vda $mnt
	ok $? "mount -t $fs -o iocharset=utf8"
	nls_probe create utf-8 $mnt "${nls_utf8_names[@]}"
	umount $mnt
	mount -t "$fs" -o iocharset=iso8859-1 /dev/vda $mnt
	ok $? "mount -t $fs -o iocharset=iso8859-1"
	nls_probe create latin-1 $mnt "${nls_latin1_names[@]}"
	umount $mnt
	nls_read_mounts "$fs" "${nls_utf8_names[@]}" "${nls_latin1_names[@]}"
	done_testing
}

nls_read_mounts() {
	local fs=$1 opts codec expected path missing
	shift
	mkdir -p $mnt
	while read -r opts codec expected; do
		[ "$opts" = - ] && opts=
		echo "record mount ${opts:--}"
		mount -t "$fs" -o "ro${opts:+,$opts}" /dev/vda $mnt
		ok $? "mount -t $fs -o ro${opts:+,$opts}"
		nls_probe read "$codec" $mnt "$@"
		if [ -n "$expected" ]; then
			missing=
			for path in $expected; do
				[ -e "$mnt/$(printf '%b' "$path")" ] || missing+=" $path"
			done
			[ -z "$missing" ]
			ok $? "${opts:-no option}: found $expected" || diag "missing:$missing"
		fi
		umount $mnt
	done
}
