// SPDX-License-Identifier: GPL-2.0
/*
 * name-compare.exe: whether Windows takes two names for one.  Each line of
 * standard input is two names in UTF-8, separated by a tab; each line of
 * standard output is the answer of CompareStringOrdinal(A, B, ignore case),
 * the comparison Windows' file systems and its file APIs make of names:
 * "equal", "differ", or "invalid" when a name is not UTF-8 (a Windows name
 * is UTF-16, so such a name has no Windows spelling).
 */
#include <windows.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <string.h>

#define NAME_MAX_UNITS 1024

static int to_utf16(const char *utf8, int len, wchar_t *out)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8, len,
				    out, NAME_MAX_UNITS);
	return n > 0 || len == 0 ? n : -1;
}

int wmain(void)
{
	static char line[4 * NAME_MAX_UNITS];
	static wchar_t a[NAME_MAX_UNITS], b[NAME_MAX_UNITS];
	int na, nb, r;
	char *tab, *end;

	_setmode(_fileno(stdin), _O_BINARY);
	_setmode(_fileno(stdout), _O_BINARY);
	while (fgets(line, sizeof(line), stdin)) {
		end = line + strcspn(line, "\n");
		*end = '\0';
		tab = strchr(line, '\t');
		if (!tab) {
			fputs("name-compare.exe: a line without a tab\n", stderr);
			return 2;
		}
		na = to_utf16(line, tab - line, a);
		nb = to_utf16(tab + 1, end - tab - 1, b);
		if (na < 0 || nb < 0) {
			puts("invalid");
			continue;
		}
		r = CompareStringOrdinal(a, na, b, nb, TRUE);
		if (!r) {
			fprintf(stderr, "name-compare.exe: CompareStringOrdinal: error %lu\n",
				GetLastError());
			return 1;
		}
		puts(r == CSTR_EQUAL ? "equal" : "differ");
	}
	return ferror(stdin) ? 1 : 0;
}
