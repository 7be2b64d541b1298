#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: full
# A kernel patch that does not apply exactly stops the build with a
# message naming it, instead of being applied with fuzz or skipped; and a
# series naming a missing file is refused.

. "$(dirname "$0")/../../lib/host.sh"
require_linux_source
make_scratch
repo=$scratch/repo
copy_project "$repo"

cat >"$repo/kernel-patches/0001-stale.patch" <<'PATCH'
From: gamepart <gamepart@invalid>
Subject: [PATCH] ext4: a change against lines that are not there

---
 fs/ext4/namei.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

--- a/fs/ext4/namei.c
+++ b/fs/ext4/namei.c
@@ -1,3 +1,3 @@
-// this line is not in namei.c
+// neither is this one
 // nor this
 // nor this
PATCH
echo 0001-stale.patch >"$repo/kernel-patches/series"
out=$(GAMEPART_CACHE=$scratch/cache "$repo/scripts/build-kernel" "$(default_kernel)" "$scratch/out" 2>&1)
status=$?
[ $status -ne 0 ]
ok $? "a patch that does not apply fails the build (status $status)"
echo "$out" | grep -q '0001-stale.patch does not apply to linux-source-6.1'
ok $? "the message names the patch and the source version"
! [ -e "$scratch/out/bzImage" ]
ok $? "no kernel is produced"

echo 0002-missing.patch >"$repo/kernel-patches/series"
out=$(GAMEPART_CACHE=$scratch/cache "$repo/scripts/build-kernel" "$(default_kernel)" "$scratch/out" 2>&1)
[ $? -ne 0 ] && echo "$out" | grep -q "names '0002-missing.patch', which does not exist"
ok $? "a series naming a missing patch is refused"
done_testing
