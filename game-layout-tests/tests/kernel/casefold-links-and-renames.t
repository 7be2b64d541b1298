#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# Hard links and symbolic links in a +F directory are found under every
# case; +F is inherited by new subdirectories and refused on a directory
# that is not empty; rename onto an existing case variant replaces it;
# mv(1) changes only the case of a name on the patched kernel (see
# casefold-case-rename.t) and refuses to on stock 6.1: the same file.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/casefold.sh"
	cf_mount
	cd $ci || exit 1

	echo game >Game.exe
	ln Game.exe Launcher.exe
	same_file Game.exe LAUNCHER.EXE && same_file game.exe launcher.exe
	ok $? "a hard link is found under every case, as the same inode"
	is "$(stat -c %h GAME.EXE)" 2 "two links"
	! ln game.exe GAME.exe 2>/dev/null
	ok $? "ln onto a case variant of an existing name fails"
	ln -s Game.exe Shortcut.lnk
	is "$(readlink SHORTCUT.LNK)" Game.exe "a symbolic link is found under another case"
	is "$(cat shortcut.lnk)" game "and resolves to its target"
	ln -s GAME.EXE upper.lnk
	is "$(cat UPPER.LNK)" game "a link whose target differs in case resolves in a +F directory"

	mkdir -p Sub/Deeper
	has_f Sub && has_f SUB/DEEPER
	ok $? "new subdirectories inherit +F"
	touch SUB/deeper/File.TXT
	[ -f sub/Deeper/file.txt ]
	ok $? "paths resolve through casefolded subdirectories in any case"
	mkdir $cs/full && touch $cs/full/x
	! chattr +F $cs/full 2>/dev/null && ! has_f $cs/full
	ok $? "+F is refused on a directory that is not empty"
	! chattr -F $ci 2>/dev/null && has_f $ci
	ok $? "+F cannot be cleared on a directory that is not empty"

	echo new >new.txt
	echo old >old.txt
	mv new.txt OLD.TXT
	ok $? "rename onto OLD.TXT, an existing case variant of old.txt"
	is "$(cat old.txt)" new "old.txt now holds the renamed file"
	missing new.txt
	ok $? "new.txt is gone"
	is "$(ls | grep -ci '^old.txt$' | tr -d ' ')" 1 "one entry for old.txt"

	echo r >readme.md
	if [ "$2" = stock ]; then
		! mv readme.md README.MD 2>/dev/null
		ok $? "stock: mv(1) refuses a rename to another case: the same file"
	else
		# mv tries renameat2(RENAME_NOREPLACE) first, which now succeeds.
		mv readme.md README.MD && listed . README.MD && ! listed . readme.md
		ok $? "mv(1) changes the case of a name"
	fi
	cf_done
fi

. "$(dirname "$0")/../../lib/host.sh"
casefold_guests
done_testing
