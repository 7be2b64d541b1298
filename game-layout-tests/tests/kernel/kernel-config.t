#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# The built guest kernels carry the options the rig, the tests, systemd
# and Wine rely on (the traps of tinyconfig undone) and the other users of
# fs/nls the NLS tests mount, and the stock and patched kernels share one
# configuration but for what only the series defines (its KUnit tests);
# the distribution-like pair shares another, with what distributions put
# on the path of a lookup.

. "$(dirname "$0")/../../lib/host.sh"
require_kernel stock patched stock-distro distro
config=$build/kernel/config

for opt in 64BIT PRINTK BUG SLUB EXT4_FS UNICODE UNICODE_NORMALIZATION_SELFTEST \
	VIRTIO_BLK 9P_FS NET_9P_VIRTIO SERIAL_8250_CONSOLE CGROUPS NAMESPACES \
	FHANDLE INOTIFY_USER SIGNALFD TIMERFD EPOLL UNIX TMPFS_XATTR DEVTMPFS \
	AUTOFS_FS FUTEX SHMEM EVENTFD OVERLAY_FS LKDTM HOTPLUG_PCI_ACPI \
	NLS NLS_UTF8 NLS_ISO8859_1 NLS_CODEPAGE_437 VFAT_FS EXFAT_FS ISO9660_FS \
	JOLIET UDF_FS; do
	grep -qx "CONFIG_$opt=y" "$config"
	ok $? "CONFIG_$opt=y"
done
! grep -q '^CONFIG_SLOB=y' "$config"
ok $? "SLOB is off"
# Less what only the series defines (config/series.config), which the
# patched kernel has and the stock one cannot.
without_series_options() {
	grep -v -E "^(# )?($(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=.*/\1/p' \
		"$top/kernel-patches/config/series.config" | paste -sd'|'))[= ]" "$1"
}
grep -qx CONFIG_NLS_KUNIT_TEST=y "$config"
ok $? "the patched kernel runs the NLS KUnit tests"
cmp -s <(without_series_options "$config") <(without_series_options "$build/kernel-stock/config")
ok $? "stock and patched kernels are built from the same configuration"
grep -q '^linux-source-6.1 [0-9]' "$build/kernel/VERSION"
ok $? "the kernel records the linux-source version it was built from"
diag "$(cat "$build/kernel/VERSION")"

distro=$build/kernel-distro/config
for opt in RETPOLINE FS_ENCRYPTION FS_VERITY AUDITSYSCALL SECURITY_APPARMOR \
	SECURITY_LANDLOCK SECURITY_YAMA FANOTIFY_ACCESS_PERMISSIONS EXT4_FS UNICODE; do
	grep -qx "CONFIG_$opt=y" "$distro"
	ok $? "distribution-like: CONFIG_$opt=y"
done
cmp -s <(without_series_options "$distro") \
	<(without_series_options "$build/kernel-stock-distro/config")
ok $? "stock and patched distribution-like kernels share their configuration"
done_testing
