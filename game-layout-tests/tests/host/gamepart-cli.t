#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The gamepart command line: top-level --help and --version, an unknown
# command, and every command's --help synopsis identical to the one in the
# man page.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_gamepart
require_cmd man col
make_scratch
man_page=$top/partition-tool/gamepart.8

"$gp" --help >"$scratch/out" 2>"$scratch/err"
is $? 0 "--help exits 0"
for c in create status check casefold; do
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
for c in create status check casefold; do
	"$gp" "$c" --help >"$scratch/help" 2>&1
	is $? 0 "$c --help exits 0"
	help=$(sed -n '1s/^Usage: //p' "$scratch/help" | tr -s ' ')
	synopsis=$(grep -m1 "^gamepart $c\( \|$\)" "$scratch/man")
	is "$help" "$synopsis" "$c: --help synopsis is the man page's"
	grep -q "^ *gamepart $c\b" "$scratch/man"
	ok $? "$c has a section in the man page"
done
grep -q '^EXIT STATUS' "$scratch/man"
ok $? "the man page documents the exit status"
done_testing
