# SPDX-License-Identifier: GPL-2.0
# TAP helpers shared by every test, on the host and in the guest (sourced).
#
#   ok COND-EXIT-STATUS DESCRIPTION     e.g.  ok $? "lookup FOO finds foo"
#                                       returns the status, so that
#                                       "ok $? ... || diag ..." explains
#                                       a failure
#   is GOT WANT DESCRIPTION             returns 0 or 1 likewise
#   skip REASON DESCRIPTION             one check that cannot run here
#   skip_all REASON                     the whole test needs what is missing
#   done_testing                        prints the plan; exit status 1 if any
#                                       test failed

tap_count=0
tap_failed=0

ok() {
	local status=$1
	shift
	tap_count=$((tap_count + 1))
	if [ "$status" -eq 0 ]; then
		echo "ok $tap_count - $*"
	else
		echo "not ok $tap_count - $*"
		tap_failed=$((tap_failed + 1))
	fi
	return "$status"
}

is() {
	local got=$1 want=$2
	shift 2
	if [ "$got" = "$want" ]; then
		ok 0 "$@"
	else
		ok 1 "$@"
		diag "got:  '$got'"
		diag "want: '$want'"
		return 1
	fi
}

diag() {
	local line
	printf '%s\n' "$@" | while IFS= read -r line; do
		echo "# $line"
	done
}

skip() {
	tap_count=$((tap_count + 1))
	echo "ok $tap_count - $2 # SKIP $1"
}

skip_all() {
	# A test checks what it needs before its first test line; a skip
	# after one is a defect of the test, and says so by name rather than
	# as prove's "Bad plan".
	if [ "$tap_count" -gt 0 ]; then
		ok 1 "skip_all after $tap_count tests (check requirements first): $*"
		done_testing
		exit 1
	fi
	echo "1..0 # SKIP $*"
	exit 0
}

done_testing() {
	echo "1..$tap_count"
	[ "$tap_failed" -eq 0 ]
}

# Names of test files, for messages.
test_name() {
	basename "$0" .t
}

# todo COND-EXIT-STATUS REASON DESCRIPTION: a check of something known not
# to work yet, for REASON.  It is reported ("# TODO", so prove lists an
# unexpected pass) and never fails the test.
todo() {
	local status=$1 reason=$2
	shift 2
	tap_count=$((tap_count + 1))
	if [ "$status" -eq 0 ]; then
		echo "ok $tap_count - $* # TODO $reason"
	else
		echo "not ok $tap_count - $* # TODO $reason"
	fi
	return 0
}
