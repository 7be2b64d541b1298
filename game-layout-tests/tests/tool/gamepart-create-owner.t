#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick asan
# gamepart create without --owner gives the library to the user who asked
# for it, so that Steam, running as that user, can write it: the user who
# ran sudo (SUDO_UID, SUDO_GID) or pkexec (PKEXEC_UID and that user's login
# group), else the user running gamepart.  It says on stdout whom the
# library belongs to, and warns when that is root.  --owner always wins.

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
require_gamepart
require_cmd debugfs setpriv
[ "$(id -u)" = 0 ] || skip_all "needs root (to run create as root and as another user)"
make_scratch

img=$scratch/lib.img
truncate -s 32M "$img"

# owners IMG: the owner of / and of each Steam directory, one line each.
owners() {
	local d
	for d in / $steam_dirs; do
		echo "$d $(owner_of "$1" "$d")"
	done
}

# expect_owners IMG UID:GID WHAT: every directory of the layout has it.
expect_owners() {
	local want
	want=$(for d in / $steam_dirs; do echo "$d $2"; done)
	is "$(owners "$1")" "$want" "$3: / and every library directory belong to $2"
}

"$gp" create --force "$img" >"$scratch/out" 2>/dev/null
ok $? "create as root, not through sudo or pkexec"
expect_owners "$img" 0:0 "as root"
grep -qx "$img: the library belongs to root (0:0), the user running gamepart" "$scratch/out"
ok $? "it says the library belongs to root"
grep -q "cannot write to it; --owner USER" "$scratch/out"
ok $? "and warns that Steam, running as a user, cannot write there"

SUDO_UID=1000 SUDO_GID=1001 "$gp" create --force "$img" >"$scratch/out" 2>/dev/null
ok $? "create through sudo (SUDO_UID=1000 SUDO_GID=1001)"
expect_owners "$img" 1000:1001 "through sudo"
grep -q "^$img: the library belongs to .*(1000:1001), the user who ran sudo\$" "$scratch/out"
ok $? "it names the sudo user as the owner"
! grep -q "cannot write" "$scratch/out"
ok $? "no warning when a user owns it"

SUDO_UID=1000 SUDO_GID=1001 "$gp" create --force --owner 70000:70001 "$img" >"$scratch/out" 2>/dev/null
expect_owners "$img" 70000:70001 "--owner under sudo"
grep -qx "$img: the library belongs to 70000:70001, as --owner asked" "$scratch/out"
ok $? "--owner wins over SUDO_UID, and an id with no name is shown as numbers"

SUDO_UID=not-a-number "$gp" create --force "$img" >/dev/null 2>&1
expect_owners "$img" 0:0 "an invalid SUDO_UID"

nobody_uid=$(id -u nobody 2>/dev/null) || nobody_uid=
if [ -n "$nobody_uid" ]; then
	nobody_gid=$(id -g nobody)
	PKEXEC_UID=$nobody_uid "$gp" create --force "$img" >"$scratch/out" 2>/dev/null
	ok $? "create through pkexec (PKEXEC_UID=$nobody_uid)"
	expect_owners "$img" "$nobody_uid:$nobody_gid" "through pkexec: the user and its login group"
	grep -q "belongs to nobody ($nobody_uid:$nobody_gid), the user who ran pkexec\$" "$scratch/out"
	ok $? "it names the pkexec user"

	# Not root: the user running it, whatever SUDO_UID says (only root
	# can have come through sudo).
	mkdir "$scratch/user"
	chown "$nobody_uid:$nobody_gid" "$scratch/user"
	chmod 755 "$scratch"
	SUDO_UID=1000 SUDO_GID=1000 setpriv --reuid="$nobody_uid" --regid="$nobody_gid" --clear-groups \
		"$gp" create --size 32M "$scratch/user/lib.img" >"$scratch/out" 2>"$scratch/err"
	ok $? "create as an unprivileged user, on an image file it owns" || diag "$(cat "$scratch/err")"
	expect_owners "$scratch/user/lib.img" "$nobody_uid:$nobody_gid" "as that user"
else
	ok 0 "# SKIP no user nobody on this machine"
fi
done_testing
