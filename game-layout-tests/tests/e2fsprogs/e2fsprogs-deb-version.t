#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# The versions of make e2fsprogs-deb's packages (e2fsprogs_deb_version)
# sort as a Debian update of e2fsprogs needs them to (review of the
# e2fsprogs series, finding 12): after the Debian source they are built
# from and every stable or security update of it, so that apt keeps the
# series; after the build they replace, when the series, unchanged or
# newer (its stamp is its last commit's), is rebased on such an update;
# and at or after the version the
# symbols file gives the series' new symbol, which no Debian version
# reaches.  The Debian version each was built from is read back.

. "$(dirname "$0")/../../lib/host.sh"
. "$top/scripts/lib.sh"
. "$top/scripts/e2fsprogs.sh"
require_cmd dpkg

# sorts A OP B: dpkg's order, as apt applies it.
sorts() { dpkg --compare-versions "$1" "$2" "$3"; }

# The patch that adds the symbol, whatever its number in the series.
symbols_version=$(sed -n 's/^+ e2p_encoding_flags2str@Base //p' \
	"$top"/e2fsprogs-patches/0*.patch)
is "$symbols_version" "1.47.0-2+gamepart~" "the symbols file's version for the new symbol"

first=$(e2fsprogs_deb_version 1.47.0-2 20261207.1900)
is "$first" "1.47.0-2+gamepart20261207.1900" "built on Debian's 1.47.0-2: the stamp follows the revision"
rebased=$(e2fsprogs_deb_version 1.47.0-2+deb12u1 20261207.1900)
is "$rebased" "1.47.0-2+gamepart20261207.1900+deb12u1" \
	"rebased on 1.47.0-2+deb12u1: the stamp before Debian's update suffix"
next_update=$(e2fsprogs_deb_version 1.47.0-2+deb12u2 20261207.1900)
next_series=$(e2fsprogs_deb_version 1.47.0-2+deb12u1 20261208.0100)

sorts "$first" gt 1.47.0-2 && sorts "$first" gt 1.47.0-2+b2
ok $? "the packages sort after the Debian source and its binary rebuilds"
sorts "$first" gt 1.47.0-2+deb12u9 && sorts "$rebased" gt 1.47.0-2+deb12u9
ok $? "and after every stable or security update of the release, which lack the series"
sorts "$rebased" gt "$first"
ok $? "a rebase on a Debian update sorts after the build it replaces, the series unchanged"
sorts "$next_update" gt "$rebased" && sorts "$next_series" gt "$rebased"
ok $? "so do a rebase on the next update and a newer series on the same one"
sorts "$first" ge "$symbols_version" && sorts "$next_update" ge "$symbols_version"
ok $? "every build satisfies the symbols file's version"
sorts 1.47.0-2 lt "$symbols_version" && sorts 1.47.0-2+deb12u9 lt "$symbols_version"
ok $? "no Debian version does: a package linked with the new symbol cannot take Debian's libext2fs2"
sorts 1.47.1-1 gt "$first"
ok $? "a new upstream release from Debian sorts after the packages (the series must be moved to it)"

# Other shapes of a Debian version: an epoch, a binary rebuild of an
# update, a "+" in the upstream version, a backport.
for debian in 1:1.47.0-2+deb12u1 1.47.0-2+deb12u1+b1 1.47.0+dfsg-2 1.47.0-2~bpo12+1; do
	ours=$(e2fsprogs_deb_version "$debian" 20261207.1900)
	sorts "$ours" gt "$debian" && [ "$(e2fsprogs_debian_version "$ours")" = "$debian" ]
	ok $? "$debian: $ours sorts after it and reads back as it"
done
sorts "$(e2fsprogs_deb_version 1.47.0-2~bpo12+1 20261207.1900)" ge "$symbols_version"
ok $? "a build on a backport satisfies the symbols file's version too"

is "$(e2fsprogs_debian_version "$first")" 1.47.0-2 "built from 1.47.0-2, read back"
is "$(e2fsprogs_debian_version "$rebased")" 1.47.0-2+deb12u1 "built from 1.47.0-2+deb12u1, read back"
is "$(e2fsprogs_debian_version 1.47.0-2+deb12u1)" 1.47.0-2+deb12u1 "a Debian version is its own"
is "$(E2FSPROGS_SOURCE=1.47.0-2+deb12u1 e2fsprogs_source_version)" 1.47.0-2+deb12u1 \
	"E2FSPROGS_SOURCE chooses the source to build on"
E2FSPROGS_SOURCE=$first
is "$(e2fsprogs_source_version)" 1.47.0-2 "a build of the series given names its Debian source"
unset E2FSPROGS_SOURCE
is "$(e2fsprogs_source_version)" "$(cat "$top/e2fsprogs-patches/debian-base")" \
	"without E2FSPROGS_SOURCE, the series is built on the Debian version debian-base records"

done_testing
