#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# The patched dumpe2fs, tune2fs and debugfs show the encoding's flags on
# a line after it, "Character encoding flags:", by name (strict,
# no_compat_fallback) and unknown bits in hex, on the images gamepart
# create makes; the encoding's own line is as before.  The patched mke2fs
# and tune2fs set no_compat_fallback by name.  The stock 1.47.0 tools
# print the encoding's line as the patched ones do and accept every
# image the patched ones write.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
. "$tests_lib/e2fsprogs.sh"
require_gamepart
require_patched_e2fsprogs
require_cmd dumpe2fs e2fsck
make_scratch

# encoding_line PROGRAM...: the values of "Character encoding:" and
# "Character encoding flags:", if printed, after a "|".
encoding_line() {
	"$@" 2>/dev/null | sed -n 's/^Character encoding\( flags\)\{0,1\}: *//p' |
		paste -s -d '|'
}

"$gp" create --size 32M "$scratch/plain.img" >/dev/null &&
	"$gp" create --size 32M --strict "$scratch/strict.img" >/dev/null
ok $? "gamepart create makes a default and a --strict image"
is "$(encoding_line "$patched_sbin/dumpe2fs" -h "$scratch/plain.img")" "utf8-12.1|no_compat_fallback" \
	"dumpe2fs -h: utf8-12.1, flags no_compat_fallback for create's default"
is "$(encoding_line "$patched_sbin/dumpe2fs" -h "$scratch/strict.img")" \
	"utf8-12.1|strict, no_compat_fallback" "dumpe2fs -h: utf8-12.1, flags strict, no_compat_fallback for --strict"
is "$(encoding_line "$patched_sbin/tune2fs" -l "$scratch/strict.img")" \
	"utf8-12.1|strict, no_compat_fallback" "tune2fs -l says the same"
is "$(encoding_line "$patched_sbin/debugfs" -R stats "$scratch/strict.img")" \
	"utf8-12.1|strict, no_compat_fallback" "debugfs stats says the same"
is "$(encoding_line dumpe2fs -h "$scratch/strict.img")" utf8-12.1 \
	"the stock dumpe2fs prints the encoding's line as the patched one does, and no flags"

truncate -s 32M "$scratch/mkfs.img"
"$patched_sbin/mke2fs" -q -F -t ext4 -O casefold -E encoding_flags=no_compat_fallback "$scratch/mkfs.img"
is "$(sb_u16 "$scratch/mkfs.img" 0x27e)" 2 "mke2fs -E encoding_flags=no_compat_fallback stores 0x2"
truncate -s 32M "$scratch/tune.img"
mkfs.ext4 -q -F "$scratch/tune.img"
"$patched_sbin/tune2fs" -O casefold -E encoding=utf8,encoding_flags=strict-no_compat_fallback \
	"$scratch/tune.img" >/dev/null
is "$(sb_u16 "$scratch/tune.img" 0x27e)" 3 "tune2fs -O casefold -E encoding_flags=strict-no_compat_fallback stores 0x3"
truncate -s 32M "$scratch/none.img"
mkfs.ext4 -q -F "$scratch/none.img"
"$patched_sbin/tune2fs" -O casefold -E encoding=utf8,encoding_flags=no_such_flag \
	"$scratch/none.img" >/dev/null 2>"$scratch/err"
[ $? -ne 0 ] && grep -q "Invalid encoding flag: no_such_flag" "$scratch/err"
ok $? "an unknown flag name is refused, and named" || diag "$(cat "$scratch/err")"

set_encoding_flags "$scratch/mkfs.img" 0x8003
is "$(encoding_line "$patched_sbin/dumpe2fs" -h "$scratch/mkfs.img")" \
	"utf8-12.1|strict, no_compat_fallback, 0x8000" "a bit no e2fsprogs knows is shown in hex"
set_encoding_flags "$scratch/mkfs.img" 0x2
for i in plain strict mkfs tune; do
	e2fsck -fn "$scratch/$i.img" >/dev/null 2>&1
	ok $? "$i.img: the stock e2fsck -fn finds it clean"
done
done_testing
