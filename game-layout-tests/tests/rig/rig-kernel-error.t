#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: one
# A kernel warning in the guest fails the run even when the command
# succeeds: a real WARN() raised through LKDTM, not text written to the log.

. "$(dirname "$0")/../../lib/host.sh"
require_kernel "$(the_kernel)"
make_scratch
direct=/sys/kernel/debug/provoke-crash/DIRECT

"$vmrun" --kernel "$(kernel_image "$(the_kernel)")" -- test -w $direct
ok $? "LKDTM is available in the guest kernel"

"$vmrun" --kernel "$(kernel_image "$(the_kernel)")" -- \
	sh -c "echo WARNING >$direct; echo still-running" \
	>"$scratch/out" 2>"$scratch/err"
status=$?
is "$status" 120 "a guest kernel WARNING fails the run (status 120)"
grep -q 'WARNING: CPU' "$scratch/err"
ok $? "the warning is shown on stderr"
grep -qx still-running "$scratch/out"
ok $? "the command itself had succeeded"
done_testing
