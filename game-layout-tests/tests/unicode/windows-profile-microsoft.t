#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# The windows profile is the intersection of two upper cases (review
# A1): on every code point of plane 0, the shipped utf8data-windows
# table folds two code points alike exactly when both Unicode 12.1's
# simple upper case that leads back (computed here from Debian's
# Unicode data, limited to 12.1 by DerivedAge) and Windows 8's table
# (fs/smb/client/winucase.c, read through its own cifs_toupper()) give
# them one upper case.  So no two names that a Windows 8 or later NTFS
# volume keeps apart are one name on a utf8-windows-12.1 card.  The
# pairs that Unicode 12.1 folds and Windows 8 does not are counted and
# listed by block, so that a regenerated table cannot drift silently.

. "$(dirname "$0")/../../lib/host.sh"
require_cmd python3
tables=$top/build/unicode
for f in utf8-dump-shipped-windows winucase-dump; do
	[ -x "$tables/$f" ] || skip_all "$tables/$f: missing (run: make unicode-tables)"
done
make_scratch

"$tables/winucase-dump" >"$scratch/microsoft"
ok $? "Windows 8's table read through cifs_toupper()"
is "$(awk '$1 != $2' "$scratch/microsoft" | wc -l)" 973 \
	"it upper-cases 973 code points of plane 0, as MS-UCODEREF's table does"
"$tables/utf8-dump-shipped-windows" 12.1.0 cf codepoints >"$scratch/windows.cf"
ok $? "the shipped windows table answered for every code point"

python3 - "$scratch/microsoft" "$scratch/windows.cf" "$tables/ucd" "$top/game-layout-tests/data" \
	>"$scratch/verdict" <<'EOF'
import sys
microsoft_file, fold_file, ucd, data = sys.argv[1:]
sys.path.insert(0, data)
from ucd_age import assigned_after, spans

later = assigned_after(ucd + "/DerivedAge.txt")

upper, lower = {}, {}
for line in open(ucd + "/UnicodeData.txt"):
    f = line.split(";")
    c = int(f[0], 16)
    if c > 0xFFFF or c in later:
        continue
    if f[12]:
        upper[c] = int(f[12], 16)
    if f[13]:
        lower[c] = int(f[13], 16)

def unicode_upper(c):
    """12.1's simple upper case, where its lower case leads back."""
    u = upper.get(c)
    return u if u is not None and lower.get(u) == c else c

microsoft = {}
for line in open(microsoft_file):
    c, u = line.split()
    microsoft[int(c, 16)] = int(u, 16)

fold = {}
for line in open(fold_file):
    cp, answer = line.split()
    c = int(cp, 16)
    if c <= 0xFFFF and not 0xD800 <= c <= 0xDFFF:
        fold[c] = answer

# Classes of each: code points grouped by what they map to.
def classes(key):
    groups = {}
    for c in fold:
        groups.setdefault(key(c), set()).add(c)
    return {c: frozenset(g) for g in groups.values() for c in g}

profile = classes(lambda c: fold[c])
intersection = classes(lambda c: (unicode_upper(c), microsoft[c]))
unicode_only = classes(unicode_upper)
microsoft_only = classes(lambda c: microsoft[c])

print("points", len(fold))
print("differ", sum(profile[c] != intersection[c] for c in fold))
for c in sorted(fold):
    if profile[c] != intersection[c]:
        print("# U+%04X: the table folds it with %s, the intersection with %s"
              % (c, sorted("%04X" % d for d in profile[c]),
                 sorted("%04X" % d for d in intersection[c])))
        break

def pairs_kept_apart(finer, coarser):
    """Code points that COARSER folds with another and FINER keeps apart."""
    return sorted(c for c in fold if len(coarser[c]) > len(finer[c]))

kept = pairs_kept_apart(intersection, unicode_only)
print("kept", len(kept))
print("merged", len(pairs_kept_apart(intersection, microsoft_only)))
print("merged-by-table", sum(not profile[c] <= microsoft_only[c] for c in fold))
blocks = {}
for r, name in spans(ucd + "/Blocks.txt"):
    for c in r:
        if c in kept:
            blocks[name] = blocks.get(name, 0) + 1
print("# Unicode 12.1 folds, Windows 8 does not, code points by block: "
      + ", ".join("%s %d" % b for b in sorted(blocks.items())))
EOF
ok $? "the profile, the Unicode data and Windows 8's table compared"
diag "$(sed -n "s/^# //p" "$scratch/verdict")"
value() {
	sed -n "s/^$1 //p" "$scratch/verdict"
}
is "$(value points)" 63487 "every code point of plane 0 but NUL and the surrogates compared"
is "$(value differ)" 0 \
	"the table's classes are the intersection's on every one of them"
is "$(value merged-by-table)" 0 \
	"no two code points that Windows 8 upper-cases differently fold alike"
is "$(value merged)" 0 "Windows 8 folds no pair that Unicode 12.1 keeps apart"
is "$(value kept)" 364 \
	"Unicode 12.1 folds 182 pairs (364 code points) that Windows 8 keeps apart, listed above by block; the profile keeps them apart"

# answer CODEPOINT: the shipped table's fold of one code point.
answer() {
	grep "^$1 " "$scratch/windows.cf" | cut -d' ' -f2
}
is "$(answer 13A0) $(answer AB70)" "e18ea0 eaadb0" "Cherokee A and its small letter are two names"
is "$(answer 10D0) $(answer 1C90)" "e18390 e1b290" "Georgian an and its Mtavruli capital are two names"
is "$(answer 0041) $(answer 0061) $(answer 00C9) $(answer 00E9)" "61 61 c3a9 c3a9" \
	"A and a, E and e with acute, fold alike as before"
done_testing
