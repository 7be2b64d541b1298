#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: one
# vmctl cut-power kills the machine at once, as a power cut: the command
# goes no further, nothing is shut down, and the next boot sees what had
# reached the disk before the cut.

. "$(dirname "$0")/../../lib/host.sh"
require_kernel "$(the_kernel)"
make_scratch
truncate -s 16M "$scratch/disk.img"
mkfs.ext4 -q -F "$scratch/disk.img"

"$vmrun" --kernel "$(kernel_image "$(the_kernel)")" \
	--disk "$scratch/disk.img" -- sh -c '
	mkdir /tmp/m && mount /dev/vda /tmp/m &&
	echo synced >/tmp/m/f && sync &&
	echo before-cut && vmctl cut-power; echo after-cut' \
	>"$scratch/out" 2>"$scratch/err"
ok $? "a run that cuts its own power ends without error"
grep -qx before-cut "$scratch/out" && ! grep -q after-cut "$scratch/out"
ok $? "the command stops at the cut"
grep -q 'power cut' "$scratch/err"
ok $? "vmrun says the power was cut"

out=$("$vmrun" --kernel "$(kernel_image "$(the_kernel)")" --disk "$scratch/disk.img" -- \
	sh -c 'mkdir /tmp/m && mount /dev/vda /tmp/m && cat /tmp/m/f')
is "$out" synced "after the cut, the next boot finds the synced file"
done_testing
