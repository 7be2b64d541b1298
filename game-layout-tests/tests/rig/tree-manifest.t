#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# tree-manifest, the manifest the conversion and import tests compare
# before and after, sees every change a conversion must not make: data,
# mode, owner, mtime, an extended attribute, a chattr flag, a link's
# target, a hard link, a name; and nothing else.  Names that are not
# UTF-8 reach library-tree's checks as Python decodes them.

. "$(dirname "$0")/../../lib/host.sh"
require_prog tree-manifest
require_cmd chattr python3
make_scratch
manifest=$build/progs/tree-manifest
t=$scratch/tree

mkdir -p "$t/Game/Data"
echo data >"$t/Game/Data/a.txt"
echo readme >"$t/Game/Readme"
ln -s Data/a.txt "$t/Game/link"
name=$(printf 'caf\xc3\xa9 \xff')
echo x >"$t/Game/$name"
python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.origin", b"\x00disk")' "$t/Game/Readme"
chattr +d "$t/Game/Data" 2>/dev/null || skip_all "chattr +d: not on this filesystem"

"$manifest" "$t" >"$scratch/before.json"
ok $? "a manifest of the tree"
"$manifest" "$t" | cmp -s - "$scratch/before.json"
ok $? "the same again when nothing changed"
python3 - "$scratch/before.json" "$t" <<-'END'
	import json, os, sys
	m = json.load(open(sys.argv[1]))
	want = {".", "Game", "Game/Data", "Game/Data/a.txt", "Game/Readme",
	        "Game/link", "Game/" + os.fsdecode("caf\xe9 ".encode() + b"\xff")}
	sys.exit(0 if set(m) == want else 1)
END
ok $? "it records each entry by its path, as Python decodes it"
python3 - "$scratch/before.json" <<-'END'
	import hashlib, json, sys
	m = json.load(open(sys.argv[1]))
	a = m["Game/Data/a.txt"]
	ok = (a["sha256"] == hashlib.sha256(b"data\n").hexdigest() and
	      a["size"] == 5 and a["nlink"] == 1 and
	      m["Game/link"]["target"] == "Data/a.txt" and
	      m["Game/Readme"]["xattrs"] == {"user.origin": "006469736b"} and
	      int(m["Game/Data"]["flags"], 16) & 0x40)  # nodump
	sys.exit(0 if ok else 1)
END
ok $? "with the data's SHA-256, size, links, link target, attributes and flags"

# changed WHAT COMMAND...: after COMMAND the manifest differs, and after
# the undo that follows, it is the one before again.
changed() {
	local what=$1
	shift
	"$@"
	"$manifest" "$t" | cmp -s - "$scratch/before.json"
	[ $? -eq 1 ]
	ok $? "it sees $what"
}
back() {
	"$manifest" "$t" | cmp -s - "$scratch/before.json"
	ok $? "and is the one before once $1 is undone"
}

stamp=$(stat -c %y "$t/Game/Data/a.txt")
changed "new data of the same size" sh -c "echo DATA >'$t/Game/Data/a.txt'"
echo data >"$t/Game/Data/a.txt"
touch -d "$stamp" "$t/Game/Data/a.txt"
back "the data"
changed "a mode" chmod 600 "$t/Game/Readme"
chmod 644 "$t/Game/Readme"
back "the mode"
changed "an owner" chown 1001 "$t/Game/Readme"
chown 0 "$t/Game/Readme"
back "the owner"
stamp=$(stat -c %y "$t/Game/Readme")
changed "an mtime" touch -d @1500000000 "$t/Game/Readme"
touch -d "$stamp" "$t/Game/Readme"
back "the mtime"
changed "an extended attribute" python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.origin", b"\x00dish")' "$t/Game/Readme"
python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.origin", b"\x00disk")' "$t/Game/Readme"
back "the attribute"
changed "a chattr flag" chattr -d "$t/Game/Data"
chattr +d "$t/Game/Data"
back "the flag"
# The changes that cannot be undone to the byte (a new link has a new
# inode): each is seen against the manifest just before it.
rebase() {
	"$manifest" "$t" >"$scratch/before.json"
}
rebase
changed "a link's target" sh -c "rm '$t/Game/link' && ln -s data/a.txt '$t/Game/link'"
rebase
changed "a new hard link" ln "$t/Game/Readme" "$scratch/second-link"
rebase
changed "a name" mv "$t/Game/Readme" "$t/Game/README"
done_testing
