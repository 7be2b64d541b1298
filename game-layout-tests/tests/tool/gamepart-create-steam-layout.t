#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# gamepart create on a new image file: a sparse image, ext4 with casefold
# (utf8-12.1), no reserved blocks, the label and owner asked for, the
# Steam layout with +F on every library directory, and a filesystem that
# e2fsck finds clean.  --strict sets the strict flag, which dumpe2fs does
# not show: it is read from the superblock itself.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_gamepart
require_cmd debugfs dumpe2fs e2fsck mke2fs
make_scratch

img=$scratch/lib.img
"$gp" create --size 64M --label SteamLib --owner 1000:1000 "$img" >"$scratch/out" 2>"$scratch/err"
ok $? "create --size 64M --label SteamLib --owner 1000:1000 succeeds"
is "$(cat "$scratch/err")" "" "nothing on stderr when it is not a terminal"
is "$(stat -c %s "$img")" $((64 << 20)) "the image has the size asked for"
[ $(($(stat -c %b "$img") * 512)) -lt $((32 << 20)) ]
ok $? "the image is sparse"

dumpe2fs_field "$img" "Filesystem features" | grep -qw casefold
ok $? "casefold feature is on"
is "$(dumpe2fs_field "$img" "Character encoding")" utf8-12.1 "encoding utf8-12.1"
is "$(sb_u16 "$img" 0x27c)" 1 "s_encoding is 1 (EXT4_ENC_UTF8_12_1)"
is "$(sb_u16 "$img" 0x27e)" 2 "s_encoding_flags is 0x2 (no-compat-fallback) without --strict"
is "$(dumpe2fs_field "$img" "Filesystem volume name")" SteamLib "label SteamLib"
is "$(dumpe2fs_field "$img" "Reserved block count")" 0 "no reserved blocks"
is "$(owner_of "$img" /)" 1000:1000 "the root directory belongs to the owner"
for d in $steam_dirs; do
	is_casefolded "$img" "$d"
	ok $? "$d exists and is +F"
	is "$(owner_of "$img" "$d")" 1000:1000 "$d belongs to 1000:1000"
done
! is_casefolded "$img" /
ok $? "the root directory is not +F"
is "$(debugfs -R 'ls -p /steamapps' "$img" 2>/dev/null | cut -d/ -f6 | grep -v '^\.*$' | sort | tr '\n' ' ')" \
	"common compatdata downloading shadercache temp " \
	"steamapps holds exactly the five library directories"
e2fsck -fn "$img" >"$scratch/fsck" 2>&1
ok $? "e2fsck -fn finds the filesystem clean"

strict=$scratch/strict.img
"$gp" create --size 32M --strict --owner 70000:100001 "$strict" >/dev/null
ok $? "create --strict --owner 70000:100001 succeeds"
is "$(sb_u16 "$strict" 0x27e)" 3 "s_encoding_flags is 0x3: strict, and no-compat-fallback"
is "$(dumpe2fs_field "$strict" "Filesystem volume name")" gamedata "default label gamedata"
is "$(owner_of "$strict" steamapps/common)" 70000:100001 "ids above 65535 are stored whole (high 16 bits)"
e2fsck -fn "$strict" >/dev/null 2>&1
ok $? "e2fsck -fn finds the strict filesystem clean"

# Names, as chown(1) takes them, resolved on this machine.
named=$scratch/named.img
if nobody=$(id -u nobody 2>/dev/null) && games=$(getent group games | cut -d: -f3) &&
	[ -n "$games" ]; then
	"$gp" create --size 32M --owner nobody "$named" >/dev/null
	ok $? "create --owner nobody succeeds"
	is "$(owner_of "$named" steamapps/common)" "$nobody:$(id -g nobody)" \
		"--owner nobody: its uid and its login group"
	"$gp" create --force --owner nobody:games "$named" >/dev/null
	is "$(owner_of "$named" steamapps)" "$nobody:$games" "--owner nobody:games: both names resolved"
	"$gp" create --force --owner "nobody:$games" "$named" >/dev/null
	is "$(owner_of "$named" /)" "$nobody:$games" "--owner NAME:GID mixes a name and a number"
else
	ok 0 "# SKIP no user nobody or group games on this machine"
fi

existing=$scratch/existing.img
truncate -s 40M "$existing"
"$gp" create "$existing" >/dev/null
ok $? "an existing empty image is used as it is without --size"
is "$(stat -c %s "$existing")" $((40 << 20)) "and keeps its size"
is_casefolded "$existing" steamapps/temp
ok $? "steamapps/temp is +F on it"
done_testing
