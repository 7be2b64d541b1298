#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# On a filesystem with the strict encoding flag, a +F directory refuses
# names that are not valid UTF-8 (EINVAL), and lookups of them fail the
# same way; a plain directory on the same filesystem takes them.  On a
# filesystem without the flag, the +F directory takes them as opaque
# bytes.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	cf_mount
	bad=$(printf 'save\xff.dat')
	truncated=$(printf 'caf\xc3')
	strict=$2

	if [ "$strict" = strict ]; then
		err=$(touch "$ci/$bad" 2>&1)
		[ $? -ne 0 ] && [[ $err == *"Invalid argument"* ]]
		ok $? "strict: creating save\\xff.dat in +F fails with EINVAL"
		! mkdir "$ci/$truncated" 2>/dev/null
		ok $? "strict: mkdir of a truncated sequence in +F fails"
		is "$(ls -A $ci | wc -l)" 0 "strict: nothing was created"
		touch "$cs/$bad"
		ok $? "strict: a plain directory takes save\\xff.dat"
		echo x >"$ci/Caf$(printf '\xc3\xa9')"
		[ -f "$ci/CAF$(printf '\xc3\x89')" ]
		ok $? "strict: valid UTF-8 is still folded (CAFÉ finds Café)"
	else
		touch "$ci/$bad"
		ok $? "not strict: save\\xff.dat is created in +F"
		[ -f "$ci/$bad" ] && missing "$ci/$(printf 'SAVE\xff.DAT')"
		ok $? "not strict: it is found byte for byte only"
	fi
	umount $mnt
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
require_kernel $(test_kernels)
make_scratch
for k in $(test_kernels); do
	make_casefold_image "$scratch/s-$k.img" 64M -E encoding=utf8,encoding_flags=strict || exit 1
	guest_run "$k" --disk "$scratch/s-$k.img" -- strict
	make_casefold_image "$scratch/n-$k.img" 64M || exit 1
	guest_run "$k" --disk "$scratch/n-$k.img" -- normal
done
done_testing
