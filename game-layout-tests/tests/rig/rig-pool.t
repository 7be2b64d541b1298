#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: one
# Under vmpool, vmrun runs jobs in a guest that stays up, and each job
# still has the guest to itself: its own disks as vda, vdb, ..., a /tmp
# no earlier job wrote to, none of an earlier job's processes or kernel
# messages; a job whose kernel complains fails alone and its guest is
# not used again; a job that asks for a fresh boot gets one.

. "$(dirname "$0")/../../lib/host.sh"
require_kernel "$(the_kernel)"
if [ "${1-}" != --in-own-pool ]; then
	# Run this file again in a pool of its own, of one guest at most,
	# so that every job below meets the one before (and not a guest of
	# the pool make check runs the tests in).
	exec "$top/game-layout-tests/rig/vmpool" --guests 1 -- bash "$0" --in-own-pool
fi
make_scratch

vm() { "$vmrun" --kernel "$(kernel_image "$(the_kernel)")" "$@"; }
boot_id() { vm "$@" -- cat /proc/sys/kernel/random/boot_id; }

first=$(boot_id)
[ -n "$first" ]
ok $? "a job runs in the pool's guest"
is "$(boot_id)" "$first" "the next job of the same kernel runs in the same guest"

vm -- sh -c 'echo left >/tmp/left-behind; : >/run/left-behind; : >/dev/shm/left-behind
	hostname elsewhere; sleep 1000 & echo x >/dev/kmsg'
is "$(vm -- sh -c 'ls /tmp/left-behind /run/left-behind /dev/shm/left-behind 2>/dev/null | wc -l
	hostname; pgrep -x sleep | wc -l; dmesg | grep -c "\] x$"')" "$(printf '0\ngamepart-guest\n0\n0')" \
	"an earlier job's files in /tmp, /run and /dev/shm, its host name, processes and kernel messages are gone"

truncate -s 16M "$scratch/a.img" "$scratch/b.img"
mkfs.ext4 -q -F -L disk-a "$scratch/a.img"
mkfs.ext4 -q -F -L disk-b "$scratch/b.img"
labels() { vm "$@" -- sh -c 'for d in /dev/vd?; do echo "$d $(blkid -o value -s LABEL $d)"; done'; }
is "$(labels --disk "$scratch/a.img" --disk "$scratch/b.img" | tr '\n' ' ')" \
	"/dev/vda disk-a /dev/vdb disk-b " "a job's disks are vda and vdb, in the order given"
is "$(labels --disk "$scratch/b.img" | tr '\n' ' ')" "/dev/vda disk-b " \
	"the next job sees only its own disk, as vda"
vm --disk "$scratch/a.img" -- sh -c \
	'mkdir /tmp/m && mount /dev/vda /tmp/m && echo kept >/tmp/m/f && umount /tmp/m'
is "$(vm --disk "$scratch/a.img" -- sh -c 'mkdir /tmp/m && mount /dev/vda /tmp/m && cat /tmp/m/f')" \
	kept "what a job wrote to a disk, the next job reads"
vm --disk "$scratch/a.img" -- sh -c 'mkdir /tmp/m && mount /dev/vda /tmp/m'
ok $? "a job may leave its disk mounted"
is "$(labels --disk "$scratch/a.img" | tr '\n' ' ')" "/dev/vda disk-a " \
	"and the next job gets the disk all the same"
e2fsck -fn "$scratch/a.img" >/dev/null 2>&1
ok $? "and the filesystem it left mounted is clean"
is "$(boot_id)" "$first" "jobs with disks leave the guest to the next job"

is "$(vm -- sh -c 'exit 7'; echo $?)" 7 "a job's exit status comes back"
out=$(vm -- sh -c 'echo to-out; echo to-err >&2' 2>"$scratch/err")
is "$out" to-out "its stdout comes back on stdout"
is "$(cat "$scratch/err")" to-err "and its stderr on stderr"

direct=/sys/kernel/debug/provoke-crash/DIRECT
vm -- sh -c "echo WARNING >$direct" 2>"$scratch/err"
is $? 120 "a job whose kernel warns fails with 120"
grep -q 'WARNING:' "$scratch/err"
ok $? "and the warning is shown"
after=$(boot_id)
[ -n "$after" ] && [ "$after" != "$first" ]
ok $? "the guest that warned runs no other job"
is "$(boot_id)" "$after" "a new guest serves the jobs after it"
fresh=$(boot_id --fresh)
[ -n "$fresh" ] && [ "$fresh" != "$after" ]
ok $? "--fresh boots a guest of its own"

vm --timeout 5 -- sleep 60
is $? 124 "a job that outlives --timeout is killed (124)"
[ "$(boot_id)" != "$after" ]
ok $? "and its guest is not used again"
done_testing
