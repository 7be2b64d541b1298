#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: one
# A guest can ask QEMU's monitor, through vmctl, to unplug one of its
# disks while it runs (what the systemd tests do to a mounted card).

. "$(dirname "$0")/../../lib/host.sh"
require_kernel "$(the_kernel)"
make_scratch
truncate -s 16M "$scratch/a.img" "$scratch/b.img"

out=$("$vmrun" --kernel "$(kernel_image "$(the_kernel)")" \
	--disk "$scratch/a.img" --disk "$scratch/b.img" -- sh -c '
	test -b /dev/vdb && echo present
	vmctl monitor device_del vdisk1 >/dev/null
	# Unplug completes asynchronously (ACPI eject): wait for the node,
	# bounded at 60 seconds.
	. '"$tests_lib"'/poll.sh
	poll_while 60 test -b /dev/vdb
	test -b /dev/vdb || echo gone
	test -b /dev/vda && echo other-kept')
is "$(echo $out)" "present gone other-kept" \
	"device_del through vmctl unplugs vdb and leaves vda"
done_testing
