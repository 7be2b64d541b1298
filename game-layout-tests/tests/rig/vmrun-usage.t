#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# vmrun refuses bad invocations with a clear message before booting.

. "$(dirname "$0")/../../lib/host.sh"
make_scratch

"$vmrun" >/dev/null 2>"$scratch/err"
[ $? -eq 2 ] && grep -q 'no command given' "$scratch/err"
ok $? "no command: usage error, status 2"

"$vmrun" --kernel "$scratch/nothing" -- true 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "$scratch/nothing: no such kernel" "$scratch/err"
ok $? "a missing kernel is named"

"$vmrun" --disk "$scratch/nothing.img" -- true 2>"$scratch/err"
[ $? -eq 2 ] && grep -q "nothing.img: no such disk image" "$scratch/err"
ok $? "a missing disk image is named"
done_testing
