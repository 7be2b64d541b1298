#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest slow
# kernels: one
# vmrun gives back the guest command's exit status and its output, stdout
# and stderr apart, and boots again on the same disk image; a reader that
# stops reading early ("vmrun ... | head") does not hold the guest up.

. "$(dirname "$0")/../../lib/host.sh"
require_kernel "$(the_kernel)"
make_scratch
vm() { "$vmrun" --kernel "$(kernel_image "$(the_kernel)")" "$@"; }

vm -- true
ok $? "vmrun -- true exits 0"

vm -- false
status=$?
[ $status -ne 0 ]
ok $? "vmrun -- false exits non-zero (got $status)"

vm -- sh -c 'exit 7'
is $? 7 "the command's own status comes back"

# One boot for the output, the environment and the directory.
(
	echo first
	cd /usr/share && vm --env 'GREETING=a b' -- \
		sh -c 'echo to-out; echo to-err >&2; echo "$GREETING"; pwd'
	echo third
) >"$scratch/out" 2>"$scratch/err"
is "$(tr '\n' ' ' <"$scratch/out")" "first to-out a b /usr/share third " \
	"stdout comes back on stdout, in order with the caller's own output"
grep -qx to-err "$scratch/err"
ok $? "stderr comes back on stderr"
! grep -q to-out "$scratch/err"
ok $? "and apart from stdout"
is "$(sed -n 3p "$scratch/out")" "a b" "--env sets the command's environment"
is "$(sed -n 4p "$scratch/out")" /usr/share "the command starts in the caller's directory"

# A guest of its own (--fresh): it is vmrun that relays the port.  Before
# the fix, the relay died on EPIPE, the port filled up, and the job ran
# until --timeout killed it (124).
vm --fresh --timeout 120 -- sh -c 'yes | head -c 20000000' | head -c 10 >/dev/null
is "${PIPESTATUS[0]}" 0 "vmrun | head: the job still ends, with its own status"

truncate -s 16M "$scratch/disk.img"
mkfs.ext4 -q -F "$scratch/disk.img"
vm --disk "$scratch/disk.img" -- sh -c \
	'mkdir /tmp/m && mount /dev/vda /tmp/m && echo kept >/tmp/m/f && umount /tmp/m'
ok $? "first boot writes to the disk image"
is "$(vm --disk "$scratch/disk.img" -- sh -c \
	'mkdir /tmp/m && mount /dev/vda /tmp/m && cat /tmp/m/f')" kept \
	"a second boot on the same image reads it back"
done_testing
