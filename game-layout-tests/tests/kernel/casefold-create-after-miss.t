#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# A name missed in a +F directory, then created under another case, is
# stored as the creator spelt it and found under every case: for create,
# mkdir, mknod, symlink, link, and the target of rename (plain, with
# RENAME_NOREPLACE, and RENAME_EXCHANGE onto an existing case variant).
# On the patched kernel the miss is a cached negative dentry, which must
# not lend its spelling to the new entry.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	cf_mount
	rename2=$(prog rename2)
	cd $ci || exit 1
	echo data >source.txt
	echo other >swap.txt

	# created_as SPELLING HOW CMD...: after lookups of the lower- and
	# upper-case spellings missed, CMD creates SPELLING.
	created_as() {
		local name=$1 how=$2 lower upper
		shift 2
		lower=${name,,} upper=${name^^}
		missing "$lower" && missing "$upper"
		ok $? "$how: $lower and $upper missing before"
		"$@"
		ok $? "$how: creates $name"
		listed . "$name" && ! listed . "$lower" && ! listed . "$upper"
		ok $? "$how: readdir shows $name as typed"
		same_file "$name" "$lower" && same_file "$name" "$upper"
		ok $? "$how: $lower and $upper find $name"
	}
	created_as Save1.Dat create touch Save1.Dat
	created_as Maps2 mkdir mkdir Maps2
	created_as Pipe3 mknod mknod Pipe3 p
	created_as Link4.Lnk symlink ln -s source.txt Link4.Lnk
	created_as Hard5.Txt link ln source.txt Hard5.Txt
	touch moved6.tmp
	created_as Moved6.Txt rename mv moved6.tmp Moved6.Txt
	touch moved7.tmp
	created_as Moved7.Txt "rename (RENAME_NOREPLACE)" \
		"$rename2" --noreplace moved7.tmp Moved7.Txt

	# RENAME_EXCHANGE needs an existing target: a miss stays a miss.
	missing swap8.txt
	"$rename2" --exchange source.txt SWAP8.TXT 2>/dev/null
	is $? 1 "RENAME_EXCHANGE onto a missing name fails"
	"$rename2" --exchange source.txt SWAP.TXT
	ok $? "RENAME_EXCHANGE onto SWAP.TXT, a case variant of swap.txt"
	is "$(cat swap.txt)" data "after the exchange, swap.txt holds source.txt's data"
	is "$(cat SOURCE.TXT)" other "and SOURCE.TXT holds swap.txt's"
	is "$(ls | grep -ci '^s[ow]' | tr -d ' ')" 2 "still two entries, no duplicate"

	# A second create under a third spelling fails: one name.
	touch SAVE1.DAT 2>/dev/null
	! mkdir save1.dat 2>/dev/null
	ok $? "mkdir save1.dat fails beside Save1.Dat"
	is "$(ls | grep -ci '^save1.dat$' | tr -d ' ')" 1 "one entry for Save1.Dat"
	cf_done
fi

. "$(dirname "$0")/../../lib/host.sh"
require_prog rename2
casefold_guests
done_testing
