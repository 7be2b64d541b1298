#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# Paths printed back show each name of a +F directory as stored, whatever
# spelling reached it, as on Windows: with a cold cache, chdir("DATA")
# into Data then getcwd() gives .../Data, /proc/self/fd of a file opened
# as README.TXT shows Readme.txt, for short names (stored in the dentry)
# and long ones (stored apart), and for a spelling of another length
# (U+212A KELVIN SIGN for K).  A later lookup in a third spelling, from
# the cache, shows the stored one too.  On stock 6.1 the first lookup's
# spelling sticks.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	role=$2
	cf_mount
	long=Textures_Of_The_Second_Chapter_Of_The_Game
	mkdir -p $ci/Data $ci/$long $ci/Kelvin
	echo text >$ci/Data/Readme.txt
	cd / && umount $mnt && mount_disk /dev/vda $mnt

	# cwd_in DIR: getcwd() after chdir(DIR).  Not bash's pwd -P, which
	# rebuilds the path from the string given to cd.
	cwd_in() { (cd "$1" && python3 -c 'import os; print(os.getcwd())'); }
	if [ $role = stock ]; then
		is "$(cwd_in $ci/DATA)" $ci/DATA "stock: getcwd() shows the spelling of the lookup"
		cf_done
	fi
	is "$(cwd_in $ci/DATA)" $ci/Data "getcwd() after chdir(DATA) shows Data, as stored"
	is "$(cwd_in $ci/data)" $ci/Data "and so after chdir(data), answered from the cache"
	exec 3<$ci/DATA/README.TXT
	is "$(readlink /proc/self/fd/3)" $ci/Data/Readme.txt \
		"/proc/self/fd of a file opened as DATA/README.TXT shows Data/Readme.txt"
	exec 3<&-
	is "$(cwd_in $ci/${long^^})" $ci/$long "a name too long for the dentry shows as stored"
	is "$(cwd_in $ci/$'\xe2\x84\xaa'ELVIN)" $ci/Kelvin \
		"a spelling of another length (U+212A) reaches Kelvin, shown as stored"
	cf_done
fi

. "$(dirname "$0")/../../lib/host.sh"
casefold_guests
done_testing
