# SPDX-License-Identifier: GPL-2.0
"""Pairs of names that one way of folding or another takes for one name.

  fold_pairs.py UCD_DIR

prints one pair a line, "REASON<TAB>NAME<TAB>NAME", from the Unicode
Character Database in UCD_DIR (build/unicode/ucd, which make unicode-tables
copies from Debian's unicode-data) and the tricky-name corpus:

  casefold-C/S/F/T  a code point and its case folding (CaseFolding.txt)
  upper, lower      a code point and its simple upper or lower case
  canonical         a code point and its canonical decomposition
  compatibility     a code point and its compatibility decomposition
  ignorable         "a<X>b" and "ab", for each Default_Ignorable_Code_Point X
  corpus            two names of one group of data/tricky_names.py

Each name starts with "n", so that no name is "." or ".."; pairs with a
"/" or a NUL, and pairs of two equal names, are left out.  Nothing here
says which pairs are one name: the programs under test do.
"""

import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tricky_names  # noqa: E402


def code_points(field):
    return ''.join(chr(int(c, 16)) for c in field.split())


def ucd_pairs(ucd):
    with open(os.path.join(ucd, 'CaseFolding.txt')) as f:
        for line in f:
            line = line.split('#')[0].strip()
            if not line:
                continue
            code, status, mapping = [x.strip() for x in line.split(';')[:3]]
            yield 'casefold-' + status, chr(int(code, 16)), code_points(mapping)
    with open(os.path.join(ucd, 'UnicodeData.txt')) as f:
        for line in f:
            field = line.rstrip('\n').split(';')
            c = chr(int(field[0], 16))
            decomposition = field[5]
            if decomposition.startswith('<'):
                yield ('compatibility', c,
                       code_points(decomposition.split('>', 1)[1]))
            elif decomposition:
                yield 'canonical', c, code_points(decomposition)
            if field[12]:
                yield 'upper', c, code_points(field[12])
            if field[13]:
                yield 'lower', c, code_points(field[13])
    with open(os.path.join(ucd, 'DerivedCoreProperties.txt')) as f:
        for line in f:
            line = line.split('#')[0].strip()
            if not line or line.split(';')[1].strip() != \
                    'Default_Ignorable_Code_Point':
                continue
            span = line.split(';')[0].strip().split('..')
            first = int(span[0], 16)
            last = int(span[-1], 16)
            for cp in range(first, last + 1):
                if not 0xd800 <= cp <= 0xdfff:
                    yield 'ignorable', 'a' + chr(cp) + 'b', 'ab'


def corpus_pairs():
    groups = {}
    for why, name in tricky_names.corpus():
        groups.setdefault(why, []).append(name)
    for why, names in groups.items():
        for a, b in itertools.combinations(names, 2):
            yield 'corpus', a, b


def main():
    out = sys.stdout.buffer
    seen = set()
    pairs = [(why, a.encode('utf-8'), b.encode('utf-8'))
             for why, a, b in ucd_pairs(sys.argv[1])]
    pairs += list(corpus_pairs())
    for why, a, b in pairs:
        a, b = b'n' + a, b'n' + b
        if a == b or (a, b) in seen or any(c in x for x in (a, b)
                                           for c in (b'/', b'\0', b'\t',
                                                     b'\n')):
            continue
        seen.add((a, b))
        if len(a) > 255 or len(b) > 255:
            continue
        out.write(why.encode() + b'\t' + a + b'\t' + b + b'\n')


if __name__ == '__main__':
    main()
