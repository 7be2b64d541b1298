#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# Lookups in a +F directory hit or miss as the kernel's folding says:
# ASCII case variants, NFC against NFD, full case folding (ß = ss),
# ignorable code points, and invalid UTF-8 matched byte for byte only.
# Run on the stock and on the patched kernel.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	mount_disk /dev/vda $mnt || { echo "not ok - mount /dev/vda"; exit 1; }
	mkdir $mnt/ci $mnt/cs
	chattr +F $mnt/ci
	has_f $mnt/ci
	ok $? "chattr +F sets the casefold flag on an empty directory"

	nfc=$(printf 'caf\xc3\xa9')              # café, precomposed
	nfd=$(printf 'cafe\xcc\x81')             # café, e + combining acute
	nfc_upper=$(printf 'CAF\xc3\x89')        # CAFÉ, precomposed
	sharp=$(printf 'stra\xc3\x9fe')          # straße
	zwsp=$(printf 'a\xe2\x80\x8bb')          # a, ZERO WIDTH SPACE, b
	bad=$(printf 'bad\xff')                  # not UTF-8
	bad_upper=$(printf 'BAD\xff')

	for name in foo.txt "$nfc" "$sharp" "$zwsp" "$bad"; do
		echo "$name" >"$mnt/ci/$name"
	done
	echo foo >$mnt/cs/foo.txt

	# same_file STORED LOOKUP: LOOKUP resolves to the inode of STORED.
	same_file() {
		[ "$(stat -c %i "$mnt/ci/$1")" = "$(stat -c %i "$mnt/ci/$2" 2>/dev/null)" ]
	}
	same_file foo.txt FOO.TXT;      ok $? "lookup FOO.TXT finds foo.txt"
	same_file foo.txt Foo.Txt;      ok $? "lookup Foo.Txt finds foo.txt"
	same_file "$nfc" "$nfd";        ok $? "lookup of NFD café finds NFC café"
	same_file "$nfc" "$nfc_upper";  ok $? "lookup CAFÉ finds café"
	same_file "$sharp" STRASSE;     ok $? "lookup STRASSE finds straße (full case folding)"
	same_file "$sharp" strasse;     ok $? "lookup strasse finds straße"
	same_file "$zwsp" ab;           ok $? "lookup ab finds a<U+200B>b (ignorable code point dropped)"
	same_file "$bad" "$bad";        ok $? "invalid UTF-8 name found byte-exact"
	! [ -e "$mnt/ci/$bad_upper" ];  ok $? "invalid UTF-8 name not found under another case"

	is "$(ls $mnt/ci | grep -ci '^foo')" 1 "one directory entry for foo.txt"
	is "$(ls $mnt/ci | grep '^foo')" foo.txt "the stored name keeps the case it was created with"
	mkdir "$mnt/ci/FOO.TXT" 2>/dev/null
	[ $? -ne 0 ] && [ -f "$mnt/ci/foo.txt" ]
	ok $? "mkdir FOO.TXT fails beside foo.txt"

	! [ -e $mnt/ci/missing ];       ok $? "lookup of a missing name misses"
	! [ -e $mnt/ci/MISSING ];       ok $? "lookup of its upper case misses too"
	echo new >$mnt/ci/Missing
	same_file Missing missing;      ok $? "after creating Missing, lookup missing finds it"
	is "$(ls $mnt/ci | grep -i '^missing$')" Missing "the created name is stored as typed"

	! [ -e $mnt/cs/FOO.TXT ];       ok $? "a directory without +F stays case-sensitive"
	umount $mnt
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
require_kernel $(test_kernels)
require_cmd mkfs.ext4
make_scratch
for kernel in $(test_kernels); do
	make_casefold_image "$scratch/$kernel.img" 64M
	guest_run "$kernel" --disk "$scratch/$kernel.img" --
done
done_testing
