# SPDX-License-Identifier: GPL-2.0
"""The Unicode Character Database's DerivedAge.txt, read once for the
tests that set apart what a 12.1 table cannot know."""


def spans(path):
    """(range of code points, value) for each data line of a UCD file."""
    for line in open(path):
        line = line.split("#")[0].strip()
        if line:
            span, value = [x.strip() for x in line.split(";")[:2]]
            first, _, last = span.partition("..")
            yield range(int(first, 16), int(last or first, 16) + 1), value


def assigned_after(age_file, version=(12, 1)):
    """The code points DerivedAge.txt assigns in a version after VERSION."""
    later = set()
    for r, age in spans(age_file):
        if tuple(map(int, age.split("."))) > version:
            later.update(r)
    return later
