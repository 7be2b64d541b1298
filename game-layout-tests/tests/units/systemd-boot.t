#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest slow
# kernels: each
# The guest kernel's configuration is enough for systemd as PID 1: it
# reaches its default target (the rig's vmrun.target, over basic.target)
# with no failed unit, from a guest /etc of its own (not the host's fstab
# and units), and then multi-user.target, logind and all, which the rig's
# guests skip at boot.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	is "$(cat /proc/1/comm)" systemd "PID 1 is systemd"
	state=$(systemctl is-system-running --wait)
	is "$state" running "the system finishes booting and is running"
	[ "$state" = running ] || diag "$(systemctl --failed --no-legend)"
	is "$(systemctl is-active vmrun.target)" active "the default target is reached"
	is "$(systemctl get-default)" vmrun.target "the guest's own default target"
	systemctl start multi-user.target
	ok $? "multi-user.target starts"
	is "$(systemctl is-active multi-user.target systemd-logind.service | sort -u)" active \
		"multi-user.target and logind are active"
	is "$(systemctl --failed --no-legend)" "" "no unit failed"
	! [ -s /etc/fstab ]
	ok $? "the guest /etc has an empty fstab, not the host's"
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
# The stock kernel has the same configuration; under TCG a systemd boot
# costs minutes, so make check boots one kernel and check-full each.
kernels=$(the_kernel)
[ -n "${GAMEPART_FULL:-}${GAMEPART_KERNELS:-}" ] && kernels=$(test_kernels)
require_kernel $kernels
for kernel in $kernels; do
	guest_run "$kernel" --systemd --
done
done_testing
