#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# The built guest kernels carry the options the rig, the tests, systemd
# and Wine rely on (the traps of tinyconfig undone), fscrypt, and the
# other users of fs/nls the NLS tests mount; each carries every option
# its row of kernel-patches/kernels asks for through its fragments; the
# stock and patched kernels of a pair share one configuration but for
# what only the series defines (its KUnit tests); the distribution-like
# ones (when built: make check-full) have what distributions put on the
# path of a lookup.

. "$(dirname "$0")/../../lib/host.sh"
# The kernels this run has built: make check those of class test,
# check-full every one.  One of another class that make check finds in
# build/ may predate a change of its fragments; check-full builds it
# again before it is booted, or checked here.
built=
kernels=$(kernels_of test)
[ -z "${GAMEPART_FULL:-}" ] || kernels=$(kernel_rows | cut -d' ' -f1)
for k in $kernels; do
	[ -f "$(kernel_image "$k")" ] && built="$built $k"
done
require_kernel $(kernels_of test)
config_of() { echo "$(dirname "$(kernel_image "$1")")/config"; }

for k in $(kernels_of test); do
	config=$(config_of "$k")
	for opt in 64BIT PRINTK BUG SLUB EXT4_FS UNICODE UNICODE_NORMALIZATION_SELFTEST \
		VIRTIO_BLK 9P_FS NET_9P_VIRTIO SERIAL_8250_CONSOLE CGROUPS NAMESPACES \
		FHANDLE INOTIFY_USER SIGNALFD TIMERFD EPOLL UNIX TMPFS_XATTR DEVTMPFS \
		AUTOFS_FS FUTEX SHMEM EVENTFD OVERLAY_FS LKDTM HOTPLUG_PCI_ACPI \
		FS_ENCRYPTION NLS NLS_UTF8 NLS_ISO8859_1 NLS_CODEPAGE_437 VFAT_FS \
		EXFAT_FS ISO9660_FS JOLIET UDF_FS; do
		grep -qx "CONFIG_$opt=y" "$config"
		ok $? "[$k] CONFIG_$opt=y"
	done
	! grep -q '^CONFIG_SLOB=y' "$config"
	ok $? "[$k] SLOB is off"
	grep -q "^$k: $(kernel_field "$k" source) [0-9]" "$(dirname "$config")/VERSION"
	ok $? "[$k] the kernel records the source version it was built from"
	diag "$(cat "$(dirname "$config")/VERSION")"
done

# Every option each built kernel's fragments set, in its configuration.
for k in $built; do
	IFS=, read -ra fragments <<<"$(kernel_field "$k" fragments)"
	for f in "${fragments[@]}"; do
		lost=$(grep -E '^CONFIG_[A-Z0-9_]+=' "$top/kernel-patches/config/$f.config" |
			grep -vxF -f "$(config_of "$k")")
		[ -z "$lost" ]
		ok $? "[$k] every option of config/$f.config took effect" || diag "$lost"
	done
done

# Less what only the series defines (config/series.config), which the
# patched kernel has and the stock one cannot.
without_series_options() {
	grep -v -E "^(# )?($(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=.*/\1/p' \
		"$top/kernel-patches/config/series.config" | paste -sd'|'))[= ]" "$1"
}
while read -r stock patched; do
	grep -qx CONFIG_NLS_KUNIT_TEST=y "$(config_of "$patched")"
	ok $? "[$patched] runs the NLS KUnit tests"
	cmp -s <(without_series_options "$(config_of "$stock")") \
		<(without_series_options "$(config_of "$patched")")
	ok $? "[$stock, $patched] are built from the same configuration"
done < <(ab_pairs $built)

distros=$(for k in $built; do [ "$(kernel_field "$k" class)" = distro ] && echo "$k"; done)
if [ -z "$distros" ]; then
	skip "no distribution-like kernel built (make check-full builds them)" \
		"the distribution-like kernels' options"
fi
for k in $distros; do
	for opt in RETPOLINE FS_ENCRYPTION FS_VERITY AUDITSYSCALL SECURITY_APPARMOR \
		SECURITY_LANDLOCK SECURITY_YAMA FANOTIFY_ACCESS_PERMISSIONS EXT4_FS UNICODE; do
		grep -qx "CONFIG_$opt=y" "$(config_of "$k")"
		ok $? "[$k] distribution-like: CONFIG_$opt=y"
	done
done
done_testing
