#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# The patched kernel reports a +F directory through FS_IOC_FSGETXATTR
# with upstream's read-only FS_XFLAG_CASEFOLD (0x00040000), so that file
# servers and Wine can ask any filesystem one way; a plain directory and
# a file do not have it, and FS_XFLAG_CASENONPRESERVING (0x00080000) is
# never set (ext4 keeps the spelling it is given).  FS_IOC_FSSETXATTR
# accepts the flags read back unchanged and ignores the bit: it neither
# clears +F nor sets it.  chattr (FS_IOC_SETFLAGS) on a +F directory
# still works.  The stock kernel reports no case bit.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	kernel=$2
	cf_mount
	touch $ci/file
	xflags() {
		python3 - "$@" <<'PY'
import fcntl, os, struct, sys
GET, SET = 0x801c581f, 0x401c5820        # FS_IOC_FSGETXATTR, FS_IOC_FSSETXATTR
fd = os.open(sys.argv[1], os.O_RDONLY)
buf = fcntl.ioctl(fd, GET, bytes(28))
x = struct.unpack('5I8x', buf)
if len(sys.argv) > 2:                      # write xflags | OR back
    fcntl.ioctl(fd, SET, struct.pack('5I8x', x[0] | int(sys.argv[2], 0), *x[1:]))
    buf = fcntl.ioctl(fd, GET, bytes(28))
    x = struct.unpack('5I8x', buf)
print('0x%08x' % x[0])
PY
	}
	has() { [ $(($1 & $2)) -ne 0 ]; }
	cf=$(xflags $ci) && plain=$(xflags $cs) && file=$(xflags $ci/file)
	ok $? "FS_IOC_FSGETXATTR on a +F directory, a plain one and a file"
	diag "xflags: +F $cf, plain $plain, file $file"
	if [ "$kernel" = stock ]; then
		! has $cf 0xc0000
		ok $? "stock: no case bit on the +F directory"
		cf_done
	fi
	has $cf 0x40000
	ok $? "the +F directory reports FS_XFLAG_CASEFOLD"
	! has $plain 0x40000 && ! has $file 0x40000
	ok $? "the plain directory and the file do not"
	! has $cf 0x80000 && ! has $plain 0x80000
	ok $? "FS_XFLAG_CASENONPRESERVING is never set: ext4 keeps the spelling"
	is "$(xflags $ci 0)" "$cf" "FS_IOC_FSSETXATTR accepts the flags read back unchanged"
	lsattr -d $ci | grep -q '^[^ ]*F'
	ok $? "and the directory is still +F"
	mkdir $mnt/empty
	after=$(xflags $mnt/empty 0x40000)
	! has $after 0x40000 && ! lsattr -d $mnt/empty | grep -q '^[^ ]*F'
	ok $? "setting FS_XFLAG_CASEFOLD through FS_IOC_FSSETXATTR is ignored"
	chattr +A $ci && attrs=$(lsattr -d $ci | cut -d' ' -f1) &&
		[[ $attrs == *A* && $attrs == *F* ]]
	ok $? "chattr +A on the +F directory works and keeps +F"
	chattr -A $ci
	cf_done
fi

. "$(dirname "$0")/../../lib/host.sh"
require_cmd python3
casefold_guests
done_testing
