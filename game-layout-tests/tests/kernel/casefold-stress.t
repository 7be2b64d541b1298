#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# Concurrent create, unlink, rename and lookups of case variants in one +F
# directory (progs/ci-stress.c): after each of its own operations, a
# worker finds a name it created under every case it tries and misses a
# name it removed under every case, while the other workers look the same
# names up in random case.  No check may fail and the kernel may not warn.
# 10 seconds in make check; 5 minutes under make check-full (and on the
# debug kernel there, with lockdep, KASAN and DEBUG_LIST).

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	cf_mount
	"$(prog ci-stress)" -w 4 -n 24 -s "$2" -S 7 $ci >/tmp/out 2>/tmp/err
	st=$?
	is $st 0 "ci-stress: 4 workers for $2 s, every check passed"
	diag "$(cat /tmp/out)"
	[ $st -eq 0 ] || diag "$(head -n 20 /tmp/err)"
	is "$(ls -A $ci | wc -l)" 0 "every worker removed its names"
	cf_done
fi

. "$(dirname "$0")/../../lib/host.sh"
require_prog ci-stress
seconds=10
[ -n "${GAMEPART_FULL:-}" ] && seconds=300
require_kernel $(test_kernels)
make_scratch
for k in $(test_kernels); do
	make_hashed_casefold_image "$scratch/$k.img" 64M || exit 1
	guest_run "$k" --cpus 2 --timeout $((seconds * 3 + 300)) \
		--disk "$scratch/$k.img" -- $seconds
done
done_testing
