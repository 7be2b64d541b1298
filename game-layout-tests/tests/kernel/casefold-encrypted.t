#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each distro
# Encrypted +F directories on every kernel built with fscrypt (the
# minimal ones, and the distribution-like ones in check-full), stock and
# patched: with the key, names are found in any
# case, a miss then a create in another case finds the new file, and a
# rename to another case stores it (patched); once the key is removed the
# directory lists encrypted no-key names, which lookups accept and
# plaintext names miss, and creates fail; after the key is added again,
# names missed without it are found in any case (no stale miss survives).
# e2fsck finds the filesystem clean.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	role=$2
	key=$(prog fscrypt-key)
	cf_mount
	head -c 64 /dev/urandom >/tmp/raw.key
	id=$("$key" add $mnt </tmp/raw.key) && "$key" policy $ci "$id"
	ok $? "a v2 fscrypt key added and the empty +F directory encrypted" || cf_done
	has_f $ci
	ok $? "the directory is still +F"

	echo saved >$ci/Save.dat
	same_file $ci/SAVE.DAT $ci/save.dat
	ok $? "with the key, Save.dat is found as SAVE.DAT and save.dat"
	missing $ci/readme.txt && echo r >$ci/README.TXT && [ -f $ci/readme.txt ]
	ok $? "a miss of readme.txt, then README.TXT created, is found as readme.txt"
	is "$(ls $ci | tr '\n' ' ')" "README.TXT Save.dat " "the listing shows the stored names"
	if [ $role = patched ]; then
		# Here a dentry keeps its first lookup's spelling (SAVE.DAT, by
		# same_file above): rename to one it does not carry.
		"$(prog rename2)" $ci/save.dat $ci/sAVE.dAT
		is "$(ls $ci | grep -ix save.dat)" sAVE.dAT \
			"a rename to another case stores sAVE.dAT"
		"$(prog rename2)" $ci/sAVE.dAT $ci/Save.dat
	fi

	cd /
	is "$("$key" remove $mnt "$id")" "" "the key is removed, no file busy"
	nokey=$(ls $ci | head -n 1)
	[ "$(ls $ci | wc -l)" = 2 ] && ! listed $ci Save.dat && ! listed $ci README.TXT
	ok $? "without the key the directory lists two no-key names" || diag "$(ls $ci)"
	[ -e "$ci/$nokey" ]
	ok $? "a listed no-key name is found by a lookup"
	missing $ci/Save.dat && missing $ci/SAVE.DAT
	ok $? "plaintext names are missed without the key"
	! touch $ci/new.txt 2>/dev/null
	ok $? "a create without the key fails"

	"$key" add $mnt </tmp/raw.key >/dev/null
	ok $? "the key is added again"
	same_file $ci/save.dat $ci/SAVE.DAT && [ -f $ci/Readme.Txt ]
	ok $? "names missed without the key are found in any case with it"
	is "$(cat $ci/SAVE.DAT)" saved "and read back decrypted"
	cf_done_fsck
fi

. "$(dirname "$0")/../../lib/host.sh"
require_prog fscrypt-key rename2
# Every kernel of the run built with fscrypt: the minimal ones have it
# (config/guest.config), and check-full adds the distribution-like ones.
kernels=
for k in $(test_kernels); do
	grep -qx CONFIG_FS_ENCRYPTION=y "$(dirname "$(kernel_image "$k")")/config" 2>/dev/null &&
		kernels="$kernels $k"
done
[ -n "$kernels" ] || skip_all "no kernel built with fscrypt among: $(test_kernels | xargs)"
casefold_guests -k "$kernels" -O encrypt
done_testing
