#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# partition-tool keeps its layers (see partition-tool/README.md): the
# includes between its own files form no cycle, lib/ includes only lib/,
# convert/ and import/ only lib/ and themselves; no .c file is over 600 lines and no
# command file over 400; constants that system headers define are not
# typed again.

. "$(dirname "$0")/../../lib/host.sh"
src=$top/partition-tool
make_scratch

# Each "#include "x.h"" of the tool's own files, as "FILE HEADER" with
# both relative to partition-tool/ (a header is looked up beside its
# includer first, then from partition-tool/, as cc -I. does).
(cd "$src" && for f in *.[ch] lib/*.[ch] convert/*.[ch] import/*.[ch]; do
	sed -n 's/^#include "\(.*\)"/\1/p' "$f" | while read -r h; do
		if [ -e "$(dirname "$f")/$h" ]; then
			h=$(realpath --relative-to=. "$(dirname "$f")/$h")
		fi
		echo "$f $h"
	done
done) >"$scratch/includes"
[ -s "$scratch/includes" ]
ok $? "the includes were read" || skip_all "no includes found in $src"

tsort "$scratch/includes" >/dev/null 2>"$scratch/tsort"
is "$(cat "$scratch/tsort")" "" "no include cycle"

is "$(awk '$1 ~ /^lib\// && $2 !~ /^lib\//' "$scratch/includes")" "" \
	"lib/ includes nothing above it"
is "$(awk '$1 ~ /^convert\// && $2 !~ /^(lib|convert)\//' "$scratch/includes")" "" \
	"convert/ includes only lib/ and itself"
is "$(awk '$1 ~ /^import\// && $2 !~ /^(lib|import)\//' "$scratch/includes")" "" \
	"import/ includes only lib/ and itself"

is "$(cd "$src" && wc -l *.c lib/*.c convert/*.c import/*.c | awk '$2 != "total" && $1 > 600')" "" \
	"no .c file over 600 lines"
is "$(cd "$src" && wc -l cmd-*.c | awk '$2 != "total" && $1 > 400')" "" \
	"no command file over 400 lines"

# EXT4_CASEFOLD_FL, EXT4_SUPER_MAGIC, EXT2_NAME_LEN and the undo I/O
# manager's test switch, by value or by name.
is "$(grep -rnE '0x40000000|0x[eE][fF]53|define[[:space:]]+[A-Z_]+[[:space:]]+255\b|UNDO_IO_SIMULATE' \
	"$src" --include='*.[ch]')" "" "no constant of a system header typed again"

done_testing
