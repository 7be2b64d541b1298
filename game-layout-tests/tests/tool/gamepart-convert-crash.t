#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# gamepart convert stopped dead, then --resume (patched kernel).  The
# conversion is killed (SIGKILL) right after its Nth change to the
# filesystem, N spread geometrically over all the changes it makes (the
# read-only check before them is not a target), then at the changes
# the spread may miss, by name; under make check-full the guest is also
# powered off without a sync in the middle of five (make check kills
# seven only).  Each time --resume must finish
# the job: the manifest is the one before with the reported renames,
# every directory is +F, no work directory is left, e2fsck -fn is clean.
# Before the resume, check says that a conversion was interrupted.  The
# phases the stops hit are reported.  Both ways of converting a
# directory are stopped: keeping it (the default) and replacing it; and
# under --on-collision=merge, on a library with a modded game whose
# directories collide, the merge's own changes are stopped by name.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/convert.sh"
	convert_mount
	policy=${POLICY:-rename}
	p=${DIRECTORIES:+$DIRECTORIES, }	# which pass a test belongs to
	[ "$policy" = merge ] && p="merge, $p"
	# make_lib DIR: the library the conversions convert.
	make_lib() {
		"$tree" make "$1" --big 150
		[ "$policy" = merge ] && "$tree" make-mods "$1"
		"$manifest" "$1" >"$2"
	}
	# after_crash LIB TAG [REPORT]: check notices, then --resume finishes.
	after_crash() {
		"$gp" check "$1" >/tmp/check.out 2>/tmp/check.err
		grep -q "a conversion of it was interrupted" /tmp/check.err
		ok $? "$p$2: check says the conversion was interrupted"
		resumed "$p$2" "$1" $mnt/before-$2.json ${3-}
	}

	# stop_at WHEN TAG: a fresh library, its conversion killed at WHEN
	# (a change's number or a phase's name, as GAMEPART_TEST_CRASH_AFTER
	# takes it), then check and --resume; returns 1 if it finished first.
	stop_at() {
		local lib=$mnt/kill-$2 status phase
		mkdir $lib
		make_lib $lib $mnt/before-$2.json
		# Once the journal is gone, so is its record of the renames,
		# which only the killed run's report gave: the plan, made the
		# same way, stands in for it.
		[ "$1" = "journal removed" ] &&
			"$gp" convert --dry-run --on-collision=$policy --json $lib \
				>/tmp/plan.json
		# (The shell's "Killed" goes to /dev/null.)
		{ GAMEPART_TEST_CRASH_AFTER=$1 "$gp" convert $directories \
			--on-collision=$policy --json $lib \
			>/dev/null 2>/tmp/crash.err; } 2>/dev/null
		status=$?
		if [ $status -eq 0 ]; then
			rm -rf $lib
			return 1
		fi
		is $status 137 "${p}stop after change $1: killed"
		phase=$(sed -n 's/.*test crash after change [0-9]* (\(.*\))$/\1/p' /tmp/crash.err)
		echo "$phase" >>/tmp/phases
		if [ "$1" = "journal removed" ]; then
			"$gp" convert --dry-run $lib >/dev/null 2>&1
			ls -A $mnt | grep -q gamepart-convert
			ok $? "$p$2: --dry-run leaves the finished run's work directory"
		fi
		after_crash $lib $2 $([ "$1" = "journal removed" ] && echo /tmp/plan.json)
		rm -rf $lib
	}

	case "$2" in
	kill)
		n=1 i=0
		while :; do
			i=$((i + 1))
			if ! stop_at $n $i; then
				diag "change $n is past the last one: the conversion finished"
				break
			fi
			# Every stop under make check-full (about 20), a few else.
			if [ -n "${ALL-}" ]; then
				n=$(( n * 13 / 10 + 1 ))
			else
				[ $i -ge "${STOPS:-4}" ] && break
				n=$(( n * 6 + 1 ))
			fi
		done
		# Changes the spread may miss, each made once a directory or
		# once a conversion (or a merge): named.
		phases=()
		[ -n "${ALL-}" ] && phases=("temporary directory removed" "journal removed")
		[ -n "${ALL-}" ] && [ "${DIRECTORIES-}" = replace ] &&
			phases+=("directory exchanged" "old directory removed")
		[ "$policy" = merge ] &&
			phases+=("merging entries" "merged directory removed")
		if [ ${#phases[@]} -gt 0 ]; then
			for phase in "${phases[@]}"; do
				i=$((i + 1))
				stop_at "$phase" $i
				ok $? "${p}the conversion stops at \"$phase\""
			done
		fi
		diag "phases the stops hit: $(sort /tmp/phases | uniq -c | awk '{printf "%s%s x%d", (NR > 1 ? ", " : ""), substr($0, index($0, $2)), $1}')"
		;;
	poweroff-before)
		lib=$mnt/power
		mkdir $lib
		make_lib $lib $mnt/before-power.json
		sync
		GAMEPART_TEST_CRASH_AFTER=$3:poweroff "$gp" convert \
			$directories --on-collision=$policy $lib
		echo "not ok - the guest is still running after the power-off"
		;;
	poweroff-after)
		after_crash $mnt/power power
		;;
	esac
	unmount_and_fsck
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
if [ -n "${GAMEPART_FULL-}" ]; then
	gamepart_on_casefold_image 256M --env ALL=1 -- kill
	gamepart_on_casefold_image 256M --env ALL=1 --env DIRECTORIES=replace -- kill
	gamepart_on_casefold_image 256M --env ALL=1 --env POLICY=merge -- kill
	gamepart_on_casefold_image 256M --env ALL=1 --env POLICY=merge --env DIRECTORIES=replace -- kill
	# Spread over the changes this library's conversion makes (the kill
	# passes say how many: 517 keeping directories, 397 replacing them);
	# one past the end fails, it is not skipped.  MODE:POLICY:WHEN.
	powers=("keep:rename:40" "keep:rename:200" "keep:rename:400"
		"replace:rename:30" "replace:rename:250"
		"keep:merge:merging entries" "replace:merge:merged directory removed")
else
	# The power-off costs two boots: make check-full only.
	gamepart_on_casefold_image 256M --env STOPS=4 -- kill
	gamepart_on_casefold_image 256M --env STOPS=3 --env DIRECTORIES=replace -- kill
	gamepart_on_casefold_image 256M --env STOPS=2 --env POLICY=merge -- kill
	powers=()
fi
for power in "${powers[@]}"; do
	mode=${power%%:*} when=${power#*:*:} policy=${power#*:}
	policy=${policy%%:*}
	cp --sparse=always "$scratch/casefold.img" "$scratch/power.img"
	# The guest powers itself off: no exit status comes back.
	"$vmrun" --kernel "$(kernel_image "$(the_kernel)")" --env "GAMEPART=$gp" \
		--env "DIRECTORIES=$mode" --env "POLICY=$policy" \
		--disk "$scratch/power.img" -- \
		"$0" --guest poweroff-before "$when" >"$scratch/power.out" 2>&1
	phase=$(sed -n "s/.*test crash after change \([0-9]* (.*)\)\$/\1/p" "$scratch/power.out")
	case $when in
	[0-9]*) [ "${phase%% *}" = "$when" ] ;;
	*) [ "${phase#* }" = "($when)" ] ;;
	esac
	ok $? "$mode, $policy: power-off after change $phase: the guest went down in the conversion" ||
		diag "$(tail -n 5 "$scratch/power.out")"
	guest_run "$(the_kernel)" --env "GAMEPART=$gp" --env "DIRECTORIES=$mode" \
		--env "POLICY=$policy" --disk "$scratch/power.img" -- poweroff-after
done
done_testing
