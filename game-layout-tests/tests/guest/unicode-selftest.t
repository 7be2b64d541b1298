#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel's own UTF-8 normalization selftest (built in) passes at boot
# on every kernel we test.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	line=$(dmesg | grep 'utf8_selftest:')
	diag "$line"
	echo "$line" | grep -q 'All [0-9]* tests passed'
	ok $? "utf8 selftest reports that all its tests passed"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
require_kernel stock patched
for kernel in $(test_kernels); do
	guest_run "$kernel" --
done
done_testing
