#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# Proton prefixes as Steam leaves them (patched kernel): on a card
# formatted with the casefold feature and no +F directory (as SteamOS
# formats them), two prefixes whose drive_c Steam Cloud filled with saves
# before Proton ran, one empty drive_c, one that Proton made +F, and a
# compatdata entry without a prefix.  gamepart status lists the three that
# are not +F and gives one command for them all (the library's, as its
# directories are not +F either); a dry run of convert --prefixes changes
# nothing; it converts the three and nothing else, every
# directory of each is then +F and holds what it held, status has nothing
# left to advise, and a save opens by a wrong-case path, natively and
# under Wine (layout-client.exe) when the Wine prefix is built.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/convert.sh"
	convert_mount
	lib=$mnt/library
	cd=$lib/steamapps/compatdata
	# save APPID PATH: a save file in the prefix of APPID, its first line
	# naming it.
	save() {
		mkdir -p "$(dirname "$cd/$1/pfx/drive_c/$2")"
		printf '%s\n%s\n' "$1/$2" "$(head -c 3000 /dev/urandom | base64)" \
			>"$cd/$1/pfx/drive_c/$2"
	}
	save 1091500 "users/steamuser/AppData/Local/CD Projekt Red/Cyberpunk 2077/UserSettings.json"
	save 1091500 "users/steamuser/Saved Games/CD Projekt Red/Cyberpunk 2077/ManualSave-0/sav.dat"
	save 1245620 "users/steamuser/AppData/Roaming/EldenRing/76561198000000000/ER0000.sl2"
	mkdir -p $cd/2000/pfx/drive_c
	mkdir -p $cd/3000/pfx/drive_c
	chattr +F $cd/3000/pfx/drive_c
	save 3000 "users/steamuser/Documents/My Games/Proton made this/save.dat"
	mkdir -p $cd/4000
	for id in 1091500 1245620 2000 3000; do
		"$manifest" $cd/$id/pfx/drive_c >/tmp/before-$id.json
	done
	echo '{"convert": {"renames": [], "merges": []}}' >/tmp/no-changes.json

	"$gp" status $lib >/tmp/status 2>/tmp/err
	is $? 0 "status exits 0" || diag "$(cat /tmp/err)"
	grep -qxF "proton prefixes (steamapps/compatdata/*/pfx/drive_c): 4, 1 casefolded" /tmp/status
	ok $? "status counts the prefixes, and the casefolded one" || diag "$(cat /tmp/status)"
	sed -n 's/^  \(steamapps\/compatdata\/[^ ]*\/drive_c\) *\(not casefolded.*\)$/\1 \2/p' /tmp/status >/tmp/listed
	cat >/tmp/listed.expected <<-'EOF'
	steamapps/compatdata/2000/pfx/drive_c not casefolded (empty)
	steamapps/compatdata/1091500/pfx/drive_c not casefolded (holds files)
	steamapps/compatdata/1245620/pfx/drive_c not casefolded (holds files)
	EOF
	diff /tmp/listed.expected /tmp/listed >/tmp/diff
	ok $? "it lists each prefix that is not +F, by APPID, and only those" ||
		diag "$(cat /tmp/diff)"
	grep -qxF "not casefolded: steamapps, steamapps/compatdata, 3 Proton prefixes" /tmp/status
	ok $? "its summary counts them beside the library directories" || diag "$(cat /tmp/status)"
	grep -qxF "next: gamepart convert $lib/steamapps" /tmp/status
	ok $? "and gives one command for them all: the library, which holds them" ||
		diag "$(cat /tmp/status)"

	"$gp" convert --prefixes --dry-run $lib >/tmp/out 2>/tmp/err
	is $? 0 "a dry run of it exits 0" || diag "$(cat /tmp/err)"
	for id in 1091500 1245620 2000; do
		"$manifest" $cd/$id/pfx/drive_c | cmp -s - /tmp/before-$id.json &&
			! has_f $cd/$id/pfx/drive_c
		ok $? "the dry run leaves $id as it was"
	done

	"$gp" convert --prefixes $lib >/tmp/out 2>/tmp/err
	is $? 0 "gamepart convert --prefixes converts: exit 0" || diag "$(cat /tmp/err)"
	is "$(grep -c '^steamapps/compatdata/.*:$' /tmp/out)" 3 \
		"each prefix it converts is a heading of its output"
	for id in 1091500 1245620 2000 3000; do
		drive_c=$cd/$id/pfx/drive_c
		is "$(not_f_dirs $drive_c)" 0 "$id: every directory of drive_c is +F"
		"$manifest" $drive_c >/tmp/after-$id.json
		"$tree" compare /tmp/before-$id.json /tmp/after-$id.json /tmp/no-changes.json >/tmp/diff
		ok $? "$id: drive_c holds what it held" || diag "$(head -n 10 /tmp/diff)"
	done
	! has_f $cd/4000 && ! has_f $cd
	ok $? "nothing outside the prefixes' drive_c was made +F"
	[ -z "$(find $cd -maxdepth 3 -name '.gamepart-convert.*')" ]
	ok $? "no work directory is left"

	"$gp" status $lib >/tmp/status
	grep -qxF "proton prefixes (steamapps/compatdata/*/pfx/drive_c): 4, 4 casefolded" /tmp/status &&
		! grep -q 'Proton prefix' /tmp/status
	ok $? "status then finds every prefix casefolded, and advises nothing" ||
		diag "$(cat /tmp/status)"
	"$gp" convert --prefixes $lib >/tmp/out
	is "$?:$(cat /tmp/out)" "0:$lib: every Proton prefix is casefolded (4)" \
		"converting again has nothing to do"

	wrong="steamapps/compatdata/1245620/pfx/drive_c/USERS/steamuser/appdata/ROAMING/eldenring/76561198000000000/er0000.SL2"
	[ "$(head -n 1 "$lib/$wrong")" = "1245620/users/steamuser/AppData/Roaming/EldenRing/76561198000000000/ER0000.sl2" ]
	ok $? "the kernel opens the save by a wrong-case path"
	if wine_setup; then
		drive_c=$cd/1245620/pfx/drive_c
		printf 'open\t%s\t%s\n' \
			'USERS\STEAMUSER\APPDATA\roaming\ELDENRING\76561198000000000\er0000.SL2' \
			"1245620/users/steamuser/AppData/Roaming/EldenRing/76561198000000000/ER0000.sl2" \
			>$drive_c/references.tsv
		: >$drive_c/probes.tsv
		$wine64 "$top/build/wine/bin/layout-client.exe" --no-changes \
			'Z:\tmp\mnt\library\steamapps\compatdata\1245620\pfx\drive_c' \
			>/tmp/client.out 2>/tmp/client.err
		is "$?:$(grep -c '^ok ' /tmp/client.out)" 0:1 \
			"Wine opens the save by a wrong-case Windows path" ||
			diag "$(tr -d '\r' </tmp/client.out | head -n 5)"
	else
		skip "no Wine prefix (make wine-prefix)" "Wine opens the save by a wrong-case Windows path"
	fi
	unmount_and_fsck
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
gamepart_on_casefold_image 128M --
done_testing
