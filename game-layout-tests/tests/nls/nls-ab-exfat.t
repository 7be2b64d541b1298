#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# exfat stores UTF-16 names and converts them through the iocharset=
# charset (its own UTF-8 code for iocharset=utf8, the default), and folds
# case with the volume's upcase table.  On a fresh image, each kernel
# creates names through a UTF-8 mount and a Latin-1 one; the patched
# kernel must then list and look up names (as given, in upper and in lower
# case) under several iocharset= values exactly as the stock kernel does.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/nls.sh"
	nls_fresh_fs exfat <<-'EOT'
	iocharset=utf8 utf-8 smile\x20😀.png CAFÉ.TXT Déjà\x20vu.TXT
	iocharset=iso8859-1 latin-1 D\xe9j\xe0\x20vu.txt
	iocharset=koi8-r koi8-r
	iocharset=cp437 cp437
	EOT
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/nls.sh"
nls_ab_fresh exfat
