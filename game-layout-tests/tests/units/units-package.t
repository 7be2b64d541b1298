#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest slow
# kernels: one
# The Debian package (make deb) in the systemd guest, on a /usr of its own:
# dpkg -i installs it and enables the weekly report's timer the Debian way
# (deb-systemd-helper, from dh_installsystemd); a card inserted then is
# provisioned and mounted by the installed rule and units, with OWNER=
# empty and nobody at the screen for the first regular user (uid 1000, as
# on SteamOS), who can then write the library as Steam does;
# once the card is pulled, dpkg --purge leaves nothing behind: no file of
# the package, no configuration, no unit, no enablement symlink.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/units.sh"
	deb=$2 card_img=$3
	wait_for_jobs
	ok $? "the jobs of the boot finish"
	getent passwd 1000 >/dev/null || useradd -u 1000 -U -M -s /usr/sbin/nologin deck
	gid=$(getent passwd 1000 | cut -d: -f4)

	install_gamepart_deb "$deb"
	dpkg-query -L gamepart >/tmp/files
	is "$(dpkg-query -W -f='${db:Status-Status}' gamepart)" installed "dpkg knows it installed"
	is "$(systemctl is-enabled gamepart-report.timer)" enabled "the report's timer is enabled"
	is "$(systemctl is-active gamepart-report.timer)" active "and started"
	is "$(systemctl show -P FragmentPath gamepart-mount@8:1.service)" \
		/lib/systemd/system/gamepart-mount@.service "systemd loads the packaged mount unit"
	[ -f /etc/gamepart.conf ] && dpkg-query -W -f='${Conffiles}' gamepart | grep -q ' /etc/gamepart.conf '
	ok $? "/etc/gamepart.conf is a conffile"

	insert_card "$card_img" card /dev/vda1 "a card, with the packaged rule and units"
	id=$card_id

	# OWNER= empty, nobody at the screen: the first regular user's.
	user=$(getent passwd 1000 | cut -d: -f1)
	log=$(journalctl -b -o cat -u "gamepart-provision@$id.service")
	grep -qxF "gamepart: provision: OWNER= is empty: the library goes to the first regular user (1000:$gid)" <<<"$log" &&
		grep -qxF "/dev/vda1: the library belongs to $user (1000:$gid), as --owner asked" <<<"$log"
	ok $? "the journal says the library went to the first regular user, $user" || diag "$log"
	for d in "" steamapps steamapps/common steamapps/compatdata; do
		is "$(stat -c %u:%g "$card/$d")" "1000:$gid" "/$d belongs to $user"
	done
	as_user() {
		setpriv --reuid=1000 --regid="$gid" --init-groups "$@"
	}
	as_user touch "$card/steamapps/libraryfolder.vdf" &&
		as_user mkdir "$card/steamapps/common/Half-Life 2" &&
		as_user mkdir -p "$card/steamapps/compatdata/220/pfx/drive_c"
	ok $? "uid 1000 writes libraryfolder.vdf, installs a game folder, makes a Proton prefix"
	has_f "$card/steamapps/common/Half-Life 2"
	ok $? "the game folder is +F, inherited from common"

	pull_card card /dev/vda
	is "$(systemctl is-active "gamepart-mount@$id.service")" inactive "the card is pulled: its units stop"

	dpkg --purge gamepart >/tmp/dpkg.log 2>&1
	ok $? "dpkg --purge gamepart" || diag "$(tail -n 20 /tmp/dpkg.log)"
	left=
	: >/tmp/dirs
	while IFS= read -r f; do
		[ "$f" = /. ] && continue
		if [ -d "$f" ]; then
			echo "$f" >>/tmp/dirs
		elif [ -e "$f" ] || [ -L "$f" ]; then
			left="$left $f"
		fi
	done </tmp/files
	# Directories other packages share (/usr/sbin, /lib/systemd/system)
	# stay.  One dpkg-query for them all: each call reads the file lists
	# of every installed package, seconds under TCG.
	xargs -r -d '\n' dpkg-query -S </tmp/dirs 2>/dev/null | sed 's/.*: //' >/tmp/shared
	while IFS= read -r d; do
		grep -qxF -- "$d" /tmp/shared || left="$left $d"
	done </tmp/dirs
	is "$left" "" "no file or directory of the package is left"
	[ ! -e /etc/gamepart.conf ]
	ok $? "the configuration is gone"
	is "$(find /etc/systemd /var/lib/systemd -name '*gamepart*' 2>/dev/null)" "" \
		"no enablement symlink or state of its units is left"
	is "$(systemctl list-unit-files --no-legend 'gamepart*')" "" "systemd knows none of its units"
	is "$(findmnt -rn -o TARGET | grep -c '^/run/media/gamedata')" 0 "nothing is left mounted"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/units.sh"
require_kernel "$(the_kernel)"
deb=$build/deb/gamepart.deb
[ -f "$deb" ] || skip_all "no $deb (make deb)"
require_cmd sfdisk dpkg setpriv useradd
make_scratch
gpt_image "$scratch/card.img" 96M gamedata-new
guest_run "$(the_kernel)" --systemd --writable-usr -- "$deb" "$scratch/card.img"
done_testing
