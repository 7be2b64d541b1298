#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: full fstests
# kernels: each distro
# Upstream's casefold and name tests, on every kernel: fstests (make
# fstests, with fstests-patches) on ext4 in a guest, TEST_DEV and
# SCRATCH_DEV two image disks (lib/fstests.sh).  generic/556 (casefolded
# lookups, renames, links, xattrs, strict mode: our patch expects its
# case-only rename to store the new spelling where the kernel advertises
# /sys/fs/ext4/features/casefold_rename), generic/783 (overlayfs over
# casefold layers), generic/453 and generic/454 (names and xattr names
# that look alike or normalize alike stay apart where nothing is
# casefolded).  Each test passes, or is "not run" with fstests' reason;
# a patched kernel advertises casefold_rename and the stock one does not;
# a patched kernel's results are those of the stock kernel of its source
# and class.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/fstests.sh"
	role=$2
	shift 2
	feature=/sys/fs/ext4/features/casefold_rename
	if [ -f $feature ]; then advertised=yes; else advertised=no; fi
	if [ "$role" = stock ]; then
		is $advertised no "stock: ext4 does not advertise casefold_rename (generic/556 expects upstream's refusal)"
	else
		is $advertised yes "patched: ext4 advertises casefold_rename (generic/556 expects the new spelling)"
	fi
	fstests_check "$role" "$@"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/fstests.sh"
fstests_host -g generic/casefold generic/453 generic/454
