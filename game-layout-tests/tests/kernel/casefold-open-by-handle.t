#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: patched
# A +F directory opened by file handle (open_by_handle_at, as an NFS server
# reaches it) after its dentry left the dcache gets its dentry from
# d_obtain_alias(), not from a lookup.  Names created, looked up and
# removed through it and through its path must behave as in any +F
# directory: found under every case once created, missed under every case
# once removed, listed as created (see progs/ci-handle.c).
#
# Patched kernels only: stock 6.1 gives such a dentry no case-insensitive
# operations, so each spelling gets its own dentry, and after unlink of
# config.ini it still finds CONFIG.INI (kernel-patches/0003 fixes it).

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	cf_mount
	"$(prog ci-handle)" $ci >/tmp/out 2>/tmp/err
	st=$?
	while read -r verdict what; do
		[ "$verdict" = ok: ]
		ok $? "$what"
	done </tmp/out
	is $st 0 "ci-handle exits 0"
	[ $st -eq 0 ] || diag "$(cat /tmp/err)"
	cf_done
fi

. "$(dirname "$0")/../../lib/host.sh"
require_prog ci-handle
casefold_guests
done_testing
