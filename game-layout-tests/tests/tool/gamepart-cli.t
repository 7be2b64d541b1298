#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# The gamepart command line: top-level --help and --version, an unknown
# command, and every command's --help synopses (one or more) identical to
# those in the man page's SYNOPSIS.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_gamepart
require_cmd man col
make_scratch
man_page=$top/partition-tool/gamepart.8

"$gp" --help >"$scratch/out" 2>"$scratch/err"
is $? 0 "--help exits 0"
commands="create status check casefold convert"
for c in $commands; do
	grep -q "^  $c " "$scratch/out"
	ok $? "--help lists $c"
done
"$gp" --version >"$scratch/out"
is $? 0 "--version exits 0"
grep -Eq '^gamepart [0-9]+\.[0-9]+' "$scratch/out"
ok $? "--version prints the version"
"$gp" >/dev/null 2>"$scratch/err"
is $? 2 "no command: exit status 2"
grep -q '^Usage: gamepart COMMAND' "$scratch/err"
ok $? "no command: usage on stderr"
"$gp" frobnicate >"$scratch/out" 2>"$scratch/err"
is $? 2 "an unknown command: exit status 2"
is "$(cat "$scratch/err")" "gamepart: 'frobnicate' is not a command; see 'gamepart --help'" "an unknown command: message"
is "$(cat "$scratch/out")" "" "an unknown command: nothing on stdout"

# The man page as text, one synopsis per line, spaces squeezed.
MANWIDTH=400 man -l "$man_page" 2>/dev/null | col -b | tr -s ' \t' ' ' |
	sed 's/^ //' >"$scratch/man"
grep -q '^SYNOPSIS' "$scratch/man"
ok $? "the man page renders"
# A --help usage, one synopsis per line: a line that starts with
# "gamepart" opens one, any other indented line continues it.
usage_synopses() {
	sed -e '/^$/,$d' -e 's/^Usage: //' "$1" | tr -s ' ' | sed 's/^ //' |
		awk '/^gamepart / { if (s != "") print s; s = $0; next }
			{ s = s " " $0 }
			END { if (s != "") print s }'
}
sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' "$scratch/man" >"$scratch/man-synopsis"
for c in $commands; do
	"$gp" "$c" --help >"$scratch/help" 2>&1
	is $? 0 "$c --help exits 0"
	help=$(usage_synopses "$scratch/help")
	synopsis=$(grep "^gamepart $c\( \|$\)" "$scratch/man-synopsis")
	is "$help" "$synopsis" "$c: --help synopses are the man page's"
	grep -q "^ *gamepart $c\b" "$scratch/man"
	ok $? "$c has a section in the man page"
done
grep -q '^EXIT STATUS' "$scratch/man"
ok $? "the man page documents the exit status"
done_testing
