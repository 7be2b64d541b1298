#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# A ' (case conflict N)' name is the first that folds like no name of the
# directory, whether held, arriving or already given (lib/landing.h): a
# name that collides with nothing is never renamed to make room.  Planned
# offline under rename (convert --offline --dry-run of an image mke2fs -d
# filled; nothing is mounted); merge and import decide by the same code.

. "$(dirname "$0")/../../lib/host.sh"
require_gamepart
make_scratch

# plan_of POLICY NAME...: the renames convert plans for a directory of
# those names (a trailing / makes a directory), "OLD -> NEW" joined by "|".
plan_of() {
	local policy=$1 name
	shift
	rm -rf "$scratch/tree" "$scratch/img"
	mkdir -p "$scratch/tree/game"
	for name in "$@"; do
		case $name in
		*/) mkdir "$scratch/tree/game/$name" ;;
		*) : >"$scratch/tree/game/$name" ;;
		esac
	done
	mke2fs -q -F -t ext4 -O casefold -d "$scratch/tree" "$scratch/img" 8M >/dev/null 2>&1 ||
		return 1
	"$gamepart" convert --offline --dry-run --on-collision="$policy" \
		"$scratch/img" /game 2>&1 |
		sed -n "s/^.*would rename '\(.*\)' -> '\(.*\)' (inode .*/\1 -> \2/p" |
		paste -sd'|'
}

is "$(plan_of rename A a 'a (case conflict 1)')" "a -> a (case conflict 2)" \
	"rename: the colliding name skips a name of the directory, which keeps its own"
is "$(plan_of rename A/ a/ 'a (case conflict 1)/')" "a -> a (case conflict 2)" \
	"rename: directories alike"
is "$(plan_of rename Save.dat save.dat 'save (case conflict 1).dat' 'SAVE (CASE CONFLICT 2).DAT')" \
	"save.dat -> save (case conflict 3).dat" \
	"rename: a name of the directory in another case is skipped too"
done_testing
