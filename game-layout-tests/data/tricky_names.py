# SPDX-License-Identifier: GPL-2.0
"""Names on which case-insensitive lookup is easy to get wrong.

Each entry is (why, name as bytes).  The corpus is written for the
comparison of two implementations of ext4's folding (the kernel's and
gamepart's), so it pairs every tricky name with the names it may or may
not be confused with: a disagreement shows up as a group that one side
forms and the other does not.  Nothing here says which names collide;
the kernel under test is the reference.
"""


def u(text):
    return text.encode('utf-8')


def _corpus():
    names = []

    def add(why, *variants):
        for v in variants:
            names.append((why, v if isinstance(v, bytes) else u(v)))

    add('ASCII case', 'readme.txt', 'README.TXT', 'ReadMe.Txt', 'readme.TXT')
    add('ASCII case, digits and punctuation stay apart',
        'data_01.pak', 'DATA_01.PAK', 'data-01.pak', 'data_1.pak')
    add('NFC and NFD', 'caf\u00e9', 'cafe\u0301', 'CAF\u00c9', 'CAFE\u0301')
    add('NFD with two marks in either order (canonical ordering)',
        'a\u0323\u0302', 'a\u0302\u0323', '\u1ead')
    add('Hangul syllable and its jamo', '\ud55c', '\u1112\u1161\u11ab')
    add('sharp s folds to ss', 'stra\u00dfe', 'STRASSE', 'strasse',
        'STRA\u1e9eE', 'Strasse')
    add('Kelvin sign and Angstrom sign (singleton decompositions)',
        '\u212aelvin', 'kelvin', 'KELVIN', '\u212bngstrom', '\u00e5ngstrom',
        '\u00c5NGSTROM', '\u2126hm', '\u03c9hm')
    add('Greek sigma, final sigma, capital sigma',
        '\u03c3\u03bf\u03c6\u03bf\u03c2', '\u03a3\u039f\u03a6\u039f\u03a3',
        '\u03c3\u03bf\u03c6\u03bf\u03c3', '\u03c2')
    add('Greek with dialytika and tonos (expands to three code points)',
        '\u0390', '\u03b9\u0308\u0301', '\u03aa\u0301')
    add('Turkish dotted and dotless i',
        '\u0130stanbul', 'i\u0307stanbul', 'istanbul', 'ISTANBUL',
        '\u0131stanbul', 'I\u0307STANBUL')
    add('ligatures fold to their letters (full folding)', '\ufb01le',
        'file', 'FILE', '\ufb03x', 'ffix')
    add('fullwidth letters: own case pair, never ASCII (no NFKD)',
        '\uff21\uff22\uff23', '\uff41\uff42\uff43', 'ABC', 'abc')
    add('Cherokee: lower case folds to upper case',
        '\u13a0\u13a1', '\uab70\uab71')
    add('Cyrillic and Latin look-alikes stay apart', '\u0410\u0412',
        'AB', '\u0430\u0432')
    add('title-case digraphs', '\u01c4', '\u01c5', '\u01c6', 'D\u017d',
        'd\u017e')
    add('ignorable code points are dropped', 'a\u200bb', 'ab',
        'a\u00adb', 'A\u00adB', 'save\ufe0f', 'save', 'SAVE',
        'x\u2060y', 'xy', 'z\u200d\u200cw', 'zw')
    add('names made only of ignorable code points',
        '\u200b', '\u200b\u200b', '\u00ad', '\ufe0f')
    add('letters assigned after Unicode 12.1 fold as themselves',
        '\ua7c7x', '\ua7c8x', '\u2c2fx', '\u2c5fx', '\U0001e030x',
        '\ua7c0x', '\ua7c1x')
    add('unassigned and private-use code points', '\U000e0080x',
        '\ue000x', '\U0010fffd')
    add('invalid UTF-8 is compared as opaque bytes',
        b'bad\xff', b'BAD\xff', b'Bad\xff', b'\xc0\xaf', b'\xc0\xafX',
        b'\xed\xa0\x80x', b'\xed\xa0\x80X', b'\x80abc', b'\x80ABC',
        b'caf\xc3', b'CAF\xc3', b'\xf4\x90\x80\x80', b'\xf8\x88\x80\x80\x80')
    add('valid and invalid halves in one name', 'caf\u00e9'.encode() +
        b'\xff', 'CAF\u00c9'.encode() + b'\xff', b'CAFE\xcc\x81\xff')
    add('255-byte names', b'a' * 255, b'A' * 255, b'a' * 254 + b'B',
        u('\u00e9' * 127) + b'x', u('\u00c9' * 127) + b'x',
        u('e\u0301' * 85))
    add('255-byte names whose folded form is longer than 255 bytes',
        u('\u0390' * 127),
        u('\u0390' * 125), u('\u0390' * 124 + '\u03b9\u0308\u0301'),
        u('\u00df' * 127), u('SS' * 127), u('ss' * 127),
        u('\ufb03' * 85), u('FFI' * 85))
    return names


def corpus():
    """The names, each once; a name longer than 255 bytes is dropped."""
    seen = set()
    out = []
    for why, name in _corpus():
        if len(name) > 255 or name in seen or b'/' in name or \
                b'\0' in name or name in (b'.', b'..'):
            continue
        seen.add(name)
        out.append((why, name))
    return out
