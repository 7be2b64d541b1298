#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: each
# The encodings of part 4 of the series: a superblock naming
# EXT4_ENC_UTF8_NFKD_12_1 (0xff01) or EXT4_ENC_UTF8_WINDOWS_12_1 (0xff02).
# The patched kernel mounts each, names it in sysfs, and makes one name
# of exactly the corpus names (data/tricky_names.py) that the profile's
# fs/unicode table folds alike, as build/unicode's reader of the same
# table says on the host (make unicode-tables): straße and strasse, or NFC
# and NFD, two files on the Windows encoding, one on today's; the
# fullwidth ＡＢＣ and ABC one file on NFKD (strict mode in each:
# casefold-strict.t).  The stock kernel refuses to mount either, saying
# why, and stock e2fsck refuses to check them.  gamepart status names
# each encoding, online (from sysfs, as nobody) and offline; gamepart
# check, linked with the system's libext2fs, says it cannot fold
# them (exit 2) instead of folding them as today's encoding (the one
# linked with the series' does: gamepart-check-agrees-with-kernel.t).

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/gamepart.sh"
	role=$2
	probe=$top/game-layout-tests/progs/name-probe
	tables=$top/build/unicode

	if [ "$role" = stock ]; then
		mount_disk /dev/vda $mnt-nfd
		ok $? "stock: today's encoding mounts"
		for dev in vdb vdc; do
			dmesg -C
			! mount_disk /dev/$dev $mnt-$dev 2>/dev/null
			ok $? "stock: /dev/$dev, in an encoding of the series, does not mount"
			dmesg | grep -q 'Encoding requested by superblock is unknown'
			ok $? "stock: and says the encoding is unknown" || diag "$(dmesg | tail -n 5)"
		done
		umount $mnt-nfd
		done_testing
		exit
	fi

	# probe DEV KIND PROFILE SYSFS: the kernel groups the corpus as the
	# table of PROFILE does, on the filesystem on DEV.
	probe() {
		local dev=$1 kind=$2 profile=$3 sysfs=$4 name=$5 d
		mount_disk /dev/$dev $mnt-$kind
		ok $? "$kind: mounts"
		is "$(cat /sys/fs/ext4/$dev/encoding)" "$sysfs" "$kind: sysfs names the encoding $sysfs"
		mkdir $mnt-$kind/cf && chattr +F $mnt-$kind/cf
		ok $? "$kind: a +F directory"
		"$probe" kernel $mnt-$kind/cf >/tmp/$kind.kernel
		ok $? "$kind: the kernel took every corpus name or said it exists"
		"$probe" table "$tables/utf8-dump-$profile" >/tmp/$kind.table
		d=$(diff <(grep '^collide' /tmp/$kind.kernel) /tmp/$kind.table)
		ok $? "$kind: the kernel makes one name of what the $profile table folds alike ($(grep -c '^collide' /tmp/$kind.table) groups)"
		[ -z "$d" ] || diag "< kernel, > table" "$d"
		chmod 755 $mnt-$kind
		setpriv --reuid=65534 --regid=65534 --clear-groups "$gp" status $mnt-$kind >/tmp/status
		is "$(sed -n 's/^encoding: *//p' /tmp/status)" "$name" "$kind: gamepart status, as nobody: encoding $name"
	}
	probe vda nfd shipped "UTF-8 (12.1.0)" utf8-12.1
	probe vdb nfkd nfkd "UTF-8 NFKD (12.1.0)" utf8-nfkd-12.1
	probe vdc windows windows "UTF-8 Windows (12.1.0)" utf8-windows-12.1
	"$gp" check $mnt-windows/cf >/dev/null 2>/tmp/err
	is $? 2 "windows: gamepart check cannot fold the encoding (exit 2)"
	grep -q "encoding utf8-windows-12.1: gamepart's libext2fs cannot fold its names" /tmp/err
	ok $? "and says why" || diag "$(cat /tmp/err)"

	# has GROUPS-FILE NAME...: one collide line holds every NAME.
	has() {
		local f=$1
		shift
		grep '^collide' "$f" | while read -r line; do
			local n all=1
			for n; do
				[[ " ${line#collide } " == *" $n "* ]] || all=0
			done
			[ $all = 1 ] && echo yes
		done | grep -q yes
	}
	has /tmp/nfd.kernel strasse straße && has /tmp/nfd.kernel café 'cafe\u{0301}'
	ok $? "nfd: straße and strasse are one name, and so are NFC and NFD"
	! has /tmp/windows.kernel strasse straße && ! has /tmp/windows.kernel café 'cafe\u{0301}' &&
		! has /tmp/windows.kernel ab 'a\u{200b}b'
	ok $? "windows: straße and strasse, NFC and NFD, ab and a<ZWSP>b are two names each"
	has /tmp/windows.kernel istanbul ISTANBUL && ! has /tmp/windows.kernel istanbul ıstanbul
	ok $? "windows: istanbul and ISTANBUL are one name, dotless ıstanbul another, as in Windows' table"
	has /tmp/nfkd.kernel ABC abc ＡＢＣ ａｂｃ && ! has /tmp/nfd.kernel abc ａｂｃ
	ok $? "nfkd: fullwidth ＡＢＣ is ABC (today's encoding keeps it apart)"

	mkdir $mnt-windows/cf/game && cd $mnt-windows/cf/game
	echo data >Data.PAK && [ "$(cat DATA.pak)" = data ] && [ "$(cat data.pak)" = data ]
	ok $? "windows: a file is found in any case"
	touch straße.txt strasse.txt café.txt $'cafe\xcc\x81.txt'
	is "$(ls | grep -c -e '^stra' -e '^caf')" 4 "windows: straße.txt, strasse.txt and café.txt in NFC and NFD are four files"
	[ "$(cat STRASSE.TXT)" = "" ] && [ -e STRAßE.TXT ] && [ -e CAFÉ.TXT ]
	ok $? "windows: each found in another case"
	cd /
	for kind in nfd nfkd windows; do
		umount $mnt-$kind
	done

	# Strict mode in each encoding: casefold-strict.t.
	mount_disk /dev/vdd $mnt-strict
	is "$(cat /sys/fs/ext4/vdd/encoding_flags)" 1 "windows, strict: sysfs says encoding_flags 1"
	umount $mnt-strict
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_kernel $(test_kernels)
require_cmd debugfs e2fsck python3
require_gamepart
for f in utf8-dump-shipped utf8-dump-nfkd utf8-dump-windows; do
	[ -x "$build/unicode/$f" ] || skip_all "no $build/unicode/$f: run make unicode-tables"
done
make_scratch

make_casefold_image "$scratch/nfd.img" 32M || exit 1
make_encoded_image "$scratch/nfkd.img" 32M 0xff01 || exit 1
make_encoded_image "$scratch/windows.img" 32M 0xff02 || exit 1
make_encoded_image "$scratch/strict.img" 32M 0xff02 -E encoding=utf8,encoding_flags=strict || exit 1

"$gp" status "$scratch/windows.img" >"$scratch/status"
is "$(sed -n 's/^encoding: *//p' "$scratch/status")" utf8-windows-12.1 "gamepart status offline: encoding utf8-windows-12.1"
for kind in nfkd windows; do
	e2fsck -fn "$scratch/$kind.img" >"$scratch/fsck" 2>&1
	rc=$?
	[ $((rc & 8)) = 8 ]
	ok $? "stock e2fsck refuses to check the $kind image (exit $rc: operational error)"
	grep -q 'has unsupported encoding' "$scratch/fsck"
	ok $? "and says the encoding is unsupported" || diag "$(cat "$scratch/fsck")"
done

for k in $(test_kernels); do
	guest_run "$k" --env "GAMEPART=$gp" --disk "$scratch/nfd.img" --disk "$scratch/nfkd.img" \
		--disk "$scratch/windows.img" --disk "$scratch/strict.img" -- "$(kernel_role "$k")"
done
done_testing
