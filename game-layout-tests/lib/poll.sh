# SPDX-License-Identifier: GPL-2.0
# Waiting for something another process does, on the host and in the
# guest (sourced by host.sh and guest.sh): the one polling loop of the
# tests, ten tries a second.
#
#   poll_until SECONDS COMMAND [ARG]...   until COMMAND succeeds; status 1
#                                         if it still fails after SECONDS
#   poll_while SECONDS COMMAND [ARG]...   until COMMAND fails; status 1 if
#                                         it still succeeds after SECONDS
#   process_stopped PID                   whether process PID is stopped
#                                         (gamepart stops itself so under
#                                         GAMEPART_TEST_CRASH_AFTER=N:stop)
#   process_stopped_or_gone PID           or no longer there

poll_until() {
	local tries=$(($1 * 10))
	shift
	until "$@"; do
		tries=$((tries - 1))
		[ $tries -gt 0 ] || return 1
		sleep 0.1
	done
}

process_stopped() {
	[ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = T ]
}

process_stopped_or_gone() {
	process_stopped "$1" || ! kill -0 "$1" 2>/dev/null
}

poll_while() {
	local seconds=$1
	shift
	poll_until "$seconds" poll_not "$@"
}

poll_not() {
	! "$@"
}
