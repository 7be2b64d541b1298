#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: one
# Wine is the ground truth for the Windows encoding (0xff02): on every
# pair of names of data/fold_pairs.py (each case folding, simple case
# mapping, canonical and compatibility decomposition of the Unicode data,
# each default-ignorable code point inside a name, the tricky-name
# corpus), the patched kernel takes two names for one exactly when
# Windows' own comparison of names, CompareStringOrdinal() with ignore
# case under Wine (name-compare.exe), does, but where Wine folds a case
# pair that the encoding keeps apart: the pairs that Windows 8's own
# table lacks (fs/smb/client/winucase.c, read by winucase-dump), which
# a Windows 8 volume may hold as two names (review A1), counted; and
# those assigned after Unicode 12.1, which a 12.1 encoding cannot know,
# each listed.  The kernel also answers as
# the profile's table read on the host does, pair by pair.  A name that
# is not UTF-8 has no Windows spelling, so Wine has nothing to say of it;
# the kernel folds some such names as upstream's fs/unicode does in every
# encoding (a stray continuation byte after a character passes through
# the fold: "n\x80abc" and "n\x80ABC" are one name on stock 6.1 too) and
# compares the others as bytes, as the table does.  gamepart (linked with
# the series' libext2fs, make tool-series) answers as the kernel does on
# every pair, those included.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	tables=$top/build/unicode
	wine_setup
	ok $? "a private Wine prefix"

	python3 "$top/game-layout-tests/data/fold_pairs.py" "$tables/ucd" >/tmp/pairs
	ok $? "$(wc -l </tmp/pairs) pairs of names"
	cut -f2,3 /tmp/pairs | "$wine64" "$top/build/wine/bin/name-compare.exe" >/tmp/wine 2>/tmp/wine.err
	ok $? "Wine compared every pair" || diag "$(head -n 5 /tmp/wine.err)"
	is "$(wc -l </tmp/wine)" "$(wc -l </tmp/pairs)" "one answer a pair"

	mount_disk /dev/vda $mnt && mkdir $mnt/cf && chattr +F $mnt/cf
	ok $? "the Windows encoding mounted, a +F directory"
	python3 - /tmp/pairs $mnt/cf >/tmp/kernel <<'EOF'
import os, sys
pairs, d = sys.argv[1:]
dfd = os.open(d, os.O_RDONLY | os.O_DIRECTORY)
for line in open(pairs, "rb"):
    _, a, b = line.rstrip(b"\n").split(b"\t")
    fd = os.open(a, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644, dir_fd=dfd)
    ino = os.fstat(fd).st_ino
    os.close(fd)
    try:
        same = os.stat(b, dir_fd=dfd, follow_symlinks=False).st_ino == ino
    except FileNotFoundError:
        same = False
    os.unlink(a, dir_fd=dfd)
    print("equal" if same else "differ")
EOF
	ok $? "the kernel answered every pair (create one name, look the other up)"

	# The table's answer: two names are one when both fold, alike.
	python3 - /tmp/pairs "$tables/utf8-dump-windows" >/tmp/table <<'EOF'
import subprocess, sys
pairs = [l.rstrip(b"\n").split(b"\t") for l in open(sys.argv[1], "rb")]
names = sorted({n for _, a, b in pairs for n in (a, b)})
out = subprocess.run([sys.argv[2], "12.1.0", "cf", "names"], check=True,
                     input=b"".join(n + b"\0" for n in names),
                     stdout=subprocess.PIPE).stdout.decode().split("\n")
fold = {n: line.split()[1] for n, line in zip(names, out)}
for _, a, b in pairs:
    print("equal" if fold[a] != "invalid" and fold[a] == fold[b] else "differ")
EOF
	cmp -s /tmp/kernel /tmp/table
	ok $? "the kernel answers as the windows table does, pair by pair"

	# gamepart's answer: fold answers each name with the first name of
	# the run that is one name with it.
	python3 - /tmp/pairs "$GAMEPART_SERIES" >/tmp/tool <<'EOF'
import subprocess, sys
pairs = [l.rstrip(b"\n").split(b"\t") for l in open(sys.argv[1], "rb")]
names = sorted({n for _, a, b in pairs for n in (a, b)})
out = subprocess.run([sys.argv[2], "fold", "-z", "--encoding", "utf8-windows-12.1"],
                     input=b"".join(n + b"\0" for n in names),
                     stdout=subprocess.PIPE, check=True).stdout.split(b"\0")
leader = dict(zip(names, out))
for _, a, b in pairs:
    print("equal" if leader[a] == leader[b] else "differ")
EOF
	ok $? "gamepart fold --encoding utf8-windows-12.1 answered every pair"
	d=$(diff <(paste /tmp/pairs /tmp/kernel) <(paste /tmp/pairs /tmp/tool))
	ok $? "gamepart answers as the kernel does, pair by pair, names that are not UTF-8 included" ||
		diag "< kernel, > gamepart" "$(echo "$d" | head -n 20)"

	"$tables/winucase-dump" >/tmp/windows8
	python3 - /tmp/pairs /tmp/kernel /tmp/wine "$tables/ucd/DerivedAge.txt" /tmp/windows8 \
		"$top/game-layout-tests/data" >/tmp/verdict <<'EOF'
import sys
pairs, kernel, wine, age_file, windows8_file, data = sys.argv[1:]
sys.path.insert(0, data)
from ucd_age import assigned_after
windows8 = {}
for line in open(windows8_file):
    c, u = line.split()
    windows8[chr(int(c, 16))] = chr(int(u, 16))
def windows8_upper(name):
    return "".join(windows8.get(c, c) for c in name)
later = assigned_after(age_file)
pairs = [l.rstrip(b"\n").split(b"\t") for l in open(pairs, "rb")]
k = open(kernel).read().split()
w = open(wine).read().split()
counts = {"agree": 0, "later": 0, "other": 0, "invalid": 0, "equal": 0,
          "folded": 0, "windows8": 0}
for (why, a, b), kv, wv in zip(pairs, k, w):
    if wv == "invalid":
        counts["invalid"] += 1
        counts["folded"] += kv == "equal"
        continue
    counts["equal"] += wv == "equal"
    if kv == wv:
        counts["agree"] += 1
        continue
    text = (a + b).decode()
    kind = "later" if any(ord(c) in later for c in text) else "other"
    if (kind == "other" and kv == "differ" and
            windows8_upper(a.decode()) != windows8_upper(b.decode())):
        counts["windows8"] += 1
        continue
    counts[kind] += 1
    print("# %s: %s %s: kernel %s, Wine %s (%s)" % (
        kind, a.decode(), b.decode(), kv, wv,
        " ".join("U+%04X" % ord(c) for c in text if ord(c) > 0x7f)))
print("counts %(agree)d %(equal)d %(later)d %(other)d %(invalid)d %(folded)d"
      " %(windows8)d" % counts)
EOF
	read -r _ agree equal later other invalid folded windows8 < <(grep '^counts' /tmp/verdict)
	diag "$(grep '^# later' /tmp/verdict)"
	[ "$equal" -gt 2000 ] && [ "$agree" -gt 12000 ]
	ok $? "the kernel agrees with Wine on $agree pairs, $equal of them one name to Wine"
	[ "$windows8" -gt 0 ]
	ok $? "$windows8 pairs that Wine takes for one name and Windows 8's table does not: two names, as on a Windows 8 volume"
	is "$other" 0 "no other disagreement but on code points assigned after 12.1" ||
		diag "$(grep '^# other' /tmp/verdict | head -n 20)"
	[ "$later" -gt 0 ] && [ "$later" -le 40 ]
	ok $? "$later pairs assigned after 12.1 differ, each listed above"
	ok $([ "$invalid" -gt 0 ]; echo $?) "$invalid pairs with a name that is not UTF-8, no Windows name ($folded of them one name to the kernel, as to the table)"
	cd / && umount $mnt
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
require_kernel "$(the_kernel)"
require_cmd debugfs python3
[ -x "$build/unicode/utf8-dump-windows" ] || skip_all "no $build/unicode/utf8-dump-windows: run make unicode-tables"
[ -x "$build/wine/bin/name-compare.exe" ] || skip_all "no name-compare.exe: run make windows-progs"
[ -f "$build/wine/prefix/system.reg" ] || skip_all "no Wine prefix: run make wine-prefix"
require_gamepart_series
make_scratch
make_encoded_image "$scratch/windows.img" 128M 0xff02
ok $? "an image in the Windows encoding (0xff02)"
guest_run "$(the_kernel)" --env "GAMEPART_SERIES=$gp_series" --disk "$scratch/windows.img" --
done_testing
