#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
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

"$repo/scripts/build-kernel" patched "$repo/build/kernel" >/dev/null &&
	"$repo/scripts/build-kernel" stock "$repo/build/kernel-stock" >/dev/null
ok $? "both kernels build from the copy"
before_patched=$(sha "$repo/build/kernel/bzImage")
before_stock=$(sha "$repo/build/kernel-stock/bzImage")

# A patch that changes what the kernel prints at boot.
src=$scratch/src
mkdir -p "$src/a/fs/unicode" "$src/b/fs/unicode"
tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$src" --wildcards '*/fs/unicode/utf8-selftest.c'
cp "$src"/linux-source-6.1/fs/unicode/utf8-selftest.c "$src/a/fs/unicode/"
sed 's/"All %u tests passed\\n"/"All %u tests passed (series test)\\n"/' \
	"$src/a/fs/unicode/utf8-selftest.c" >"$src/b/fs/unicode/utf8-selftest.c"
{
	printf 'From: gamepart <gamepart@invalid>\nSubject: [PATCH] unicode: mark the selftest line\n\n---\n'
	(cd "$src" && diff -u a/fs/unicode/utf8-selftest.c b/fs/unicode/utf8-selftest.c)
} >"$repo/kernel-patches/9999-series-test.patch"
echo 9999-series-test.patch >>"$repo/kernel-patches/series"

"$repo/scripts/build-kernel" patched "$repo/build/kernel" >/dev/null &&
	"$repo/scripts/build-kernel" stock "$repo/build/kernel-stock" >/dev/null
ok $? "both kernels build again with the patch in the series"
[ "$(sha "$repo/build/kernel/bzImage")" != "$before_patched" ]
ok $? "build/kernel/bzImage changed"
is "$(sha "$repo/build/kernel-stock/bzImage")" "$before_stock" "build/kernel-stock/bzImage did not"

out=$("$vmrun" --kernel "$repo/build/kernel/bzImage" -- dmesg)
echo "$out" | grep -q 'tests passed (series test)'
ok $? "the patched kernel runs the patched code"
out=$("$vmrun" --kernel "$repo/build/kernel-stock/bzImage" -- dmesg)
! echo "$out" | grep -q 'series test'
ok $? "the stock kernel does not"
done_testing
