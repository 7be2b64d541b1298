#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# partition-tool keeps its layers (see partition-tool/README.md): the
# includes between its own files form no cycle, lib/ includes only lib/,
# convert/ and import/ only lib/ and themselves; nor do the calls between
# its objects (nm: which object defines each symbol another uses), which
# includes cannot show; no .c file is over 600 lines and no command file
# over 400; no function over 80 lines, option switches (cmd_*) aside,
# and those listed below no longer than they are; no two functions or
# structures of one name but those listed; constants that system headers
# define are not typed again.

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

# The calls between objects, from the build make tool left (make check
# builds it first): "USER DEFINER" for each symbol one object defines
# and another uses.
objs=$top/build/bin/obj
if ls "$objs"/*.o "$objs"/*/*.o >/dev/null 2>&1; then
	(cd "$objs" && for o in *.o */*.o; do
		nm --defined-only -g "$o" | awk -v f="$o" '{ print $3, f }'
	done | sort >"$scratch/defined"
	for o in *.o */*.o; do
		nm -u "$o" | awk -v f="$o" '{ print $2, f }'
	done | sort >"$scratch/used")
	join "$scratch/used" "$scratch/defined" | awk '$2 != $3 { print $2, $3 }' |
		sort -u >"$scratch/calls"
	tsort "$scratch/calls" >/dev/null 2>"$scratch/tsort"
	is "$(cat "$scratch/tsort")" "" "no call cycle between objects"
	# The check sees one: a call from change.o back to plan.o, which
	# calls it.
	{ cat "$scratch/calls"; echo "convert/change.o convert/plan.o"; } |
		tsort >/dev/null 2>&1
	[ $? -ne 0 ]
	ok $? "a planted call cycle is seen"
	is "$(awk '$1 ~ /^lib\// && $2 !~ /^lib\//' "$scratch/calls")" "" \
		"lib/ calls nothing above it"
	is "$(awk '$1 ~ /^(convert|import)\// && $2 !~ /^lib\// &&
		substr($1, 1, index($1, "/")) != substr($2, 1, index($2, "/"))' "$scratch/calls")" "" \
		"an engine calls only lib/ and itself"
else
	for what in "no call cycle between objects" "a planted call cycle is seen" \
		"lib/ calls nothing above it" "an engine calls only lib/ and itself"; do
		skip "no objects in $objs (make tool)" "$what"
	done
fi

# long_functions DIR: "FILE NAME LINES" for each function of the C files
# of DIR over 80 lines, from its "{" to its "}" at the start of a line,
# option switches (cmd_*) aside; those listed below may not grow until
# they are split (issue 40).
cat >"$scratch/long" <<-'EOF'
	todo_advise 90
	keep_dir 97
	replace_dir 130
	read_source 88
	import_run 97
	EOF
long_functions() {
	(cd "$1" && awk '
		NR == FNR { ceiling[$1] = $2; next }
		/^[A-Za-z].*\(/ { sig = $0 }
		/^\{/ { start = FNR; name = sig; sub(/\(.*/, "", name)
			n = split(name, w, /[ *]+/); name = w[n] }
		/^\}/ && start {
			lines = FNR - start + 1
			if (name !~ /^cmd_/ && lines > ((name in ceiling) ? ceiling[name] : 80))
				print FILENAME, name, lines
			start = 0
		}' "$scratch/long" $(find . -name '*.c' | sort))
}
is "$(long_functions "$src")" "" \
	"no function over 80 lines (option switches aside; the listed ones no longer)"

# twin_names DIR: the names of two functions or structures, which make
# every grep two answers.  usage() and visit() are each file's own by
# convention; those listed are twins issue 40 merges.
twin_names() {
	(cd "$1" && ctags -x --c-kinds=fs $(find . -name '*.[ch]' | sort)) |
		awk '{ print $1 }' | sort | uniq -d |
		grep -vxE 'usage|visit|class_slot|import_plan|jstring|keep_record|parent_of|plan_dir|plan_stops|planner|refuse_held|result|result_json|same_mount|single'
}
is "$(twin_names "$src")" "" "no new name defined twice"

# Both checks see what is planted in a copy: a function of 100 lines,
# and a second landing_order().
mkdir "$scratch/planted"
cp -r "$src/lib" "$scratch/planted/"
{
	echo 'static int planted_long(void)'
	echo '{'
	for i in $(seq 98); do echo "	(void)$i;"; done
	echo '}'
	echo 'static int landing_order(void) { return 0; }'
} >>"$scratch/planted/lib/util.c"
is "$(long_functions "$scratch/planted")" "./lib/util.c planted_long 100" \
	"a planted function of 100 lines is seen"
is "$(twin_names "$scratch/planted")" "landing_order" "a planted second name is seen"

# EXT4_CASEFOLD_FL, EXT4_SUPER_MAGIC, EXT2_NAME_LEN and the undo I/O
# manager's test switch, by value or by name.
is "$(grep -rnE '0x40000000|0x[eE][fF]53|define[[:space:]]+[A-Z_]+[[:space:]]+255\b|UNDO_IO_SIMULATE' \
	"$src" --include='*.[ch]')" "" "no constant of a system header typed again"

done_testing
