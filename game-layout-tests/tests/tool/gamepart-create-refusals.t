#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# gamepart create refuses, with one specific line and exit status 2, a
# target that holds a filesystem or a partition table (naming what it
# found) unless --force, bad --owner, --size and --label values, an image
# too small, a missing target and one that is neither a device nor an
# image; a refused target is left exactly as it was.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_gamepart
require_cmd debugfs dumpe2fs sfdisk mke2fs mkswap wipefs
make_scratch

# refused DESCRIPTION PATTERN ARGS...: exit status 2 and a stderr line
# matching PATTERN.
refused() {
	local what=$1 pattern=$2 status
	shift 2
	"$gp" create "$@" >"$scratch/out" 2>"$scratch/err"
	status=$?
	is "$status" 2 "$what: exit status 2"
	grep -q -- "$pattern" "$scratch/err"
	ok $? "$what: message says '$pattern'"
	[ "$(wc -l <"$scratch/err")" -ge 1 ] || diag "no message at all"
	grep -v '^gamepart: create: ' "$scratch/err" | grep -q . &&
		diag "$(cat "$scratch/err")"
	return 0
}

ext4=$scratch/ext4.img
truncate -s 32M "$ext4"
mke2fs -q -t ext4 -L OldGames "$ext4"
sum=$(md5sum <"$ext4")
refused "existing ext4" "^gamepart: create: $ext4: contains an ext4 file system labelled 'OldGames'$" "$ext4"
grep -q "refusing without --force" "$scratch/err"
ok $? "existing ext4: the refusal points to --force"
is "$(md5sum <"$ext4")" "$sum" "existing ext4: the image is untouched"

swap=$scratch/swap.img
truncate -s 32M "$swap"
mkswap -q -L CARD "$swap" >/dev/null
refused "existing swap area" "contains a swap file system labelled 'CARD'" "$swap"

gpt=$scratch/gpt.img
truncate -s 32M "$gpt"
printf 'label: gpt\n,,L\n' | sfdisk -q "$gpt"
sum=$(md5sum <"$gpt")
refused "GPT partition table" "^gamepart: create: $gpt: contains a gpt partition table$" "$gpt"
is "$(md5sum <"$gpt")" "$sum" "GPT: the image is untouched"

"$gp" create --force "$gpt" >/dev/null 2>"$scratch/err"
ok $? "--force overwrites the partition table"
is "$(wipefs -n "$gpt" 2>/dev/null | awk 'NR > 1 { print $3 }' | tr '\n' ' ')" "ext4 " \
	"--force leaves only the ext4 signature (the GPT backup header is wiped too)"
"$gp" create --force "$ext4" >/dev/null 2>&1
ok $? "--force overwrites an ext4 filesystem"
is "$(dumpe2fs_field "$ext4" "Filesystem volume name")" gamedata "the new filesystem is there"

refused "owner: unknown user" "--owner gamepart-no-such-user:0: no such user" \
	--owner gamepart-no-such-user:0 --size 32M "$scratch/o.img"
refused "owner: unknown group" "--owner root:gamepart-no-such-group: no such group" \
	--owner root:gamepart-no-such-group --size 32M "$scratch/o.img"
refused "owner: a uid without group and without passwd entry" \
	"--owner 4000000007: a number without :GROUP has no login group to take" \
	--owner 4000000007 --size 32M "$scratch/o.img"
refused "owner -1" "--owner 4294967295:0: not a valid user id" --owner 4294967295:0 --size 32M "$scratch/o.img"
refused "owner: empty user" "--owner :0: no such user" --owner :0 --size 32M "$scratch/o.img"
refused "size with unknown suffix" "--size: invalid size '12Q'" --size 12Q "$scratch/s.img"
refused "size with a trailing space" "--size: invalid size" --size "64 " "$scratch/s.img"
refused "size zero" "--size: invalid size '0'" --size 0 "$scratch/s.img"
refused "size that overflows" "--size: invalid size" --size 99999999999T "$scratch/s.img"
refused "label too long" "--label: '12345678901234567' must be 1 to 16 bytes" \
	--label 12345678901234567 --size 32M "$scratch/l.img"
[ ! -e "$scratch/o.img" ] && [ ! -e "$scratch/s.img" ] && [ ! -e "$scratch/l.img" ]
ok $? "no image is created when an option is wrong"

refused "image too small" "^gamepart: create: $scratch/small.img: too small (1048576 bytes); a game library needs at least 16 MiB$" \
	--size 1M "$scratch/small.img"
[ ! -e "$scratch/small.img" ]
ok $? "the image created for a refused create is removed again"
truncate -s 4M "$scratch/small2.img"
refused "existing image too small" "too small (4194304 bytes)" "$scratch/small2.img"

refused "missing target, suggesting --size" "^gamepart: create: $scratch/none.img: no such file or device; to make an image file, give its size with --size$" "$scratch/none.img"
refused "a directory" "^gamepart: create: $scratch: not a block device or an image file$" "$scratch"
refused "a character device" "not a block device or an image file" /dev/null
refused "no target" "no TARGET given" --size 32M
refused "two targets" "one TARGET expected" "$scratch/a.img" "$scratch/b.img"
refused "unknown option" "--frobnicate: unknown option" --frobnicate "$scratch/a.img"
done_testing
