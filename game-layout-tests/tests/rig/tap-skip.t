#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# A test that lacks what it needs skips whole, with an empty plan that
# prove accepts; a skip after a test line is the test's own defect and
# fails by name.  The A/B tests, which need a stock and a patched kernel
# of one source, skip cleanly on a run of one kernel (the debug pass of
# check-full): before they checked, they printed a test line first and
# prove reported "Bad plan".

. "$(dirname "$0")/../../lib/host.sh"
make_scratch

bash -c '. "$1"; skip_all "no widget"' _ "$tests_lib/tap.sh" >"$scratch/out"
is "$?:$(cat "$scratch/out")" "0:1..0 # SKIP no widget" \
	"skip_all before any test: an empty plan with the reason, exit 0"

bash -c '. "$1"; ok 0 first; skip_all "no widget"' _ "$tests_lib/tap.sh" >"$scratch/out"
status=$?
[ $status -ne 0 ] && grep -q '^not ok 2 - skip_all after 1 tests' "$scratch/out" &&
	[ "$(tail -n 1 "$scratch/out")" = 1..2 ]
ok $? "skip_all after a test line: a named failure and a plan that matches (exit $status)" ||
	diag "$(cat "$scratch/out")"

one=$(kernels_of test | head -n 1)
for t in "$tests_lib"/../tests/nls/nls-ab-*.t; do
	GAMEPART_KERNELS=$one bash "$t" >"$scratch/out" 2>&1
	status=$?
	[ $status -eq 0 ] && [ "$(head -c 9 "$scratch/out")" = "1..0 # SK" ] &&
		[ "$(grep -c . "$scratch/out")" = 1 ]
	ok $? "$(basename "$t" .t) with one kernel ($one): skips before any test line" ||
		diag "exit $status" "$(head -n 5 "$scratch/out")"
done
done_testing
