#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# A miss cached in a +F directory answers every later lookup that only
# looks, under any spelling, without reading the directory again: the
# path walks without intent flags (faccessat with AT_SYMLINK_NOFOLLOW,
# lchown, lgetxattr, name_to_handle_at, open with O_PATH|O_NOFOLLOW) and
# the VFS's unlink, rmdir and rename lookups, a RENAME_EXCHANGE target
# included.  A lookup that creates (open with O_CREAT, mkdir) still gets
# a fresh lookup, so that the new entry carries the caller's spelling.
#
# Whether a lookup went to the directory is seen in the disk's read count
# (/sys/block/vda/stat) after the block device's cache is dropped
# (blockdev --flushbufs; the filesystem has no journal, which would hold
# on to recently written blocks): the stock kernel, which caches no miss,
# reads for every probe, which shows that the count sees a lookup.  Part 1 of the series refused the miss to the
# lookups without intent flags and read the directory for each of them.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	kernel=$2
	cf_mount
	# Large enough for a hash tree: a lookup reads at least two blocks.
	"$(prog lookup-bench)" populate $ci 3000 >/dev/null
	ok $? "3,000 names in $ci"
	touch $ci/Present.dat $cs/x

	reads() { awk '{ print $1 }' /sys/block/vda/stat; }

	# probe KIND EXPECT PYTHON: miss Probe-KIND.dat with stat (cached
	# on the patched kernel), drop the disk's cache, run PYTHON with $p set
	# to the name in another case, and compare the disk's reads with
	# EXPECT: "kept" (none) or "looked up" (some).
	probe() {
		local kind=$1 expect=$2 code=$3 before after got
		missing "$ci/Probe-$kind.dat"
		sync && blockdev --flushbufs /dev/vda
		before=$(reads)
		P="$ci/PROBE-${kind^^}.DAT" CI=$ci python3 -c "
import ctypes, errno, os, sys
p = os.environ['P']; ci = os.environ['CI']
try:
$code
except FileNotFoundError:
    sys.exit(0)
except OSError as e:
    sys.exit('unexpected %s' % e)
" || { echo "# $kind: $?"; return 1; }
		after=$(reads)
		if [ "$after" = "$before" ]; then got=kept; else got="looked up"; fi
		diag "$kind: $((after - before)) reads"
		[ "$got" = "$expect" ]
	}

	if [ "$kernel" = stock ]; then
		probe stat "looked up" "    os.stat(p)"
		ok $? "stock: a miss is looked up again (misses are not cached)"
		probe faccessat "looked up" "    os.access(p, os.F_OK, follow_symlinks=False) or sys.exit(0)"
		ok $? "stock: faccessat(AT_SYMLINK_NOFOLLOW) looks the name up again"
		cf_done
	fi

	kept=kept
	probe stat $kept "    os.stat(p)"
	ok $? "stat of a cached miss, another case: no lookup"
	probe faccessat $kept "    os.access(p, os.F_OK, follow_symlinks=False) or sys.exit(0)"
	ok $? "faccessat(AT_SYMLINK_NOFOLLOW): the cached miss answers"
	probe lchown $kept "    os.chown(p, 0, 0, follow_symlinks=False)"
	ok $? "lchown: the cached miss answers"
	probe lgetxattr $kept "    os.getxattr(p, 'user.x', follow_symlinks=False)"
	ok $? "lgetxattr: the cached miss answers"
	probe opath $kept "    os.open(p, os.O_PATH | os.O_NOFOLLOW)"
	ok $? "open(O_PATH|O_NOFOLLOW): the cached miss answers"
	probe handle $kept "
    class fh(ctypes.Structure):
        _fields_ = [('bytes', ctypes.c_uint), ('type', ctypes.c_int),
                    ('f', ctypes.c_ubyte * 128)]
    libc = ctypes.CDLL(None, use_errno=True)
    h = fh(128); mid = ctypes.c_int()
    if libc.name_to_handle_at(-100, p.encode(), ctypes.byref(h), ctypes.byref(mid), 0):
        raise OSError(ctypes.get_errno(), 'name_to_handle_at')"
	ok $? "name_to_handle_at: the cached miss answers"
	probe unlink $kept "    os.unlink(p)"
	ok $? "unlink: the cached miss answers (ENOENT)"
	probe rmdir $kept "    os.rmdir(p)"
	ok $? "rmdir: the cached miss answers (ENOENT)"
	probe rename-source $kept "    os.rename(p, ci + '/elsewhere')"
	ok $? "rename of a missing source: the cached miss answers"
	probe exchange-target $kept "
    r = os.system('$(prog rename2) --exchange %s/Present.dat %s 2>/dev/null' % (ci, p))
    sys.exit(0 if r else 'the exchange succeeded')"
	ok $? "RENAME_EXCHANGE onto a missing target: ENOENT from the cached miss"
	[ -e $ci/present.dat ] && missing $ci/elsewhere
	ok $? "nothing was moved by the refused renames"

	probe create "looked up" "    os.close(os.open(p, os.O_CREAT | os.O_EXCL | os.O_WRONLY)); sys.exit(0)"
	ok $? "open(O_CREAT) in another case: looked up again, not answered by the miss"
	listed $ci PROBE-CREATE.DAT && ! listed $ci Probe-create.dat
	ok $? "the new file carries the creator's spelling, PROBE-CREATE.DAT"
	probe mkdir "looked up" "    os.mkdir(p); sys.exit(0)"
	ok $? "mkdir in another case: looked up again"
	listed $ci PROBE-MKDIR.DAT
	ok $? "the new directory carries the creator's spelling"
	cf_done
fi

. "$(dirname "$0")/../../lib/host.sh"
require_kernel $(test_kernels)
require_cmd python3 blockdev
require_prog lookup-bench rename2
casefold_guests -O ^has_journal
done_testing
