#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# On a filesystem with the strict encoding flag, a +F directory refuses
# names that are not valid UTF-8 (EINVAL), and lookups of them fail the
# same way; a plain directory on the same filesystem takes them.  On a
# filesystem without the flag, the +F directory takes them as opaque
# bytes.  Strict mode is checked in each encoding: today's utf8-12.1 on
# every kernel, and the series' utf8-nfkd-12.1 and utf8-windows-12.1 on
# the patched ones, where valid names still fold as the encoding folds.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	cf_mount
	bad=$(printf 'save\xff.dat')
	truncated=$(printf 'caf\xc3')
	# s_encoding_flags, straight from the superblock: 1 is strict.
	strict=normal
	[ "$(od -An -tu2 -j $((1024 + 0x27e)) -N2 /dev/vda | tr -d ' ')" = 1 ] &&
		strict=strict
	# s_encoding: 1 is utf8-12.1, 0xff01 and 0xff02 the series' encodings.
	encoding=$(od -An -tx2 -j $((1024 + 0x27c)) -N2 /dev/vda | tr -d ' ')

	if [ "$strict" = strict ]; then
		err=$(touch "$ci/$bad" 2>&1)
		[ $? -ne 0 ] && [[ $err == *"Invalid argument"* ]]
		ok $? "strict: creating save\\xff.dat in +F fails with EINVAL"
		! mkdir "$ci/$truncated" 2>/dev/null
		ok $? "strict: mkdir of a truncated sequence in +F fails"
		is "$(ls -A $ci | wc -l)" 0 "strict: nothing was created"
		err=$(stat -- "$ci/$bad" 2>&1)
		[[ $err == *"Invalid argument"* ]]
		ok $? "strict: a lookup of save\\xff.dat in +F fails with EINVAL, not ENOENT"
		touch "$cs/$bad"
		ok $? "strict: a plain directory takes save\\xff.dat"
		echo x >"$ci/Caf$(printf '\xc3\xa9')"
		[ -f "$ci/CAF$(printf '\xc3\x89')" ]
		ok $? "strict: valid UTF-8 is still folded (CAFÉ finds Café)"
		case $encoding in
		0001)
			touch "$ci/straße.txt" && same_file "$ci/straße.txt" "$ci/STRASSE.TXT"
			ok $? "strict, utf8-12.1: STRASSE.TXT finds straße.txt (full case folding)"
			;;
		ff01)
			touch "$ci/ＡＢＣ.txt" && same_file "$ci/ＡＢＣ.txt" "$ci/abc.txt"
			ok $? "strict, utf8-nfkd-12.1: abc.txt finds the fullwidth ＡＢＣ.txt (NFKD)"
			;;
		ff02)
			touch "$ci/straße.txt" "$ci/strasse.txt" &&
				! same_file "$ci/straße.txt" "$ci/strasse.txt" &&
				same_file "$ci/straße.txt" "$ci/STRAßE.TXT"
			ok $? "strict, utf8-windows-12.1: straße.txt and strasse.txt are two files, STRAßE.TXT finds the first"
			;;
		*)
			ok 1 "strict: an encoding this test knows (superblock says 0x$encoding)"
			;;
		esac
	else
		touch "$ci/$bad"
		ok $? "not strict: save\\xff.dat is created in +F"
		[ -f "$ci/$bad" ] && missing "$ci/$(printf 'SAVE\xff.DAT')"
		ok $? "not strict: it is found byte for byte only"
	fi
	cf_done
fi

. "$(dirname "$0")/../../lib/host.sh"
require_cmd debugfs
casefold_guests -E encoding=utf8,encoding_flags=strict
casefold_guests
patched=$(patched_test_kernels)
if [ -n "$patched" ]; then
	casefold_guests -k "$patched" -e 0xff01 -E encoding=utf8,encoding_flags=strict
	casefold_guests -k "$patched" -e 0xff02 -E encoding=utf8,encoding_flags=strict
fi
done_testing
