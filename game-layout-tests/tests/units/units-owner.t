#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest slow
# A card provisioned by the units with the default configuration (OWNER=
# empty) belongs to the first regular user, uid 1000 as on SteamOS, when
# nobody sits at the screen: Steam, running as that user, can write its
# library (libraryfolder.vdf, a game folder, a Proton prefix), and the
# journal says whom the library went to and why.  (The user of seat0's
# active session, preferred when there is one, is tested with a stand-in
# loginctl in units-verify.t: our guest kernel has no virtual terminals,
# so no session sits on seat0.)

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/units.sh"
	wait_for_jobs
	ok $? "the units' jobs all finish at boot"

	# The guest's /etc is its own copy: a machine without a user 1000
	# gets one, as a SteamOS install has "deck".
	if ! getent passwd 1000 >/dev/null; then
		useradd -u 1000 -U -M -s /usr/sbin/nologin deck
		ok $? "a regular user 1000 (deck) in the guest's /etc"
	fi
	user=$(getent passwd 1000 | cut -d: -f1)
	gid=$(getent passwd 1000 | cut -d: -f4)

	vmctl monitor drive_add 0 "if=none,id=card,file=$2,format=raw" >/dev/null
	vmctl monitor device_add virtio-blk-pci,drive=card,id=cardslot >/dev/null
	i=0
	while [ ! -b /dev/vda1 ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	[ -b /dev/vda1 ]
	ok $? "the card appears"
	wait_for_jobs
	ok $? "its units' jobs finish"
	card=$(mount_point_of /dev/vda1)
	[ -n "$card" ]
	ok $? "provisioned and mounted ('$card')" ||
		diag "$(journalctl -b -o cat -u "gamepart-*@$(devno vda1).service" | tail -n 20)"

	log=$(journalctl -b -o cat -u "gamepart-provision@$(devno vda1).service")
	grep -qxF "gamepart: provision: OWNER= is empty: the library goes to the first regular user (1000:$gid)" <<<"$log"
	ok $? "the journal says the library goes to the first regular user" || diag "$log"
	grep -qxF "/dev/vda1: the library belongs to $user (1000:$gid), as --owner asked" <<<"$log"
	ok $? "and gamepart create says whom it belongs to"
	for d in "" steamapps steamapps/common steamapps/compatdata; do
		is "$(stat -c %u:%g "$card/$d")" "1000:$gid" "/$d belongs to $user"
	done

	as_user() {
		setpriv --reuid=1000 --regid="$gid" --init-groups "$@"
	}
	as_user touch "$card/steamapps/libraryfolder.vdf"
	ok $? "uid 1000 writes steamapps/libraryfolder.vdf"
	as_user mkdir "$card/steamapps/common/Half-Life 2"
	ok $? "uid 1000 installs a game folder"
	as_user mkdir -p "$card/steamapps/compatdata/220/pfx/drive_c"
	ok $? "uid 1000 makes a Proton prefix"
	has_f "$card/steamapps/common/Half-Life 2"
	ok $? "the game folder is +F, inherited from common"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/units.sh"
units_setup
require_cmd setpriv useradd
gpt_image "$scratch/card.img" 96M gamedata-new
guest_run patched --systemd --install "$scratch/stage" -- "$scratch/card.img"
done_testing
