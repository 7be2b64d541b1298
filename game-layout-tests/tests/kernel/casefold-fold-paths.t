#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# Cases the review of the series asked for, on both kernels: a miss
# cached for one spelling, then a name created that folds the same way
# by another path of the folding tables (KELVIN SIGN for k, ß for ss);
# renames between a +F and a plain directory, then lookups in another
# case; and +F set and cleared twice on one directory, each time with a
# miss cached before the change.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	cf_mount

	kelvin=$(printf '\xe2\x84\xaaelvin.txt')		# KELVIN SIGN, elvin.txt
	missing "$ci/kelvin.txt" && missing "$ci/KELVIN.TXT"
	echo k >"$ci/$kelvin"
	listed $ci "$kelvin" && same_file "$ci/$kelvin" "$ci/kelvin.txt" &&
		same_file "$ci/$kelvin" "$ci/KELVIN.TXT"
	ok $? "after misses of kelvin.txt, a name with KELVIN SIGN is stored as typed and found as kelvin.txt"
	sharp=$(printf 'stra\xc3\x9fe')			# straße
	missing "$ci/strasse" && missing "$ci/STRASSE"
	mkdir "$ci/$sharp"
	listed $ci "$sharp" && same_file "$ci/$sharp" "$ci/strasse" &&
		same_file "$ci/$sharp" "$ci/STRASSE"
	ok $? "after misses of strasse, straße is stored as typed and found as strasse and STRASSE"

	echo x >$ci/Foo.txt
	mv $ci/Foo.txt $cs/
	missing $ci/foo.txt && missing $ci/Foo.txt && [ -f $cs/Foo.txt ] && missing $cs/FOO.TXT
	ok $? "Foo.txt moved from +F to plain: gone from +F under every case, exact only in plain"
	mv $cs/Foo.txt $ci/
	same_file $ci/Foo.txt $ci/FOO.TXT && missing $cs/Foo.txt
	ok $? "moved back to +F: FOO.TXT finds it again"
	mkdir $cs/Mods && touch $cs/Mods/Readme.txt
	mv $cs/Mods $ci/
	same_file $ci/Mods $ci/MODS && same_file $ci/Mods/Readme.txt $ci/MODS/Readme.txt
	ok $? "a plain directory moved under +F: MODS finds it"
	missing $ci/MODS/README.TXT && [ -f $ci/MODS/Readme.txt ]
	ok $? "inside the moved directory, which is not +F, README.TXT is not Readme.txt"
	mv $ci/Mods $cs/
	missing $cs/MODS && missing $ci/mods && [ -f $cs/Mods/Readme.txt ]
	ok $? "moved back to plain: MODS misses there, mods misses in +F"

	mkdir $mnt/rt
	for round in 1 2; do
		chattr +F $mnt/rt && missing $mnt/rt/README && touch $mnt/rt/readme &&
			same_file $mnt/rt/readme $mnt/rt/README && rm $mnt/rt/README
		ok $? "round $round: +F, a miss of README, then readme is found as README"
		chattr -F $mnt/rt && missing $mnt/rt/readme && touch $mnt/rt/readme &&
			missing $mnt/rt/README && rm $mnt/rt/readme
		ok $? "round $round: -F, a miss of readme, then README does not find readme"
	done
	cf_done
fi

. "$(dirname "$0")/../../lib/host.sh"
casefold_guests
done_testing
