#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: each
# gamepart check predicts exactly what the kernel does with each name of
# the tricky-name corpus (data/tricky_names.py): the names are created one
# by one in a +F directory, where the kernel answers EEXIST for a name
# that folds like an earlier one, and all together in a plain directory,
# where gamepart check says which would collide.  Both reports must be the
# same, group by group, on a normal and on a strict filesystem; on the
# strict one, the names gamepart calls invalid are exactly those the
# kernel refuses.  gamepart learns the filesystem's rules online, from the
# superblock of the mounted device.  On the patched kernel the same holds
# for the encodings the series adds, utf8-nfkd-12.1 and utf8-windows-12.1,
# with the gamepart linked with the series' libext2fs (make tool-series),
# on cards it made itself.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/gamepart.sh"
	probe=$top/game-layout-tests/progs/name-probe

	# probe_fs DEV KIND: both reports for the filesystem on DEV, in
	# /tmp/KIND.kernel and /tmp/KIND.tool.
	probe_fs() {
		local dev=$1 kind=$2 mnt=$mnt-$2 st
		mount_disk "$dev" "$mnt" || { ok 1 "$kind: mount $dev"; return 1; }
		mkdir "$mnt/plain" "$mnt/cf" && chattr +F "$mnt/cf"
		ok $? "$kind: a plain directory and a +F one"
		"$probe" plain "$mnt/plain" >/tmp/$kind.count
		ok $? "$kind: all $(cat /tmp/$kind.count) corpus names created in the plain directory"
		"$gp" check --json "$mnt/plain" >/tmp/$kind.json 2>/tmp/$kind.err
		st=$?
		is $st 1 "$kind: gamepart check finds collisions (exit 1)"
		[ $st -eq 1 ] || diag "$(cat /tmp/$kind.err)"
		is "$(jq .scanned /tmp/$kind.json)" "$(cat /tmp/$kind.count)" \
			"$kind: gamepart check scanned every name"
		"$probe" tool /tmp/$kind.json >/tmp/$kind.tool
		"$probe" kernel "$mnt/cf" >/tmp/$kind.kernel
		ok $? "$kind: the kernel took or refused every name"
		umount "$mnt"
	}

	# agree WHAT PATTERN KIND: the lines matching PATTERN are the same.
	agree() {
		local what=$1 pattern=$2 kind=$3 d
		d=$(diff <(grep "$pattern" /tmp/$kind.kernel) \
			<(grep "$pattern" /tmp/$kind.tool))
		ok $? "$kind: gamepart check agrees with the kernel on $what"
		[ -z "$d" ] || diag "< kernel, > gamepart check" "$d"
	}

	# Anchors: facts about the kernel's folding that hold whatever
	# gamepart says, so that the comparison cannot pass on two empty
	# reports.  one_group KIND DESCRIPTION NAME...: the kernel made one
	# group of all the NAMEs (written as name-probe writes them).
	one_group() {
		local kind=$1 what=$2 line n all=1
		shift 2
		while read -r line; do
			all=0
			for n; do
				[[ " ${line#collide } " == *" $n "* ]] || all=1
			done
			[ $all -eq 0 ] && break
		done < <(grep '^collide' /tmp/$kind.kernel)
		ok $all "$kind: the kernel: $what"
	}
	probe_fs /dev/vda normal
	probe_fs /dev/vdb strict

	one_group normal "straße, STRASSE and STRAẞE are one name" \
		"$(printf 'stra\xc3\x9fe')" STRASSE "$(printf 'STRA\xe1\xba\x9eE')"
	one_group normal "the Kelvin sign folds to k" \
		"$(printf '\xe2\x84\xaaelvin')" kelvin KELVIN
	one_group normal "U+200B and U+00AD are dropped" \
		'a\u{200b}b' 'a\u{00ad}b' ab AB
	grep -qx 'refused bad\\xff' /tmp/strict.kernel
	ok $? "strict: the kernel: strict mode refuses bad\\xff"
	is "$(grep -c '^refused' /tmp/normal.kernel)" 0 \
		"normal: the kernel refuses no name"
	diag "the kernel formed $(grep -c '^collide' /tmp/normal.kernel) groups, refused $(grep -c '^refused' /tmp/strict.kernel) names (strict), found $(grep -c '^ignorable' /tmp/normal.kernel) with ignorable code points"

	for kind in normal strict; do
		agree "every group of colliding names" '^collide' $kind
		agree "the names with an ignorable code point" '^ignorable' $kind
	done
	agree "the names strict mode refuses" '^refused' strict

	if [ "${2-}" = patched ] && [ -n "${GAMEPART_SERIES-}" ]; then
		plain_gp=$gp gp=$GAMEPART_SERIES
		probe_fs /dev/vdc nfkd
		probe_fs /dev/vdd windows
		gp=$plain_gp
		one_group nfkd "fullwidth ＡＢＣ is ABC" ABC abc ＡＢＣ ａｂｃ
		one_group windows "ABC and abc are one name" ABC abc
		for kind in nfkd windows; do
			agree "every group of colliding names" '^collide' $kind
			agree "the names with an ignorable code point" '^ignorable' $kind
		done
		is "$(grep -c '^ignorable' /tmp/windows.kernel)" 0 \
			"windows: the kernel drops no code point"
	fi
	d=$(diff <(grep '^refused' /tmp/strict.kernel) \
		<(grep '^refused' /tmp/normal.tool))
	ok $? "normal: the names gamepart calls invalid are those a strict filesystem refuses"
	[ -z "$d" ] || diag "< kernel (strict), > gamepart check (normal)" "$d"

	# The human report says what the kernel will do with them.
	mount_disk /dev/vdb $mnt-strict
	"$gp" check $mnt-strict/plain 2>&1 | grep -q 'invalid UTF-8: .*(this strict filesystem refuses it in a casefolded directory)'
	ok $? "strict: the human report says invalid names would be refused"
	umount $mnt-strict
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_kernel $(test_kernels)
require_gamepart
require_cmd python3 jq
make_scratch
"$gp" create --size 64M "$scratch/normal.img" >/dev/null || exit 1
"$gp" create --size 64M --strict "$scratch/strict.img" >/dev/null || exit 1
series=()
gp_series=${GAMEPART_SERIES:-$build/series/gamepart}
if [ -x "$gp_series" ] && [ -x "$build/e2fsprogs/sbin/mke2fs" ]; then
	for enc in nfkd windows; do
		PATH=$build/e2fsprogs/sbin:$PATH "$gp_series" create --size 64M \
			--encoding utf8-$enc-12.1 "$scratch/$enc.card" >/dev/null || exit 1
	done
	series=(--env "GAMEPART_SERIES=$gp_series" --disk "$scratch/nfkd.img" --disk "$scratch/windows.img")
else
	diag "no $gp_series (make tool-series): today's encoding only"
fi
for kernel in $(test_kernels); do
	cp --sparse=always "$scratch/normal.img" "$scratch/n.img"
	cp --sparse=always "$scratch/strict.img" "$scratch/s.img"
	for enc in nfkd windows; do
		[ ! -f "$scratch/$enc.card" ] || cp --sparse=always "$scratch/$enc.card" "$scratch/$enc.img"
	done
	role=$(kernel_role "$kernel")
	guest_run "$kernel" --env "GAMEPART=$gp" \
		--disk "$scratch/n.img" --disk "$scratch/s.img" \
		${series[@]+"${series[@]}"} -- "$role"
done
done_testing
