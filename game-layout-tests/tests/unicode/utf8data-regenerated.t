#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: quick
# fs/unicode's tables made again (make unicode-tables): the series'
# mkutf8data, given Debian's Unicode 15.0 data and -u 12.1, writes
# today's table byte for byte as the kernel ships it, and the table
# answers as the shipped one for every code point and for the
# tricky-name corpus, both forms, read by the kernel's own
# utf8-norm.c.  The two new profiles: NFKD passed its column of
# NormalizationTest.txt (the generator stops otherwise), folds
# compatibility characters and answers as today's table wherever no
# compatibility character is involved; the windows profile's first form
# is every string as it is, and its second keeps apart what Windows keeps
# apart (sharp s, NFC and NFD, ignorables, the Kelvin sign, dotless i,
# long s, final sigma, beyond plane 0) and makes one what Windows
# upper-cases alike (ASCII, accented letters, sigma).

. "$(dirname "$0")/../../lib/host.sh"
require_cmd python3
tables=$top/build/unicode
for f in utf8-dump-shipped utf8-dump-nfd utf8-dump-nfkd utf8-dump-windows; do
	[ -x "$tables/$f" ] || skip_all "$tables/$f: missing (run: make unicode-tables)"
done
make_scratch

grep -q '^# DerivedAge-15\.' "$tables/ucd/DerivedAge.txt"
ok $? "the data is newer than 12.1 ($(head -n1 "$tables/ucd/DerivedAge.txt"))"

cmp -s "$tables/utf8data-nfd.c" "$tables/utf8data-shipped.c"
ok $? "mkutf8data -u 12.1 writes utf8data.c_shipped byte for byte"
for profile in nfkd windows; do
	cmp -s "$tables/utf8data-$profile.c" "$tables/utf8data-shipped-$profile.c"
	ok $? "mkutf8data -u 12.1 -P $profile writes the series' utf8data-$profile.c_shipped byte for byte"
done

# dump PROFILE FORM codepoints|names: every answer of the table.
dump() {
	"$tables/utf8-dump-$1" 12.1.0 "$2" "$3"
}
for form in n cf; do
	dump shipped $form codepoints >"$scratch/shipped.$form"
	dump nfd $form codepoints >"$scratch/nfd.$form"
	is "$(wc -l <"$scratch/shipped.$form")" 1112063 "$form: the shipped table answers for every code point"
	differ=$(diff "$scratch/shipped.$form" "$scratch/nfd.$form" | grep -c '^>')
	is "$differ" 0 "$form: the regenerated table answers as the shipped one for every code point"
done

python3 - "$scratch/names" <<EOF
import sys
sys.path.insert(0, "$top/game-layout-tests/data")
import tricky_names
with open(sys.argv[1], "wb") as f:
    for why, name in tricky_names.corpus():
        f.write(name + b"\0")
EOF
for form in n cf; do
	dump shipped $form names <"$scratch/names" >"$scratch/names.shipped.$form"
	dump nfd $form names <"$scratch/names" >"$scratch/names.nfd.$form"
	cmp -s "$scratch/names.shipped.$form" "$scratch/names.nfd.$form"
	ok $? "$form: the same answer for each of the $(wc -l <"$scratch/names.nfd.$form") corpus names"
done
grep -q ' invalid$' "$scratch/names.shipped.cf"
ok $? "the corpus has names the table refuses (invalid UTF-8)"

# answer PROFILE FORM CODEPOINT: the hexadecimal answer for one code point.
answer() {
	grep "^$3 " "$scratch/$1.$2" | cut -d' ' -f2
}
for form in n cf; do
	dump nfkd $form codepoints >"$scratch/nfkd.$form"
	dump windows $form codepoints >"$scratch/windows.$form"
done

is "$(answer nfkd cf FB01)" 6669 "nfkd: the ligature fi folds to f, i"
is "$(answer nfkd cf FF21)" 61 "nfkd: fullwidth A folds to a"
is "$(answer nfkd n 2460)" 31 "nfkd: circled one is 1"
is "$(answer nfkd cf 00C9)" 65cc81 "nfkd: E with acute folds as in today's table"
# UnicodeData.txt's decompositions with a <tag> are the compatibility ones.
python3 - "$tables/ucd/UnicodeData.txt" "$scratch/nfd.n" "$scratch/nfkd.n" "$scratch/nfd.cf" \
	"$scratch/nfkd.cf" >"$scratch/nfkd-diff" <<'EOF'
import sys
data, nfd_n, nfkd_n, nfd_cf, nfkd_cf = sys.argv[1:]
compat = set()
for line in open(data):
    f = line.split(";")
    if f[5].startswith("<"):
        compat.add(int(f[0], 16))
def load(p):
    return dict(l.split() for l in open(p))
a_n, b_n, a_cf, b_cf = load(nfd_n), load(nfkd_n), load(nfd_cf), load(nfkd_cf)
def chars(answer):
    return [] if answer == "-" else [ord(c) for c in bytes.fromhex(answer).decode()]
def involves_compat(cp):
    return any(c in compat for c in
               [int(cp, 16)] + chars(a_n[cp]) + chars(a_cf[cp]))
changed = [cp for cp in a_n if a_n[cp] != b_n[cp] or a_cf[cp] != b_cf[cp]]
print(len(changed), sum(1 for cp in changed if involves_compat(cp)))
EOF
read -r changed compat_changed <"$scratch/nfkd-diff"
[ "$changed" -gt 3000 ] && [ "$changed" = "$compat_changed" ]
ok $? "nfkd: differs from today's table on $changed code points, each a compatibility character or one that decomposes or folds to one"

python3 - "$scratch/windows.n" <<'EOF'
import sys
bad = [l for l in open(sys.argv[1])
       if chr(int(l.split()[0], 16)).encode("utf-8").hex() != l.split()[1]]
sys.exit(1 if bad else 0)
EOF
ok $? "windows: the first form is every code point as it is"
is "$(answer windows cf 0041) $(answer windows cf 0061)" "61 61" "windows: A and a fold to a"
is "$(answer windows cf 00DF)" c39f "windows: sharp s stays sharp s, not ss"
is "$(answer windows cf 1E9E)" e1ba9e "windows: capital sharp s stays apart from sharp s"
is "$(answer windows cf 0301)" cc81 "windows: a combining accent stays, nothing is reordered or composed"
is "$(answer windows cf 200B)" e2808b "windows: the zero width space is not ignored"
is "$(answer windows cf 0131) $(answer windows cf 0049)" "c4b1 69" "windows: dotless i and I are two names (I's lower case is i, so the pair does not lead back)"
is "$(answer windows cf 0130)" c4b0 "windows: I with dot above stays apart from i"
is "$(answer windows cf 017F) $(answer windows cf 00B5)" "c5bf c2b5" "windows: long s and the micro sign keep their case"
is "$(answer windows cf 212A)" e284aa "windows: the Kelvin sign stays apart from k"
is "$(answer windows cf 10428)" f09090a8 "windows: beyond plane 0 nothing has case (Deseret)"
is "$(answer windows cf 03C3) $(answer windows cf 03A3) $(answer windows cf 03C2)" "cf83 cf83 cf82" \
	"windows: sigma and capital sigma are one, final sigma another"
dump windows cf names <"$scratch/names" | grep -c ' invalid$' >"$scratch/invalid.windows"
is "$(cat "$scratch/invalid.windows")" "$(grep -c ' invalid$' "$scratch/names.shipped.cf")" \
	"windows: refuses the same corpus names as invalid UTF-8 as today's table"
done_testing
