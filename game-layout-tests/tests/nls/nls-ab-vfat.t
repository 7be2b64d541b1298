#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# vfat converts every name through two kernel charsets: iocharset= between
# the user and UTF-16 long names, codepage= for 8.3 short names, and folds
# case with the I/O charset's tables.  On an image that mtools wrote on the
# host (accented Latin, Cyrillic, Greek, CJK, a short name in a code page
# byte), the patched kernel must list, look up (as given, in upper and in
# lower case) and create names exactly as the stock kernel does, under
# several iocharset=/codepage= pairs, then list what both wrote through
# the mount; msdos shows the short names vfat derived with the code page.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/nls.sh"
	names=("${nls_image_names[@]}" 'Ünïcödé Dïr')
	nls_read_mounts vfat "${names[@]}" <<-'EOT'
	iocharset=utf8 utf-8 Café.txt 日本語.dat
	iocharset=iso8859-1,codepage=437 latin-1 Caf\xe9.txt readme.txt CAF\xc9.TXT
	iocharset=iso8859-15,codepage=850 iso8859-15
	iocharset=koi8-r,codepage=866 koi8-r
	iocharset=ascii,codepage=437 ascii
	utf8,codepage=850,shortname=winnt utf-8
	EOT

	mount -t vfat -o iocharset=utf8,codepage=437 /dev/vda $mnt
	nls_probe create utf-8 $mnt 'Nouveau fichier é.txt' 'Зелёный.dat' \
		'中文名字.txt' 'smile 😀.png' 'UPPER.TXT' 'ab.c'
	# The utf8 charset holds plane 0 only: vfat's own UTF-8 code, with
	# the utf8 option, writes a character beyond it as a surrogate pair.
	[ ! -e "$mnt/smile 😀.png" ]
	ok $? "iocharset=utf8 refuses a name beyond plane 0"
	umount $mnt
	mount -t vfat -o utf8,codepage=437 /dev/vda $mnt
	nls_probe create utf-8 $mnt 'smile 😀.png'
	umount $mnt
	mount -t vfat -o iocharset=iso8859-1,codepage=850 /dev/vda $mnt
	nls_probe create latin-1 $mnt 'Déjà vu.TXT' 'ÅNGSTRÖM.dat' 'x×y.bin' 'FRANÇAIS.SAV'
	umount $mnt
	mount -t vfat -o ro,utf8 /dev/vda $mnt
	echo "record after creating, utf8"
	nls_probe list $mnt
	[ -e "$mnt/smile 😀.png" ] && [ -e "$mnt/Déjà vu.TXT" ]
	ok $? "names created as UTF-8 and as Latin-1 read back in UTF-8"
	umount $mnt
	mount -t msdos -o ro /dev/vda $mnt
	echo "record msdos"
	nls_probe list $mnt
	umount $mnt
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/nls.sh"
require_cmd python3
require_ab_pairs
make_scratch
nls_source_tree "${nls_image_names[@]}" 'Ünïcödé Dïr'
nls_vfat_image "$scratch/vfat.img" 8192
ok $? "mkfs.vfat, and mcopy wrote the names"
nls_ab "$scratch/vfat.img"
done_testing
