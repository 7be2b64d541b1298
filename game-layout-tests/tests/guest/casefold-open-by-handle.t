#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A +F directory opened by file handle (open_by_handle_at, as an NFS server
# reaches it) after its dentry left the dcache gets a dentry from
# d_obtain_alias(), without the case-insensitive dentry operations.  A
# miss looked up through it, then created under another case, must be
# found, through the handle and through the path, and a removed name must
# miss under every case (see helpers/ci-handle.c).

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	cf_mount
	"$(helper ci-handle)" $ci >/tmp/out 2>/tmp/err
	st=$?
	while read -r verdict what; do
		[ "$verdict" = ok: ]
		ok $? "$what"
	done </tmp/out
	is $st 0 "ci-handle exits 0"
	[ $st -eq 0 ] || diag "$(cat /tmp/err)"
	umount $mnt
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
[ -x "$build/helpers/ci-handle" ] || skip_all "no helpers: run make helpers"
casefold_guests
done_testing
