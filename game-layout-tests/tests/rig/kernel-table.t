#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# The lab names its kernels from one table (kernel-patches/kernels), and
# every guest test says on its "# kernels:" line which of a run's kernels
# it boots.  A new kernel version is rows of the table: with two rows of
# a made-up 9.9 added, each test asks for the new kernels as its line
# says, with no test edited.

. "$(dirname "$0")/../../lib/host.sh"
make_scratch

rows=$(kernel_rows)
[ -n "$rows" ]
ok $? "the table has rows"
bad=
while read -r name source series fragments class; do
	case $class in test | debug | distro) ;; *) bad="$bad $name:class" ;; esac
	[[ $source == linux-source-* ]] || bad="$bad $name:source"
	[ "$series" = - ] || [ -r "$top/kernel-patches/$series" ] || bad="$bad $name:series"
	IFS=, read -ra list <<<"$fragments"
	for f in "${list[@]}"; do
		[ -r "$top/kernel-patches/config/$f.config" ] || bad="$bad $name:$f"
	done
done <<<"$rows"
is "$bad" "" "every row names a source package, a series file or none, fragments that exist and a class"
# (make check-full names its kernels in $GAMEPART_KERNELS, which this
# test's own environment may hold.)
is "$(unset GAMEPART_KERNELS; run_kernels | xargs)" "$(kernels_of test | xargs)" \
	"a run boots the kernels of class test, unless told otherwise"
last_test=$(kernels_of test | tail -n 1)
is "$(GAMEPART_KERNELS=$last_test run_kernels | xargs)" "$last_test" \
	"told otherwise by \$GAMEPART_KERNELS, the kernels it names"
"$top/scripts/build-kernel" no-such-kernel "$scratch/k" 2>"$scratch/err"
[ $? -ne 0 ] && grep -q "'no-such-kernel' is not a kernel of kernel-patches/kernels" "$scratch/err"
ok $? "build-kernel refuses a name the table does not have"

unknown=
missing=
for f in $(grep -l -E '^# groups:.*\<(guest|full|fstests)\>' "$top"/game-layout-tests/tests/*/*.t); do
	grep -q -E 'guest_run|casefold_guests|gamepart_on_|nls_ab|fstests_host|"\$vmrun"' "$f" || continue
	line=$(sed -n 's/^# kernels:[[:space:]]*//p' "$f")
	[ -n "$line" ] || missing="$missing ${f##*/}"
	for word in $line; do
		case $word in each | patched | one | distro | own) ;; *) unknown="$unknown ${f##*/}:$word" ;; esac
	done
done
is "$missing" "" "every test that boots a guest has a kernels line"
is "$unknown" "" "and it names only each, patched, one, distro or own"

# A second version, as a later series would add it.
{
	cat "$kernel_table_file"
	echo "9.9-stock    linux-source-9.9  -       guest         test"
	echo "9.9-patched  linux-source-9.9  series  guest,series  test"
} >"$scratch/kernels"
export GAMEPART_KERNEL_TABLE=$scratch/kernels
unset GAMEPART_KERNELS
tests=$top/game-layout-tests/tests
is "$(kernels_for_test "$tests/kernel/casefold-lookups.t" | xargs)" \
	"$(kernels_of test | grep -v '^9\.9' | xargs) 9.9-stock 9.9-patched" \
	"a test of each kernel boots the new version's two as well"
is "$(kernels_for_test "$tests/nls/nls-kunit.t" | grep -c .)" \
	"$(kernels_of test | while read -r k; do [ "$(kernel_role "$k")" = patched ] && echo "$k"; done | grep -c .)" \
	"a test of each patched kernel boots every patched one"
kernels_for_test "$tests/nls/nls-kunit.t" | grep -qx 9.9-patched
ok $? "among them the new patched one"
is "$(kernels_for_test "$tests/tool/gamepart-convert.t" | xargs)" "$(default_kernel)" \
	"a test of one kernel still boots one"
is "$(kernel_role 9.9-stock) $(kernel_role 9.9-patched)" "stock patched" \
	"the new rows' roles come from their series"
GAMEPART_KERNELS="9.9-stock 9.9-patched $(kernels_of test | grep -v '^9\.9' | xargs)"
export GAMEPART_KERNELS
ab_pairs $GAMEPART_KERNELS | grep -qx "9.9-stock 9.9-patched"
ok $? "the A/B tests pair the new version's stock and patched kernels"
[ "$(ab_pairs $GAMEPART_KERNELS | grep -c .)" = 2 ]
ok $? "and each version's own, not across versions"
out=$(make -s -C "$top" list-tests KERNELS="$GAMEPART_KERNELS" 2>&1)
echo "$out" | grep -qE '^  kernel/casefold-lookups\.t +each +.*9\.9-stock 9\.9-patched'
ok $? "make list-tests KERNELS=... shows what each test would boot" ||
	diag "$(echo "$out" | grep casefold-lookups)"
done_testing
