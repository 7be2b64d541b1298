#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# gamepart convert on a populated library (patched kernel): a dry run and
# the default policy change nothing; --on-collision=rename, run on a
# terminal, shows its progress and converts every
# directory to +F, and the manifest taken after (inodes, link counts,
# data, modes, owners, extended attributes, mtimes) is the one taken
# before with exactly the reported renames applied; e2fsck -fn is clean,
# nothing of the work directory is left, and a second run has nothing to
# do.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/convert.sh"
	convert_library library "${BIG:-800}"
	all_dirs=$(find $lib -type d | wc -l)

	"$gp" convert --dry-run --on-collision=rename --json $lib >/tmp/plan.json
	is $? 0 "a dry run exits 0"
	"$manifest" $lib | cmp -s - /tmp/before.json
	ok $? "the dry run changes nothing"
	is "$(not_f_dirs $lib)" "$all_dirs" "no directory has +F after the dry run"
	planned=$(jq '.convert.renames | length' /tmp/plan.json)
	is "$planned" 6 "the plan renames 6 names (5 planted groups)"

	"$gp" convert $lib >/tmp/out 2>/tmp/err
	is $? 1 "collisions under the default policy: exit status 1"
	is "$(tail -n 1 /tmp/err)" \
		"gamepart: convert: $lib: 5 groups of names collide, nothing changed (--on-collision=merge merges directories and renames files, =rename renames both)" \
		"and the message says nothing changed"
	grep -q '^steamapps/common/Game: would collide once casefolded: "MAPS", "Maps"$' /tmp/out
	ok $? "the report names the colliding directories"
	"$manifest" $lib | cmp -s - /tmp/before.json
	ok $? "the tree is unchanged"
	[ -z "$(ls -A $mnt | grep "^\.gamepart-convert\.")" ]
	ok $? "no work directory was made"

	# On a terminal (script(1) gives it one), it shows its progress.
	script -qec "'$gp' convert --on-collision=rename --json $lib >/tmp/convert.json" /tmp/tty >/dev/null
	is $? 0 "--on-collision=rename converts: exit 0"
	tr '\r' '\n' </tmp/tty | sed 's/\x1b\[K//g' | grep -q "^gamepart: convert: $lib: checking: [0-9]* directories, [0-9]* names" &&
		tr '\r' '\n' </tmp/tty | sed 's/\x1b\[K//g' | grep -q "^gamepart: convert: $lib: converting: [0-9]* of [0-9]* directories"
	ok $? "on a terminal, a progress line while it checks and while it converts" ||
		diag "$(tr '\r' '\n' </tmp/tty | head -n 5)"
	converted rename $lib /tmp/before.json /tmp/convert.json
	is "$(jq '.convert.renames | length' /tmp/convert.json)" \
		6 "6 renames are reported"
	[ -e "$lib/steamapps/common/Game/Data/CONFIG.INI" ] &&
		[ "$(cat "$lib/steamapps/common/Game/Data/config.ini")" = "[b]" ]
	ok $? "the name first by bytes keeps it, and the kernel finds it by any case"
	[ "$(cat "$lib/steamapps/common/Game/Data/config (case conflict 2).ini")" = "[c]" ]
	ok $? "the others are 'STEM (case conflict N).EXT', N in byte order"
	[ -e "$lib/steamapps/common/Game/.version (case conflict 1)" ]
	ok $? "a leading dot is no suffix"

	# The record kept beside the library once the journal is gone.
	record=$(jq -r .convert.record /tmp/convert.json)
	case $record in $mnt/gamepart-convert-library-*.json) true ;; *) false ;; esac
	ok $? "the report names the record kept beside the library ('$record')"
	jq -e '.convert.outcome == "converted" and (.convert.renames | length) == 6' "$record" >/dev/null &&
		cmp -s <(jq -S '.convert.renames' "$record") <(jq -S '.convert.renames' /tmp/convert.json)
	ok $? "it holds the renames the report gave" || diag "$(head -c 400 "$record")"
	"$gp" convert --dry-run $lib >/dev/null 2>&1
	is "$(ls $mnt | grep -c '^gamepart-convert-library-')" 1 "no other record: a dry run keeps none"

	nothing_left
	unmount_and_fsck
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
big=800
[ -n "${GAMEPART_FULL-}" ] && big=10000
gamepart_on_casefold_image 512M --env "BIG=$big" --
done_testing
