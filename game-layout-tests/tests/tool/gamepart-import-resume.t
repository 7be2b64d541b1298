#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# gamepart import stopped dead (SIGKILL after its Nth step), then
# --resume: a new import into the library is refused while the journal
# is there, naming the command that finishes it, and check notes it; --resume finishes, and
# every file of the source is where the report (the whole import's,
# renames and merges made before the stop included) says, with its data.
# The same with --move within one filesystem: the entries keep their
# inodes, the source is left empty, and a stopped move resumes too.  A
# name another program takes before the resumed run reaches it is not
# replaced: the run stops there and says so.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/gamepart.sh"
	mount_disk /dev/vda $mnt

	# make_source DIR: a modded game whose directories collide, and its
	# manifest in DIR.json.
	make_source() {
		mkdir -p "$1"
		"$tree" make-mods "$1"
		echo config >"$1/steamapps/common/ModdedGame/Config.ini"
		ln "$1/steamapps/common/ModdedGame/Config.ini" "$1/steamapps/common/ModdedGame/link.ini"
		"$manifest" "$1" >"$1.json"
	}
	# stopped TAG SRC LIB WHEN [OPTIONS]: the import killed after step
	# WHEN; 1 if it finished first.
	stopped() {
		local status
		{ GAMEPART_TEST_CRASH_AFTER=$4 "$gp" import --on-collision=merge ${5-} \
			"$2" "$3" >/dev/null 2>/tmp/crash.err; } 2>/dev/null
		status=$?
		[ $status -eq 0 ] && return 1
		is $status 137 "$1: killed after step $4" || diag "$(cat /tmp/crash.err)"
		rc=0
		"$gp" import "$2" "$3" >/dev/null 2>/tmp/err || rc=$?
		is "$rc" 2 "$1: a new import is refused"
		"$gp" check "$3" >/dev/null 2>/tmp/check.err
		grep -q "note: the journal of an interrupted gamepart import" /tmp/check.err
		ok $? "$1: check notes the interrupted import"
		grep -q "was interrupted; finish it with: gamepart import --resume $3" /tmp/err
		ok $? "$1: naming the command that finishes it" || diag "$(cat /tmp/err)"
		"$gp" import --resume --json "$3" >/tmp/resume.json 2>/tmp/err
		ok $? "$1: --resume finishes" || diag "$(cat /tmp/err)"
		"$tree" imported "$2.json" "$3" /tmp/resume.json >/tmp/diff
		ok $? "$1: every file is where the whole import's report says" ||
			diag "$(head -n 20 /tmp/diff)"
		is "$(not_f_dirs "$3")" 0 "$1: every directory is +F"
		[ ! -e "$3/.gamepart-import" ]
		ok $? "$1: no journal is left"
	}

	make_source $mnt/src
	steps=0
	for when in 1 5 17 40; do
		lib=$mnt/copy-$when
		mkdir $lib && chattr +F $lib
		if ! stopped "copy, step $when" $mnt/src $lib $when; then
			diag "step $when is past the last: the import finished"
			break
		fi
		steps=$((steps + 1))
	done
	[ "$steps" -ge 3 ]
	ok $? "three copies stopped and resumed"

	for when in 3 25; do
		src=$mnt/move-src-$when lib=$mnt/move-$when
		make_source $src
		ino=$(stat -c %i $src/steamapps/common/ModdedGame/Config.ini)
		mkdir $lib && chattr +F $lib
		stopped "move, step $when" $src $lib $when --move
		is "$(stat -c %i $lib/steamapps/common/ModdedGame/Config.ini)" "$ino" \
			"move, step $when: the file kept its inode"
		is "$(find $src -mindepth 1 | wc -l)" 0 "move, step $when: the source is left empty"
	done

	# Something of another program's at a name the import has not
	# reached: --resume stops there instead of replacing it.
	lib=$mnt/taken
	mkdir $lib && chattr +F $lib
	{ GAMEPART_TEST_CRASH_AFTER=1 "$gp" import --on-collision=merge $mnt/src $lib \
		>/dev/null 2>&1; } 2>/dev/null
	mkdir -p $lib/steamapps/common/ModdedGame
	echo "Steam's" >$lib/steamapps/common/ModdedGame/CONFIG.INI
	rc=0
	"$gp" import --resume $lib >/dev/null 2>/tmp/err || rc=$?
	is "$rc" 2 "a name taken meanwhile: --resume stops"
	grep -q "ModdedGame/Config.ini: the name was taken during the import" /tmp/err
	ok $? "and names it" || diag "$(cat /tmp/err)"
	is "$(cat $lib/steamapps/common/ModdedGame/CONFIG.INI)" "Steam's" "what is there is left as it was"
	rm $lib/steamapps/common/ModdedGame/CONFIG.INI
	"$gp" import --resume --json $lib >/tmp/resume.json 2>/tmp/err
	ok $? "moved away: --resume finishes" || diag "$(cat /tmp/err)"
	"$tree" imported $mnt/src.json $lib /tmp/resume.json >/tmp/diff
	ok $? "and every file is where the report says" || diag "$(head -n 20 /tmp/diff)"

	rc=0
	"$gp" import --move /run $mnt/copy-1 >/dev/null 2>/tmp/err || rc=$?
	is "$rc" 2 "move across filesystems: refused"
	grep -q "on another filesystem (or mount) than" /tmp/err
	ok $? "move across filesystems: says why" || diag "$(cat /tmp/err)"
	unmount_and_fsck
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_cmd jq
gamepart_on_casefold_image 64M --
done_testing
