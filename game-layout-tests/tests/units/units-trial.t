#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: full slow
# kernels: one
# The handheld trial, end to end, in the systemd guest as a user would go
# through it: the Debian package installed; a fresh card inserted is
# provisioned for the first regular user (uid 1000) and mounted; a Steam
# library on another filesystem (case-sensitive, as btrfs: an overlay),
# with a modded game whose folders collide in case, is looked at with
# check and brought over with import (merge): nothing is lost, all of it
# belongs to uid 1000; Steam-like writes as uid 1000 succeed; the weekly
# report runs; the card pulled and inserted again lands at the same path
# with everything on it.  What each step printed is shown (diag), for
# the record of the trial.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/units.sh"
	deb=$2 card_img=$3
	show() {
		diag "\$ $*"
		"$@" >/tmp/show 2>&1
		local rc=$?
		diag "$(sed 's/^/  /' /tmp/show)"
		return $rc
	}
	wait_for_jobs
	getent passwd 1000 >/dev/null || useradd -u 1000 -U -M -s /usr/sbin/nologin deck
	user=$(getent passwd 1000 | cut -d: -f1)
	gid=$(getent passwd 1000 | cut -d: -f4)
	as_user() {
		setpriv --reuid=1000 --regid="$gid" --init-groups "$@"
	}
	install_gamepart_deb "$deb" 1.

	insert_card "$card_img" card /dev/vda1 "2. a fresh card"
	id=$card_id
	diag "journal of gamepart-provision@$id and gamepart-mount@$id:"
	diag "$(journalctl -b -o cat -u "gamepart-provision@$id.service" -u "gamepart-mount@$id.service" | sed 's/^/  /')"
	is "$(stat -c %u "$card/steamapps/common")" 1000 "2. its library belongs to $user"

	# A library on a case-sensitive filesystem that is not ext4.
	base=/run/old
	mkdir -p $base/lower $base/rw $base/library
	mount -t tmpfs tmpfs $base/rw
	mkdir -p $base/rw/upper $base/rw/work
	"$tree" make-mods $base/lower
	mkdir -p $base/lower/steamapps/common/Portal
	echo '"AppState" { "appid" "400" }' >$base/lower/steamapps/appmanifest_400.acf
	head -c 100000 /dev/urandom >$base/lower/steamapps/common/Portal/portal.vpk
	mount -t overlay overlay -o lowerdir=$base/lower,upperdir=$base/rw/upper,workdir=$base/rw/work \
		$base/library
	src=$base/library
	"$manifest" $src >/tmp/src.json
	show gamepart check $src
	is $? 1 "3. check looks at the library where it is, and finds the mod folders' collisions"
	show gamepart import --on-collision=merge --json $src "$card"
	ok $? "3. import --on-collision=merge brings it onto the card"
	cp /tmp/show /tmp/import.json
	"$tree" imported /tmp/src.json "$card" /tmp/import.json >/tmp/diff 2>&1
	ok $? "3. every file of the library is on the card, where the report says" ||
		diag "$(head -n 20 /tmp/diff)"
	is "$(find "$card/steamapps" -not -user 1000 | wc -l)" 0 "3. all of it belongs to $user"
	is "$(not_f_dirs "$card/steamapps")" 0 "3. every directory of the library is +F"

	as_user sh -c "echo '\"libraryfolder\" {}' >'$card/steamapps/libraryfolder.vdf'" &&
		as_user mkdir "$card/steamapps/common/Half-Life 2" &&
		as_user mkdir -p "$card/steamapps/compatdata/400/pfx/drive_c" &&
		as_user sh -c "echo update >>'$card/steamapps/common/ModdedGame/Data/meshes/a.nif'" &&
		as_user cat "$card/steamapps/Common/portal/PORTAL.VPK" >/dev/null
	ok $? "4. as $user: libraryfolder.vdf written, a game installed, a prefix made, an imported file updated and one read in another case"

	show systemctl start gamepart-report.service
	ok $? "5. the weekly report runs"
	diag "$(journalctl -b -o cat -u gamepart-report.service | sed 's/^/  /')"

	pull_card card /dev/vda
	ok $? "6. the card is pulled"
	hot_plug "$card_img" card2 /dev/vda1
	wait_for_jobs
	again=$(mount_point_of /dev/vda1)
	is "$again" "$card" "6. inserted again, it lands at the same path"
	[ -f "$again/steamapps/libraryfolder.vdf" ] &&
		[ -d "$again/steamapps/common/Half-Life 2" ] &&
		cmp -s "$src/steamapps/common/Portal/portal.vpk" "$again/steamapps/common/Portal/portal.vpk"
	ok $? "6. with the library and what $user wrote on it"
	show gamepart status "$again"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/units.sh"
require_kernel "$(the_kernel)"
deb=$build/deb/gamepart.deb
[ -f "$deb" ] || skip_all "no $deb (make deb)"
require_cmd sfdisk dpkg setpriv useradd jq
make_scratch
gpt_image "$scratch/card.img" 128M gamedata-new
guest_run "$(the_kernel)" --systemd --writable-usr -- "$deb" "$scratch/card.img"
done_testing
