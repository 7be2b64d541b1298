// SPDX-License-Identifier: GPL-2.0
/*
 * utf8-dump: what a generated fs/unicode table makes of every code point,
 * or of names, read by the kernel's own fs/unicode/utf8-norm.c.
 *
 *   utf8-dump VERSION FORM codepoints
 *   utf8-dump VERSION FORM names  < NUL-separated names
 *
 * VERSION is the Unicode version of the table to load (12.1.0), FORM the
 * first or the second form of the table: "n" (normalized; NFD and the
 * ignorables dropped for today's table) or "cf" (normalized and case
 * folded).  Each line is a code point (hexadecimal) or the name's bytes
 * (hexadecimal), a space, and the result's bytes in hexadecimal, "-" for
 * an empty result or "invalid" where the walk of the tables fails.  The
 * walk is utf8_casefold()'s and utf8_normalize()'s, which is how the
 * kernel folds a name to compare and hash it: it is not utf8_validate(),
 * and it folds some strings that are not UTF-8 (a stray continuation
 * byte after a character) instead of failing.
 * Built once for each table (TABLE names its struct utf8data_table), so
 * that two tables are compared by comparing two outputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "utf8n.h"

extern struct utf8data_table TABLE;

static const struct utf8data *find_form(const struct utf8data *forms,
					int count, unsigned int version)
{
	for (int i = count - 1; i >= 0; i--)
		if (forms[i].maxage == version)
			return &forms[i];
	return NULL;
}

static void put_hex(const unsigned char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		printf("%02x", s[i]);
}

static void fold(const struct unicode_map *um, enum utf8_normalization n,
		 const unsigned char *s, size_t len)
{
	/* Every form is at most 18 times longer than its string (the generator's bound). */
	static unsigned char out[18 * 4 * 256];
	struct utf8cursor cur;
	size_t olen = 0;
	int c;

	if (utf8ncursor(&cur, um, n, (const char *)s, len) < 0) {
		fputs("invalid", stdout);
		return;
	}
	while ((c = utf8byte(&cur)) > 0 && olen < sizeof(out))
		out[olen++] = c;
	if (c != 0) {
		fputs("invalid", stdout);
		return;
	}
	if (!olen)
		putchar('-');
	put_hex(out, olen);
}

static size_t encode(unsigned int cp, unsigned char *s)
{
	if (cp < 0x80) {
		s[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		s[0] = 0xc0 | cp >> 6;
		s[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		s[0] = 0xe0 | cp >> 12;
		s[1] = 0x80 | (cp >> 6 & 0x3f);
		s[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	s[0] = 0xf0 | cp >> 18;
	s[1] = 0x80 | (cp >> 12 & 0x3f);
	s[2] = 0x80 | (cp >> 6 & 0x3f);
	s[3] = 0x80 | (cp & 0x3f);
	return 4;
}

int main(int argc, char **argv)
{
	struct unicode_map um = { .tables = &TABLE };
	unsigned int major, minor, rev;
	enum utf8_normalization n;

	if (argc != 4 || sscanf(argv[1], "%u.%u.%u", &major, &minor, &rev) != 3 ||
	    (strcmp(argv[2], "n") && strcmp(argv[2], "cf")) ||
	    (strcmp(argv[3], "codepoints") && strcmp(argv[3], "names"))) {
		fprintf(stderr, "usage: utf8-dump VERSION n|cf codepoints|names\n");
		return 2;
	}
	um.version = UNICODE_AGE(major, minor, rev);
	um.ntab[UTF8_NFDI] = find_form(TABLE.utf8nfdidata,
				       TABLE.utf8nfdidata_size, um.version);
	um.ntab[UTF8_NFDICF] = find_form(TABLE.utf8nfdicfdata,
					 TABLE.utf8nfdicfdata_size, um.version);
	if (!um.ntab[UTF8_NFDI] || !um.ntab[UTF8_NFDICF]) {
		fprintf(stderr, "utf8-dump: the table has no version %s\n", argv[1]);
		return 1;
	}
	n = strcmp(argv[2], "n") ? UTF8_NFDICF : UTF8_NFDI;

	if (!strcmp(argv[3], "codepoints")) {
		unsigned char s[4];

		for (unsigned int cp = 1; cp < 0x110000; cp++) {
			if (cp >= 0xd800 && cp <= 0xdfff)
				continue;
			printf("%04X ", cp);
			fold(&um, n, s, encode(cp, s));
			putchar('\n');
		}
	} else {
		char *name = NULL;
		size_t cap = 0;
		ssize_t len;

		while ((len = getdelim(&name, &cap, '\0', stdin)) > 0) {
			if (name[len - 1] == '\0')
				len--;
			put_hex((unsigned char *)name, len);
			putchar(' ');
			fold(&um, n, (unsigned char *)name, len);
			putchar('\n');
		}
		free(name);
	}
	return ferror(stdout) ? 1 : 0;
}
