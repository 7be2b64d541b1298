#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: patched
# The series' KUnit tests of the NLS interface (fs/nls/nls_kunit.c) run
# at every boot of a kernel that carries it: every charset of the tree,
# all built into the guest, loads by name and alias and converts the code
# point of each one-byte character back to that code point;
# load_nls_version() refuses what it must; the string operations fold,
# compare and normalize as documented, strict and not, utf8's as
# fs/unicode does.  Here: the kernel log of a patched guest reports every
# case passed and none skipped.  The stock kernel has no such tests.

# The charsets the test knows: the default one and the tree's 51
charsets=52

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	log=$(dmesg | sed -e 's/^\[[^]]*\] *//' -e 's/^ *//')
	stats() { grep -m1 -E "^# $1: pass:[0-9]+ fail:[0-9]+ skip:[0-9]+ total:[0-9]+\$" <<<"$log"; }
	suite=$(stats nls)
	ok $? "the kernel log has the nls suite's results" || diag "$(grep -i kunit <<<"$log" | head)"
	diag "$suite"
	[[ $suite =~ pass:([0-9]+)\ fail:0\ skip:0\ total:([0-9]+) ]] &&
		[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[1]}" -ge 9 ]
	ok $? "every case of the nls suite passed, none skipped" ||
		diag "$(grep -E '^(not ok|# .*(Expected|skip))' <<<"$log" | head -n 20)"
	loads=$(stats nls_test_charset_loads)
	diag "$loads"
	[[ $loads == *"pass:$charsets fail:0 skip:0 total:$charsets" ]]
	ok $? "all $charsets charsets load and convert their characters back"
	! grep -q '^not ok' <<<"$log"
	ok $? "no KUnit test failed"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
kernels=$(patched_test_kernels)
[ -n "$kernels" ] || skip_all "no kernel with the series among: $(test_kernels | xargs)"
require_kernel $kernels
for k in $kernels; do
	# The results are in the log of the guest's boot: a guest of its own.
	guest_run "$k" --fresh -- "$k"
done
done_testing
