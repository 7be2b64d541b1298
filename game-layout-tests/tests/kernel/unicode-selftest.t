#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# The kernel's own UTF-8 normalization selftest (built in) passes at boot
# on every kernel we test.  On the patched kernel it also holds the ASCII
# fast path to the tables (the series' selftest patch): hundreds of
# thousands of checks, where the stock selftest has about 150.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	line=$(dmesg | grep 'utf8_selftest:' | tail -n 1)
	diag "$line"
	echo "$line" | grep -q 'All [0-9]* tests passed'
	ok $? "utf8 selftest reports that all its tests passed"
	count=$(echo "$line" | sed -n 's/.*All \([0-9]*\) tests passed.*/\1/p')
	if [ "$2" = stock ]; then
		[ "${count:-0}" -lt 1000 ]
		ok $? "stock: the selftest has no fast path checks (${count:-no} tests)"
	else
		[ "${count:-0}" -gt 300000 ]
		ok $? "patched: the selftest checks the ASCII fast path (${count:-no} tests)"
	fi
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
require_kernel $(test_kernels)
for kernel in $(test_kernels); do
	# The selftest runs at boot: a guest of its own, whose log has it.
	guest_run "$kernel" --boot-selftests -- "$(kernel_role $kernel)"
done
done_testing
