#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# udf stores names in OSTA compressed Unicode and converts them through
# the iocharset= charset, or through its own UTF-8 code when none is
# given; a name the charset cannot convert gets a CRC-suffixed
# replacement.  On a fresh image, each kernel creates names through a
# UTF-8 mount and a Latin-1 one; the patched kernel must then list and
# look up names under several iocharset= values, and udf's own UTF-8,
# exactly as the stock kernel does.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/nls.sh"
	nls_fresh_fs udf <<-'EOT'
	iocharset=utf8 utf-8 smile\x20😀.png Déjà\x20vu.TXT
	iocharset=iso8859-1 latin-1 D\xe9j\xe0\x20vu.TXT
	iocharset=koi8-r koi8-r
	utf8 utf-8
	- utf-8
	EOT
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/nls.sh"
nls_ab_fresh udf
