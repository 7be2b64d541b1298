#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# check refuses bad input with one specific line and exit status 2, and
# says so when it has to assume the folding rules.

. "$(dirname "$0")/../../lib/host.sh"
require_gamepart
require_cmd mkfs.ext4 mkfs.ext2
make_scratch

# run ARGS...: status in $rc, stdout in $scratch/out, stderr in $scratch/err
run() {
	"$gamepart" "$@" >"$scratch/out" 2>"$scratch/err"
	rc=$?
}

run check
is "$rc" 2 "no target: status 2"
grep -q "^gamepart: check: no TARGET or PATH given; see 'gamepart check --help'$" "$scratch/err"
ok $? "no target: says so"

run check --bogus "$scratch"
is "$rc" 2 "unknown option: status 2"

run check --help
is "$rc" 0 "--help: status 0"
grep -q '^Usage: gamepart check \[--json\] \[--encoding NAME\] TARGET|PATH\.\.\.$' "$scratch/out"
ok $? "--help prints the synopsis on stdout"

run check "$scratch/missing"
is "$rc" 2 "missing target: status 2"
is "$(cat "$scratch/err")" "gamepart: check: $scratch/missing: No such file or directory" \
	"missing target: one line naming it"
is "$(cat "$scratch/out")" "" "missing target: no report"

truncate -s 8M "$scratch/zeros.img"
run check "$scratch/zeros.img"
is "$rc" 2 "image without a filesystem: status 2"
grep -q "^gamepart: check: $scratch/zeros.img: not an ext4 filesystem (" "$scratch/err"
ok $? "image without a filesystem: 'not an ext4 filesystem'"

: >"$scratch/empty.img"
run check "$scratch/empty.img"
is "$rc" 2 "empty file: status 2"
grep -q "^gamepart: check: $scratch/empty.img: not an ext4 filesystem (" "$scratch/err"
ok $? "empty file: 'not an ext4 filesystem'"

run check /dev/null
is "$rc" 2 "character device: status 2"
grep -q "^gamepart: check: /dev/null: not a directory, a block device or an image file$" "$scratch/err"
ok $? "character device: says what a target may be"

# The host's own root device, when it is visible: mounted, so refused.
rootdev=$(findmnt -n -o SOURCE / 2>/dev/null)
if [ -b "$rootdev" ]; then
	run check "$rootdev"
	is "$rc" 2 "a mounted device: status 2"
	grep -q "^gamepart: check: $rootdev: mounted on /; give that directory instead$" "$scratch/err"
	ok $? "a mounted device: points to its mount point"
fi

# The report covers what could be read; a bad target still makes it 2.
mkdir "$scratch/t"
touch "$scratch/t/A" "$scratch/t/a"
make_casefold_image "$scratch/good.img" 16M -d "$scratch/t"
run check "$scratch/good.img" "$scratch/missing"
is "$rc" 2 "a good and a missing target: status 2"
grep -qF "$scratch/good.img:.: would collide once casefolded: \"A\", \"a\"" "$scratch/out"
ok $? "several targets: the good one is reported, dirs prefixed with it"

# An image the user may not read.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$scratch"
	chmod 600 "$scratch/good.img"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$gamepart" check "$scratch/good.img" >/dev/null 2>"$scratch/err"
	is $? 2 "an unreadable image: status 2"
	is "$(cat "$scratch/err")" "gamepart: check: $scratch/good.img: Permission denied" \
		"an unreadable image: one line with the cause"
fi

# A filesystem without the casefold feature: what WOULD collide, said so.
truncate -s 16M "$scratch/ext2.img"
mkfs.ext2 -q -F -d "$scratch/t" "$scratch/ext2.img"
run check "$scratch/ext2.img"
is "$rc" 1 "no casefold feature: still checked, status 1"
grep -q "^gamepart: check: $scratch/ext2.img: note: the filesystem has no casefold feature; folding as utf8-12.1, not strict, would$" "$scratch/err"
ok $? "no casefold feature: the assumed encoding is named"
done_testing
