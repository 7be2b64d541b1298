#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: full
# kernels: own
# A patch added to kernel-patches/series changes the patched kernel and
# not the stock one: in a copy of the project, build both, add a patch,
# build both again, and compare.  Slow (one kernel build, ccache helps):
# make check-full only.

. "$(dirname "$0")/../../lib/host.sh"
require_linux_source
make_scratch
repo=$scratch/repo
copy_project "$repo"
# Share the real cache, so that the unchanged kernels are found there and
# only the changed one is built (ccache shortens that too).
sha() { sha256sum "$1" | cut -d' ' -f1; }
# The table's first stock and patched kernels (6.1-stock, 6.1-patched).
stock=$(kernels_of test | while read -r k; do [ "$(kernel_role "$k")" = stock ] && echo "$k"; done | head -n 1)
patched=$(default_kernel)

"$repo/scripts/build-kernel" "$patched" "$repo/build/kernel-$patched" >/dev/null &&
	"$repo/scripts/build-kernel" "$stock" "$repo/build/kernel-$stock" >/dev/null
ok $? "both kernels build from the copy"
before_patched=$(sha "$repo/build/kernel-$patched/bzImage")
before_stock=$(sha "$repo/build/kernel-$stock/bzImage")

# A patch that changes what the kernel prints at boot, in a file the
# series leaves alone (a patch made against the stock file would not
# apply on top of one that changes it).
src=$scratch/src
mkdir -p "$src/a/init" "$src/b/init"
tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$src" --wildcards '*/init/calibrate.c'
cp "$src"/linux-source-6.1/init/calibrate.c "$src/a/init/"
sed 's/Calibrating delay loop (skipped)/Calibrating delay loop (skipped, series test)/' \
	"$src/a/init/calibrate.c" >"$src/b/init/calibrate.c"
! cmp -s "$src/a/init/calibrate.c" "$src/b/init/calibrate.c"
ok $? "the probe patch changes init/calibrate.c"
{
	printf 'From: gamepart <gamepart@invalid>\nSubject: [PATCH] init: mark the calibration line\n\n---\n'
	(cd "$src" && diff -u a/init/calibrate.c b/init/calibrate.c)
} >"$repo/kernel-patches/9999-series-test.patch"
echo 9999-series-test.patch >>"$repo/kernel-patches/series"

"$repo/scripts/build-kernel" "$patched" "$repo/build/kernel-$patched" >/dev/null &&
	"$repo/scripts/build-kernel" "$stock" "$repo/build/kernel-$stock" >/dev/null
ok $? "both kernels build again with the patch in the series"
[ "$(sha "$repo/build/kernel-$patched/bzImage")" != "$before_patched" ]
ok $? "build/kernel-$patched/bzImage changed"
is "$(sha "$repo/build/kernel-$stock/bzImage")" "$before_stock" "build/kernel-$stock/bzImage did not"

# What the kernel logged at boot: a guest of its own.
out=$("$vmrun" --kernel "$repo/build/kernel-$patched/bzImage" --fresh -- dmesg)
echo "$out" | grep -q 'skipped, series test'
ok $? "the patched kernel runs the patched code"
out=$("$vmrun" --kernel "$repo/build/kernel-$stock/bzImage" --fresh -- dmesg)
! echo "$out" | grep -q 'series test'
ok $? "the stock kernel does not"
done_testing
