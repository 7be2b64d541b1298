# SPDX-License-Identifier: GPL-2.0
# fstests (xfstests, make fstests: build/fstests) in guests, on ext4 with
# TEST_DEV and SCRATCH_DEV two image disks (sourced after host.sh or
# guest.sh).
#
# Host side:
#   require_fstests          build/fstests is built, and what its tests
#                            run is installed; else the whole test skips
#   fstests_host ARGS...     a test file's host side: require the kernels
#                            and fstests, fstests_guests ARGS, and the plan
#   fstests_guests ARGS...   for each kernel of test_kernels, a fresh
#                            1 GiB ext4 TEST_DEV and an empty 2 GiB
#                            SCRATCH_DEV, and this test file's guest side
#                            ("--guest ROLE ARGS": ARGS are ./check's, or
#                            $GAMEPART_FSTESTS's words for a try); then,
#                            for each patched kernel and the stock one of
#                            its source and class (ab_pairs), the test
#                            that their results are the same, test by
#                            test (pass, fail or not run)
#
# Guest side:
#   fstests_check ROLE ARGS...
#                            ./check ARGS, its output as diagnostics; a
#                            TAP line for each test, which passes or is
#                            "not run" with fstests' reason, and a record
#                            line of its result for the host to compare

fstests_dir=$top/build/fstests

require_fstests() {
	[ -x "$fstests_dir/check" ] || skip_all "no $fstests_dir: run make fstests"
	require_cmd mkfs.ext4 e2fsck xfs_io getfattr setfattr getfacl setfacl bc
}

fstests_host() {
	require_kernel $(test_kernels)
	require_fstests
	fstests_guests "$@"
	done_testing
}

fstests_guests() {
	local k args=("$@")
	if [ -n "${GAMEPART_FSTESTS:-}" ]; then
		read -ra args <<<"$GAMEPART_FSTESTS"
	fi
	# Host scratch in /var/tmp, not /tmp: the images are sparse but
	# fstests writes far more into them than a test's /tmp should hold.
	[ -n "$scratch" ] || TMPDIR=${TMPDIR:-/var/tmp} make_scratch
	diag "fstests: $(cat "$fstests_dir/GAMEPART-VERSION")"
	for k in $(test_kernels); do
		# TEST_DEV holds an ext4 from the start, as fstests expects;
		# it makes the scratch filesystem itself, test by test.
		make_ext4_image "$scratch/test.img" 1G &&
			rm -f "$scratch/scratch.img" && truncate -s 2G "$scratch/scratch.img" || {
			ok 1 "[$k] the TEST_DEV and SCRATCH_DEV images"
			continue
		}
		guest_record=$scratch/$k.results
		: >"$guest_record"
		guest_run "$k" --disk "$scratch/test.img" --disk "$scratch/scratch.img" \
			--timeout 3600 -- "$(kernel_role "$k")" "${args[@]}"
	done
	# A reason of "not run" may name the kernel: only the outcome is
	# compared.
	local s p stock patched
	while read -r s p; do
		[ -n "$s" ] || continue
		stock=$(awk '{ print $1, $2 }' "$scratch/$s.results" | sort)
		patched=$(awk '{ print $1, $2 }' "$scratch/$p.results" | sort)
		[ -n "$stock" ] && [ "$stock" = "$patched" ]
		ok $? "$p: every fstests result is $s's ($(grep -c . <<<"$stock") tests)" ||
			diag "$(diff <(echo "$stock") <(echo "$patched") | grep '^[<>]')"
	done < <(ab_pairs)
}

fstests_check() {
	local role=$1 work=/var/tmp/fstests start status t reason secs f
	shift
	# The tree is read-only in the guest (the host's root): what
	# fstests writes goes to this job's /var/tmp, a tmpfs.
	mkdir -p $work/test $work/scratch
	cat >$work/local.config <<-EOF
		FSTYP=ext4
		TEST_DEV=/dev/vda
		TEST_DIR=$work/test
		SCRATCH_DEV=/dev/vdb
		SCRATCH_MNT=$work/scratch
		RESULT_BASE=$work/results
	EOF
	start=$SECONDS
	(cd "$fstests_dir" && HOST_OPTIONS=$work/local.config ./check "$@") 2>&1 |
		tee $work/check.out | sed 's/^/# /'
	status=${PIPESTATUS[0]}
	diag "./check $* (exit $status): $((SECONDS - start)) s"
	local log=$work/results/check.log
	[ -s $log ]
	ok $? "$role: ./check ran and wrote its log" || return 1
	# check.log's summary: "Ran: T...", "Not run: T...", "Failures: T...";
	# those not run are among those it ran.
	fstests_list() { sed -n "s/^$1: //p" $log | tr ' ' '\n' | sed '/^$/d'; }
	local notrun failures
	notrun=" $(fstests_list 'Not run' | xargs) "
	failures=" $(fstests_list Failures | xargs) "
	for t in $(fstests_list Ran); do
		secs=$(awk -v t="$t" '$1 == t { s = $2 } END { print s }' $work/results/check.time)
		case $notrun in
		*" $t "*)
			reason=$(cat "$work/results/$t.notrun" 2>/dev/null)
			[ -n "$reason" ]
			ok $? "$role: $t not run: ${reason:-no reason given}"
			echo "record $t notrun $reason"
			continue
			;;
		esac
		case $failures in
		*" $t "*)
			ok 1 "$role: $t passes"
			f=$work/results/$t.out.bad
			[ ! -f "$f" ] || diag "$t: its output against the expected one:" \
				"$(diff -u "$fstests_dir/tests/$t.out" "$f" | head -n 60)"
			f=$work/results/$t.dmesg
			[ ! -f "$f" ] || diag "$t: what the kernel logged:" "$(head -c 4000 "$f")"
			echo "record $t fail"
			;;
		*)
			ok 0 "$role: $t passes (${secs:-?} s)"
			echo "record $t pass"
			;;
		esac
	done
}
