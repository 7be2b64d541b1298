#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# e2fsprogs' tables are the kernel series' own: lib/ext2fs/utf8data.h
# of e2fsprogs 1.47.0 with e2fsprogs-patches applied is, byte for byte,
# what scripts/e2fsprogs-utf8data writes from the tables the series'
# mkutf8data makes (make unicode-tables), so that e2fsck folds names
# in each encoding as the kernel does.  A change to a profile that
# leaves e2fsprogs' copy behind fails here.

. "$(dirname "$0")/../../lib/host.sh"
require_cmd python3 filterdiff
tables=$top/build/unicode
[ -r "$tables/utf8data-windows.c" ] || skip_all "$tables: missing (run: make unicode-tables)"
orig=$(ls "$(gamepart_cache_dir)"/e2fsprogs-source/*/e2fsprogs_*.orig.tar.gz 2>/dev/null | head -n 1)
[ -r "$orig" ] || skip_all "e2fsprogs' source is not in the cache (run: make e2fsprogs)"
make_scratch

mkdir "$scratch/src"
tar -xzf "$orig" -C "$scratch/src" --strip-components=1 --wildcards '*/lib/ext2fs/utf8data.h'
ok $? "utf8data.h of $(basename "$orig")"
while IFS= read -r p; do
	filterdiff -p1 -i lib/ext2fs/utf8data.h "$top/e2fsprogs-patches/$p"
done < <(series_patches "$top/e2fsprogs-patches/series") >"$scratch/utf8data.patch"
[ -s "$scratch/utf8data.patch" ] &&
	patch -d "$scratch/src" -p1 --batch --fuzz=0 --quiet -i "$scratch/utf8data.patch"
ok $? "the series' changes to it apply"
python3 "$top/scripts/e2fsprogs-utf8data" "$tables" >"$scratch/utf8data.h"
ok $? "scripts/e2fsprogs-utf8data wrote it from the series' tables"
cmp -s "$scratch/utf8data.h" "$scratch/src/lib/ext2fs/utf8data.h"
ok $? "the series' utf8data.h is that, byte for byte" ||
	diag "$(diff "$scratch/src/lib/ext2fs/utf8data.h" "$scratch/utf8data.h" | head -n 5)"
done_testing
