#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# isofs reads Joliet's UCS-2 names through the iocharset= charset, and
# the plain ISO 9660 names without it.  On an image that xorriso wrote on
# the host with Joliet (and the Rock Ridge names xorriso always adds,
# which bypass the charset and are ignored here with norock but once),
# the patched kernel must list and look up names (as given, in upper and
# in lower case) exactly as the stock kernel does, with several
# iocharset= values, with Joliet ignored, and with check=relaxed.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/nls.sh"
	names=("${nls_image_names[@]}" 'smile 😀.png')
	nls_read_mounts iso9660 "${names[@]}" <<-'EOT'
	norock,iocharset=utf8 utf-8 日本語.dat Café.txt
	norock,iocharset=iso8859-1 latin-1 Caf\xe9.txt
	norock,iocharset=koi8-r koi8-r
	norock,iocharset=cp437 cp437
	norock,utf8 utf-8
	norock,iocharset=utf8,check=relaxed utf-8
	norock,nojoliet ascii
	norock,nojoliet,map=off ascii
	iocharset=iso8859-1 utf-8
	EOT
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/nls.sh"
require_cmd xorriso python3
require_ab_pairs
make_scratch
nls_source_tree "${nls_image_names[@]}" 'smile 😀.png'
LANG=C.UTF-8 xorriso -as mkisofs -quiet -J -joliet-long -input-charset utf-8 \
	-o "$scratch/iso.img" "$scratch/src" 2>"$scratch/xorriso.log"
ok $? "xorriso wrote the names with Joliet" || diag "$(cat "$scratch/xorriso.log")"
nls_ab "$scratch/iso.img"
done_testing
