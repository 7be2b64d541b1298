#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest full
# kernels: one
# The e2fsprogs series as Debian packages (make e2fsprogs-deb), installed
# with apt over the system's 1.47.0 in the systemd guest, after the
# gamepart package (make deb); apt then finds every dependency met.
# Before, the packaged gamepart, linked with the system's libext2fs,
# refuses the Windows encoding; after, the same binary folds it through
# the upgraded libext2fs2, and gamepart create makes a card in it with
# the packaged mke2fs, which the patched kernel mounts (straße.txt and
# strasse.txt two files), the packaged dumpe2fs names and the packaged
# e2fsck finds clean.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/units.sh"
	. "$guest_lib/casefold.sh"
	gamepart_deb=$2 e2fsprogs_debs=$3
	wait_for_jobs
	ok $? "the jobs of the boot finish"
	install_gamepart_deb "$gamepart_deb"
	/usr/sbin/gamepart fold --encoding utf8-windows-12.1 x >/dev/null 2>/tmp/err
	is $? 2 "the packaged gamepart, on the system's libext2fs, cannot fold utf8-windows-12.1"

	# The guest's dpkg database is the host's: Debian's e2fsprogs.
	system_version=$(dpkg-query -W -f='${Version}' e2fsprogs)
	# As the README says to install them: apt orders them (e2fsprogs
	# pre-depends on exactly its own libext2fs2) and upgrades the -dev
	# packages the host has with them.
	apt-get install -y -q "$e2fsprogs_debs"/*.deb >/tmp/apt.log 2>&1
	ok $? "apt install of every package make e2fsprogs-deb made" ||
		diag "$(tail -n 20 /tmp/apt.log)"
	apt-get check >/tmp/apt-check.log 2>&1 && [ -z "$(dpkg --audit)" ]
	ok $? "apt-get check and dpkg --audit find every dependency met" ||
		diag "$(tail -n 10 /tmp/apt-check.log)" "$(dpkg --audit | head -n 10)"
	version=$(dpkg-query -W -f='${Version}' e2fsprogs)
	case $version in *+gamepart*) true ;; *) false ;; esac
	ok $? "dpkg knows e2fsprogs $version"
	dpkg --compare-versions "$version" gt "$system_version"
	ok $? "a version apt takes as newer than the system's $system_version"
	is "$(dpkg-query -W -f='${Version}' libext2fs2)" "$version" "libext2fs2 $version, the same"
	lib=$(ldd /usr/sbin/gamepart | awk '$1 == "libext2fs.so.2" { print $3 }')
	dpkg-query -S "$lib" | grep -q '^libext2fs2:'
	ok $? "gamepart loads libext2fs2's library ($lib)"

	folds=$(/usr/sbin/gamepart fold --encoding utf8-windows-12.1 straße.txt strasse.txt STRAßE.TXT)
	is "$folds" "$(printf 'straße.txt\nstrasse.txt\nstraße.txt')" \
		"the same gamepart folds utf8-windows-12.1 now: straße and strasse apart, STRAßE is straße"
	# Labelled so that the installed udev rule leaves it to this test.
	/usr/sbin/gamepart create --encoding utf8-windows-12.1 --label testcard /dev/vda >/tmp/create.log 2>&1
	ok $? "gamepart create --encoding utf8-windows-12.1, with the packaged mke2fs" ||
		diag "$(tail -n 10 /tmp/create.log)"
	is "$(dumpe2fs -h /dev/vda 2>&1 | sed -n 's/^Character encoding: *\([^ ]*\).*/\1/p')" utf8-windows-12.1 \
		"the packaged dumpe2fs names the encoding"
	mkdir -p $mnt && mount /dev/vda $mnt && cd $mnt/steamapps/common &&
		touch straße.txt strasse.txt && [ "$(ls | wc -l)" = 2 ] &&
		same_file STRAßE.TXT straße.txt
	ok $? "the kernel mounts it: straße.txt and strasse.txt are two files, STRAßE.TXT finds the first"
	cd /
	umount $mnt
	e2fsck -fn /dev/vda >/tmp/fsck 2>&1
	ok $? "the packaged e2fsck -fn finds it clean" || diag "$(tail -n 10 /tmp/fsck)"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
require_kernel "$(the_kernel)"
[ -f "$build/deb/gamepart.deb" ] || skip_all "no $build/deb/gamepart.deb (make deb)"
ls "$build"/e2fsprogs-deb/e2fsprogs_*.deb >/dev/null 2>&1 ||
	skip_all "no e2fsprogs packages in $build/e2fsprogs-deb (make e2fsprogs-deb)"
make_scratch
truncate -s 64M "$scratch/card.img"
guest_run "$(the_kernel)" --systemd --writable-usr --disk "$scratch/card.img" -- \
	"$build/deb/gamepart.deb" "$build/e2fsprogs-deb"
done_testing
