#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: fstests
# kernels: each
# Upstream's generic tests of the groups rename, whiteout and dir, on the
# stock and the patched kernel: fstests (make fstests) on ext4 in a
# guest, TEST_DEV and SCRATCH_DEV two image disks (lib/fstests.sh).  Our
# series changes rename(2) and lookups; these tests check what it must
# leave as it was (renameat2's flags, whiteouts, rename to full or
# crashed filesystems, directories of many entries, concurrent directory
# changes).  Each test passes, or is "not run" with fstests' reason; the
# patched kernel's results are those of the stock one.  About seven
# minutes a kernel under TCG: make check-fstests runs it, not make
# check-full (see game-layout-tests/README.md).

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/fstests.sh"
	fstests_check "$2" "${@:3}"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/fstests.sh"
fstests_host -g generic/rename,generic/whiteout,generic/dir -e generic/453
