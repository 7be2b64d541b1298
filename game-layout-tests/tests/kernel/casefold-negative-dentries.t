#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# Misses in a +F directory: the patched kernel caches them as negative
# dentries (the stock one does not), and every answer stays right: a miss
# cached before the directory became +F, a name removed by unlink or
# rmdir, and a directory whose +F is cleared again.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	kernel=$2
	cf_mount

	negative_dentries() {
		awk '{ print $5 }' /proc/sys/fs/dentry-state
	}
	before=$(negative_dentries)
	for i in $(seq 1 500); do
		[ -e "$ci/Missing-$i.dll" ]
	done
	grown=$(($(negative_dentries) - before))
	if [ "$kernel" = stock ]; then
		[ $grown -lt 250 ]
		ok $? "stock: 500 misses in a +F directory are not cached ($grown negative dentries more)"
	else
		[ $grown -ge 500 ]
		ok $? "patched: 500 misses in a +F directory are cached ($grown negative dentries more)"
	fi
	for i in 1 250 500; do
		missing "$ci/MISSING-$i.DLL" && missing "$ci/missing-$i.dll"
		ok $? "a cached miss stays a miss under other cases (missing-$i.dll)"
	done
	echo mod >"$ci/missing-250.DLL"
	same_file "$ci/missing-250.DLL" "$ci/Missing-250.dll"
	ok $? "created after the miss, missing-250.DLL is found as Missing-250.dll"

	# Misses cached while the directory was plain, then +F.
	mkdir $mnt/later
	for n in config.ini CONFIG.INI Config.Ini; do missing "$mnt/later/$n"; done
	chattr +F $mnt/later
	ok $? "chattr +F on the directory after the misses"
	echo x >$mnt/later/CONFIG.ini
	listed $mnt/later CONFIG.ini
	ok $? "CONFIG.ini, created after +F over those misses, is stored as typed" ||
		diag "stored: $(ls $mnt/later)"
	for n in config.ini CONFIG.INI Config.Ini; do
		same_file "$mnt/later/CONFIG.ini" "$mnt/later/$n"
		ok $? "a miss of $n cached before +F does not hide CONFIG.ini"
	done

	# unlink and rmdir leave misses behind that stay right.
	echo x >$ci/Data.pak
	same_file $ci/Data.pak $ci/DATA.PAK
	rm $ci/data.pak
	ok $? "unlink data.pak removes Data.pak"
	missing $ci/Data.pak && missing $ci/DATA.PAK && missing $ci/data.pak
	ok $? "after unlink, every case misses"
	echo y >$ci/dAtA.pAk
	listed $ci dAtA.pAk && same_file $ci/dAtA.pAk $ci/DATA.PAK &&
		same_file $ci/dAtA.pAk $ci/data.pak
	ok $? "a new dAtA.pAk is stored as typed and found under every case"
	mkdir $ci/Mods
	stat $ci/MODS >/dev/null
	rmdir $ci/mods
	ok $? "rmdir mods removes Mods"
	missing $ci/Mods && missing $ci/MODS
	ok $? "after rmdir, every case misses"
	mkdir $ci/MODS
	listed $ci MODS && same_file $ci/MODS $ci/mods
	ok $? "a new MODS is stored as typed and found as mods"

	# +F cleared on the emptied directory: back to exact names.
	mkdir $mnt/flip
	chattr +F $mnt/flip
	missing $mnt/flip/readme && missing $mnt/flip/README
	chattr -F $mnt/flip
	ok $? "chattr -F on the empty directory"
	echo x >$mnt/flip/readme
	missing $mnt/flip/README && ! [ -e $mnt/flip/README ]
	ok $? "without +F, README does not find readme"
	[ -f $mnt/flip/readme ]
	ok $? "without +F, readme is found"
	cf_done
fi

. "$(dirname "$0")/../../lib/host.sh"
casefold_guests
done_testing
