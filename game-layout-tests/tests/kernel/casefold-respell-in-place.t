#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: patched
# How a rename to another spelling of a name in a +F directory writes the
# directory: a new spelling that fits the old entry's record (every change
# of case among ASCII letters) is written over the old one in place, so
# the entry keeps its position and the file never lacks a name; readdir of
# a linear directory shows it where it was, not in the first hole that
# would hold it, where deleting the old entry and adding the new one put
# it (the order before the second review's A6).  A longer spelling that
# finds no room, in a full directory on a full filesystem, fails with
# ENOSPC and leaves the old spelling (the old entry goes back in the space
# it left); a same-length one still succeeds there, since it needs none.
# A 255-byte name whose other spelling is longer than an entry holds
# (U+212A KELVIN SIGN takes three bytes where k takes one) is refused with
# ENAMETOOLONG.  e2fsck finds the filesystem clean after all of it.  The
# image has no dir_index, so that its directories stay linear and readdir
# shows their order on disk.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	rename2=$(prog rename2)
	cf_mount

	# order DIR: DIR's names in the order readdir gives, "." and ".."
	# left out.
	order() {
		ls -f -- "$1" | grep -vx '\.\|\.\.' | tr '\n' ' ' | sed 's/ $//'
	}
	# rename_error OLD NEW: rename(2) by progs/rename2, and the error
	# it reports (strerror's text), or nothing.
	rename_error() {
		"$rename2" "$1" "$2" 2>&1 | sed 's/.*: //'
	}

	mkdir $ci/order
	for name in aaaa free-this-entry-to-leave-a-hole bbbb save.dat; do
		echo "$name" >$ci/order/$name
	done
	rm $ci/order/free-this-entry-to-leave-a-hole
	is "$(order $ci/order)" "aaaa bbbb save.dat" \
		"before: readdir order, with a hole after aaaa"
	is "$(rename_error $ci/order/save.dat $ci/order/SAVE.DAT)" "" \
		"rename(save.dat, SAVE.DAT) succeeds"
	is "$(order $ci/order)" "aaaa bbbb SAVE.DAT" \
		"the new spelling is written where the old one was, not in the hole"
	is "$(cat $ci/order/Save.Dat)" save.dat "the file is the same"

	# A directory whose every block is full, on a filesystem with no
	# free block: the names are created after the data took the space,
	# until the directory would need a block more.
	mkdir $ci/full
	# kkkkkkk1 takes a record of 16 bytes; with seven KELVIN SIGNs it
	# is 22 bytes long and needs 32, more than any block has free.
	long=kkkkkkk1
	kelvin=$(printf '\xe2\x84\xaa%.0s' 1 2 3 4 5 6 7)1
	echo first >$ci/full/$long
	echo same >$ci/full/same0001
	dd if=/dev/zero of=$mnt/space bs=1M 2>/dev/null
	i=0
	while { : >$ci/full/$(printf 'n%07d' $i); } 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 20000 ] || break
	done
	sync
	is "$(rename_error $ci/full/$long $ci/full/$kelvin)" "No space left on device" \
		"a longer spelling with no room for it fails with ENOSPC"
	listed $ci/full $long && ! listed $ci/full "$kelvin"
	ok $? "and the old spelling stays"
	is "$(cat $ci/full/KKKKKKK1)" first "the file is found under any spelling"
	is "$(rename_error $ci/full/same0001 $ci/full/SAME0001)" "" \
		"a same-length spelling succeeds on the full filesystem"
	listed $ci/full SAME0001 && ! listed $ci/full same0001
	ok $? "and is stored"
	dmesg | grep -q "lost its name"
	ok $((!$?)) "the kernel reports no name lost"
	rm -f $mnt/space

	name255=k$(printf 'x%.0s' $(seq 254))
	touch $ci/$name255
	is "$(rename_error $ci/$name255 $ci/$'\xe2\x84\xaa'${name255#k})" "File name too long" \
		"a 255-byte name's 257-byte spelling is refused with ENAMETOOLONG"
	listed $ci $name255
	ok $? "and the name is kept"

	cf_done_fsck
fi

. "$(dirname "$0")/../../lib/host.sh"
require_prog rename2
casefold_guests -O ^dir_index
done_testing
