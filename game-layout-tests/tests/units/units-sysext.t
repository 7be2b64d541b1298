#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest slow
# kernels: one
# The systemd-sysext image (make sysext) in the systemd guest, for a
# system whose /usr is read-only (SteamOS): systemd-sysext merges it over
# /usr, and once systemd and udev reload, the report's timer is wanted by
# timers.target and a card inserted is provisioned for the first regular
# user and mounted by the image's rule and units; once the card is
# pulled, unmerging leaves nothing: no file of the image under /usr, no
# unit systemd knows, nothing written to /etc or /var.  The squashfs
# image (gamepart.raw) holds the very tree that was merged.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/units.sh"
	image=$2 card_img=$3 listing=$4
	wait_for_jobs
	ok $? "the jobs of the boot finish"
	getent passwd 1000 >/dev/null || useradd -u 1000 -U -M -s /usr/sbin/nologin deck
	gid=$(getent passwd 1000 | cut -d: -f4)
	touch /run/before-merge

	(cd "$image" && find . | sort) >/tmp/tree
	cmp -s /tmp/tree "$listing"
	ok $? "gamepart.raw lists the tree of the image directory" ||
		diag "$(diff /tmp/tree "$listing" | head -n 10)"
	[ ! -e /usr/sbin/gamepart ]
	ok $? "no gamepart in /usr before the merge"
	mkdir -p /run/extensions
	cp -a "$image" /run/extensions/gamepart
	systemd-sysext merge >/tmp/sysext.log 2>&1
	ok $? "systemd-sysext merge" || diag "$(cat /tmp/sysext.log)"
	systemd-sysext status --no-pager >/tmp/status 2>&1
	grep -q "gamepart" /tmp/status
	ok $? "systemd-sysext status lists it" || diag "$(cat /tmp/status)"
	/usr/sbin/gamepart --version >/dev/null
	ok $? "/usr/sbin/gamepart runs from the image"
	systemctl daemon-reload && udevadm control --reload
	ok $? "systemd and udev reload"
	# (/lib is /usr/lib on a merged-/usr system, and comes first.)
	is "$(readlink -f "$(systemctl show -P FragmentPath gamepart-mount@8:1.service)")" \
		/usr/lib/systemd/system/gamepart-mount@.service "systemd loads the image's mount unit"
	systemctl show -P WantedBy gamepart-report.timer | grep -qw timers.target
	ok $? "the report's timer is wanted by timers.target (the image's own link)"

	insert_card "$card_img" card /dev/vda1 "a card, with the image's rule and units"
	id=$card_id
	is "$(stat -c %u:%g "$card/steamapps")" "1000:$gid" "and belongs to the first regular user"
	setpriv --reuid=1000 --regid="$gid" --init-groups touch "$card/steamapps/libraryfolder.vdf"
	ok $? "uid 1000 writes libraryfolder.vdf"

	pull_card card /dev/vda
	is "$(systemctl is-active "gamepart-mount@$id.service")" inactive "the card is pulled: its units stop"

	systemd-sysext unmerge >/tmp/sysext.log 2>&1
	ok $? "systemd-sysext unmerge" || diag "$(cat /tmp/sysext.log)"
	rm -rf /run/extensions/gamepart
	systemctl daemon-reload && udevadm control --reload
	left=
	while IFS= read -r f; do
		f=${f#.}
		case $f in /usr/*) ;; *) continue ;; esac
		[ -d "$image$f" ] && [ ! -L "$image$f" ] && continue
		[ -e "$f" ] || [ -L "$f" ] && left="$left $f"
	done <"$listing"
	is "$left" "" "no file of the image is left under /usr"
	is "$(systemctl list-unit-files --no-legend 'gamepart*')" "" "systemd knows none of its units"
	# (/var/tmp is the host's, under an overlay: not the guest system's.)
	is "$(find /etc /var -path /var/tmp -prune -o -newer /run/before-merge -name '*gamepart*' -print 2>/dev/null)" "" \
		"nothing of it was written to /etc or /var"
	is "$(findmnt -rn -o TARGET | grep -c '^/run/media/gamedata')" 0 "nothing is left mounted"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/units.sh"
require_kernel "$(the_kernel)"
image=$build/sysext/gamepart
[ -d "$image" ] && [ -f "$build/sysext/gamepart.raw" ] || skip_all "no $image (make sysext)"
require_cmd sfdisk setpriv useradd unsquashfs
make_scratch
gpt_image "$scratch/card.img" 96M gamedata-new
# What the squashfs image holds, as find lists it, for the guest to
# compare with the directory it merges.
unsquashfs -d "$scratch/raw" "$build/sysext/gamepart.raw" >/dev/null
ok $? "unsquashfs gamepart.raw"
(cd "$scratch/raw" && find . | sort) >"$scratch/raw.list"
guest_run "$(the_kernel)" --systemd -- "$(realpath "$image")" "$scratch/card.img" "$scratch/raw.list"
done_testing
