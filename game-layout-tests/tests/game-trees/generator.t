#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# The game-layout generator: the same seed gives the same trees and lists
# byte for byte, another seed others; every reference names exactly one
# file, case-insensitively, under a spelling that is not the one on disk,
# and that file's first line is the one expected; every find pattern
# counts what it matches; no probe matches anything; no two names in a
# directory collide once folded; names beyond ASCII are there; --big sets
# the size of the big directories.  Which names are one name is asked of
# gamepart fold (game-trees/gamepart_fold.py), never folded here.

. "$(dirname "$0")/../../lib/host.sh"
require_cmd python3
require_gamepart
export GAMEPART=$gamepart
make_scratch
gen=$top/game-layout-tests/game-trees/gen-game-trees

"$gen" --seed 7 --big 300 --files 60 "$scratch/a" >/dev/null
ok $? "generates a library"
"$gen" --seed 7 --big 300 --files 60 "$scratch/b" >/dev/null
diff -r "$scratch/a" "$scratch/b" >/dev/null
ok $? "the same seed gives the same trees and lists"
"$gen" --seed 8 --big 300 --files 60 "$scratch/c" >/dev/null
! diff -r "$scratch/a" "$scratch/c" >/dev/null
ok $? "another seed gives others"
"$gen" --seed 7 "$scratch/a" 2>/dev/null
is $? 2 "refuses a directory that is not empty"

# Resolve the lists against the tree as a case-insensitive filesystem
# would: names are one when gamepart fold says so; a find pattern's fixed
# parts are ASCII, matched without regard to ASCII case.
python3 - "$scratch/a" "$top/game-layout-tests/game-trees" >"$scratch/report" <<'PY'
import os, sys, fnmatch
root = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from gamepart_fold import Folder
fold = Folder().key
ascii_lower = lambda s: s.translate({c: c + 32 for c in range(ord("A"), ord("Z") + 1)})
problems = []
nonascii = 0
for d, dirs, files in os.walk(root):
    seen = {}
    for n in dirs + files:
        nonascii += any(ord(c) > 127 for c in n)
        if fold(n) in seen:
            problems.append("collision in %s: %s, %s" % (d, seen[fold(n)], n))
        seen[fold(n)] = n

def resolve(winpath):
    path = root
    for part in winpath.split("\\"):
        if not os.path.isdir(path):
            return None
        hits = [n for n in os.listdir(path) if fold(n) == fold(part)]
        if len(hits) != 1:
            return None
        path = os.path.join(path, hits[0])
    return path

opens = finds = 0
for line in open(os.path.join(root, "references.tsv"), encoding="utf-8"):
    kind, what, expect = line.rstrip("\n").split("\t")
    if kind == "open":
        opens += 1
        p = resolve(what)
        if p is None or not os.path.isfile(p):
            problems.append("open %s: no single file" % what)
            continue
        if os.path.relpath(p, root) == what.replace("\\", "/"):
            problems.append("open %s: spelled as on disk" % what)
        with open(p, encoding="utf-8", errors="replace") as f:
            if f.readline().rstrip("\n") != expect:
                problems.append("open %s: first line is not %s" % (what, expect))
    elif kind == "find":
        finds += 1
        d, _, pattern = what.rpartition("\\")
        if not pattern.isascii():
            problems.append("find %s: a pattern beyond ASCII" % what)
        p = resolve(d)
        n = p and sum(1 for e in os.listdir(p)
                      if fnmatch.fnmatchcase(ascii_lower(e), ascii_lower(pattern)))
        if str(n) != expect:
            problems.append("find %s: %s matches, expected %s" % (what, n, expect))
misses = 0
for line in open(os.path.join(root, "probes.tsv"), encoding="utf-8"):
    misses += 1
    what = line.rstrip("\n").split("\t")[1]
    if resolve(what) is not None:
        problems.append("probe %s exists" % what)
print("opens %d finds %d misses %d nonascii %d" % (opens, finds, misses, nonascii))
for p in problems:
    print("problem: " + p)
PY
read -r _ opens _ finds _ misses _ nonascii <"$scratch/report"
[ "$opens" -ge 20 ] && [ "$finds" -eq 4 ] && [ "$misses" -ge 20 ]
ok $? "the lists have opens ($opens), a find per big directory ($finds) and probes ($misses)"
[ "$nonascii" -ge 10 ]
ok $? "names beyond ASCII, accented and CJK ($nonascii)"
is "$(grep -c '^problem: ' "$scratch/report")" 0 \
	"every reference resolves as expected, no probe exists, no name collides" ||
	diag "$(grep '^problem: ' "$scratch/report" | head -n 10)"

# Planted collisions: exactly those, and the references still hold.
"$gen" --seed 7 --big 300 --files 60 --plant-collisions "$scratch/planted" >/dev/null
python3 - "$scratch/planted" "$top/game-layout-tests/game-trees" <<'PY' >"$scratch/groups"
import os, sys
sys.path.insert(0, sys.argv[2])
from gamepart_fold import Folder
fold = Folder().key
for d, dirs, files in os.walk(sys.argv[1]):
    groups = {}
    for n in dirs + files:
        groups.setdefault(fold(n), []).append(n)
    for names in groups.values():
        if len(names) > 1:
            print(os.path.relpath(d, sys.argv[1]), len(names))
PY
is "$(sort "$scratch/groups" | tr '\n' ' ')" \
	"HalfLifeLike/hl2/cfg 2 SkyrimLike/Data 2 SkyrimLike/Data/Interface/Translations 2 UnityLike/UnityLike_Data 2 " \
	"--plant-collisions: four colliding pairs, in case and in normalization"
# The same references, but that a folder's listing counts the mod's
# file planted in the folder that folds like it (one more .dds).
awk -F'\t' -v OFS='\t' '$1 == "find" && tolower($2) ~ /\\whiterun\\\*\.dds$/ { $3++ } 1' \
	"$scratch/a/references.tsv" | diff - "$scratch/planted/references.tsv" >/dev/null
ok $? "--plant-collisions: the same references, the Whiterun listing one more"

"$gen" --seed 1 --profile bethesda --big 2500 --files 10 "$scratch/big" >/dev/null
is "$(ls "$scratch/big/SkyrimLike/Data/Textures/Architecture/Whiterun" | wc -l)" 2500 \
	"--big 2500: the big directory has 2,500 entries"
is "$(ls "$scratch/big")" "$(printf 'SkyrimLike\nlayout.json\nprobes.tsv\nreferences.tsv')" \
	"--profile bethesda: that game alone"
done_testing
