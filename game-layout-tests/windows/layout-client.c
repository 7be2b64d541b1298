// SPDX-License-Identifier: GPL-2.0
/*
 * layout-client.exe [--no-changes] ROOT: what a Windows game does with its
 * files, against a library made by gen-game-trees, through the Win32 calls
 * games use, under Wine.  ROOT is the library's Windows path (e.g.
 * Z:\run\media\gamedata\gamedata\library); its references.tsv and
 * probes.tsv say what to ask for.  TAP on stdout, one test per request:
 *
 *   open   CreateFileW of the game's spelling, then the first line read
 *          must name the file expected
 *   find   FindFirstFileW/FindNextFileW of a wildcard pattern, counted
 *   miss   CreateFileW of a name that does not exist fails with
 *          ERROR_FILE_NOT_FOUND or ERROR_PATH_NOT_FOUND
 *
 * then, on the first file opened (unless --no-changes): FindFirstFileW of
 * its exact name in another case; CREATE_NEW of another case of its name
 * must fail with ERROR_FILE_EXISTS and OPEN_ALWAYS must open the same
 * file; a rename to another case of its own name must succeed and leave
 * the file reachable.  Timings per kind of request go to stdout as TAP
 * comments: "# timing open N MEAN_US".
 */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define MAX_LINE 4096

static int tests, failures;
static LARGE_INTEGER ticks_per_second;

struct timing {
	const char *kind;
	long long ticks;
	int count;
};

static struct timing timings[] = {
	{ .kind = "open" }, { .kind = "find" }, { .kind = "miss" },
};

/*
 * S in UTF-8: stdout is a pipe, which wprintf() would write in the
 * console's code page, losing (and cutting the line at) a name beyond it.
 */
static void put_utf8(const wchar_t *s)
{
	static char buf[MAX_LINE * 4];

	if (WideCharToMultiByte(CP_UTF8, 0, s, -1, buf, sizeof(buf), NULL, NULL) > 0)
		fputs(buf, stdout);
	else
		fputs("(name not representable)", stdout);
}

static void ok(int good, const wchar_t *what, const wchar_t *detail)
{
	tests++;
	if (!good)
		failures++;
	printf("%s %d - ", good ? "ok" : "not ok", tests);
	put_utf8(what);
	if (detail) {
		fputs(": ", stdout);
		put_utf8(detail);
	}
	putchar('\n');
}

static long long now(void)
{
	LARGE_INTEGER t;

	QueryPerformanceCounter(&t);
	return t.QuadPart;
}

static void timed(struct timing *t, long long start)
{
	t->ticks += now() - start;
	t->count++;
}

static wchar_t *widen(const char *s)
{
	int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
	wchar_t *w = malloc(n * sizeof(*w));

	if (!w) {
		fwprintf(stderr, L"layout-client: out of memory\n");
		exit(2);
	}
	MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n);
	return w;
}

static void join(wchar_t *out, size_t size, const wchar_t *root,
		 const wchar_t *rel)
{
	_snwprintf(out, size, L"%ls\\%ls", root, rel);
	out[size - 1] = 0;
}

/* The first line of an open file, in UTF-16. */
static int first_line(HANDLE file, wchar_t *out, size_t size)
{
	char buf[MAX_LINE];
	DWORD got;
	char *nl;
	wchar_t *w;

	if (!ReadFile(file, buf, sizeof(buf) - 1, &got, NULL))
		return 0;
	buf[got] = 0;
	nl = strchr(buf, '\n');
	if (nl)
		*nl = 0;
	w = widen(buf);
	wcsncpy(out, w, size - 1);
	out[size - 1] = 0;
	free(w);
	return 1;
}

static void swap_case(wchar_t *s)
{
	for (; *s; s++) {
		if (iswupper(*s))
			*s = towlower(*s);
		else if (iswlower(*s))
			*s = towupper(*s);
	}
}

/*
 * The first file opened well, by its Windows path, and its name as stored
 * (the last component of the path its first line gives).
 */
struct first_file {
	wchar_t path[MAX_PATH * 4];
	wchar_t stored[MAX_PATH];
};

static void do_open(const wchar_t *root, const wchar_t *rel,
		    const wchar_t *expect, struct first_file *first)
{
	wchar_t path[MAX_PATH * 4], line[MAX_LINE];
	long long start = now();
	HANDLE file;

	join(path, ARRAYSIZE(path), root, rel);
	file = CreateFileW(path, GENERIC_READ, FILE_SHARE_READ, NULL,
			   OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
	if (file == INVALID_HANDLE_VALUE) {
		timed(&timings[0], start);
		_snwprintf(line, ARRAYSIZE(line), L"error %lu", GetLastError());
		ok(0, rel, line);
		return;
	}
	if (!first_line(file, line, ARRAYSIZE(line)))
		line[0] = 0;
	CloseHandle(file);
	timed(&timings[0], start);
	ok(wcscmp(line, expect) == 0, rel, NULL);
	if (!first->path[0] && wcscmp(line, expect) == 0) {
		const wchar_t *slash = wcsrchr(expect, L'/');

		wcsncpy(first->path, path, ARRAYSIZE(first->path) - 1);
		wcsncpy(first->stored, slash ? slash + 1 : expect,
			ARRAYSIZE(first->stored) - 1);
	}
}

static void do_find(const wchar_t *root, const wchar_t *pattern,
		    const wchar_t *expect)
{
	wchar_t path[MAX_PATH * 4], detail[64];
	WIN32_FIND_DATAW data;
	long long start = now();
	HANDLE find;
	long count = 0;

	join(path, ARRAYSIZE(path), root, pattern);
	find = FindFirstFileW(path, &data);
	if (find != INVALID_HANDLE_VALUE) {
		do
			count++;
		while (FindNextFileW(find, &data));
		FindClose(find);
	}
	timed(&timings[1], start);
	_snwprintf(detail, ARRAYSIZE(detail), L"%ld found, %ls expected",
		   count, expect);
	ok(count == wcstol(expect, NULL, 10), pattern, detail);
}

static void do_miss(const wchar_t *root, const wchar_t *rel)
{
	wchar_t path[MAX_PATH * 4], detail[64];
	long long start = now();
	HANDLE file;
	DWORD err;

	join(path, ARRAYSIZE(path), root, rel);
	file = CreateFileW(path, GENERIC_READ, FILE_SHARE_READ, NULL,
			   OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
	err = GetLastError();
	timed(&timings[2], start);
	if (file != INVALID_HANDLE_VALUE)
		CloseHandle(file);
	_snwprintf(detail, ARRAYSIZE(detail), L"missing (error %lu)", err);
	ok(file == INVALID_HANDLE_VALUE &&
	   (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND),
	   rel, detail);
}

static int same_file(HANDLE a, HANDLE b)
{
	BY_HANDLE_FILE_INFORMATION ia, ib;

	return GetFileInformationByHandle(a, &ia) &&
	       GetFileInformationByHandle(b, &ib) &&
	       ia.dwVolumeSerialNumber == ib.dwVolumeSerialNumber &&
	       ia.nFileIndexHigh == ib.nFileIndexHigh &&
	       ia.nFileIndexLow == ib.nFileIndexLow;
}

/* The Windows expectations that change the tree, on one existing file. */
static void case_semantics(const struct first_file *first)
{
	const wchar_t *path = first->path;
	wchar_t other[MAX_PATH * 4], detail[MAX_PATH * 4];
	const wchar_t *base = wcsrchr(path, L'\\') + 1;
	WIN32_FIND_DATAW data;
	HANDLE orig, file, find;
	DWORD err;

	/* Only the last component changes case: that is the name at stake. */
	wcscpy(other, path);
	swap_case(other + (base - path));

	find = FindFirstFileW(other, &data);
	_snwprintf(detail, ARRAYSIZE(detail), L"listed as %ls",
		   find == INVALID_HANDLE_VALUE ? L"nothing" : data.cFileName);
	ok(find != INVALID_HANDLE_VALUE && wcscmp(data.cFileName, first->stored) == 0,
	   L"FindFirstFileW of the exact name in another case finds it as stored",
	   detail);
	if (find != INVALID_HANDLE_VALUE)
		FindClose(find);

	file = CreateFileW(other, GENERIC_WRITE, 0, NULL, CREATE_NEW,
			   FILE_ATTRIBUTE_NORMAL, NULL);
	err = GetLastError();
	if (file != INVALID_HANDLE_VALUE)
		CloseHandle(file);
	_snwprintf(detail, ARRAYSIZE(detail), L"error %lu", err);
	ok(file == INVALID_HANDLE_VALUE && err == ERROR_FILE_EXISTS,
	   L"CREATE_NEW of another case of an existing name fails: the file exists",
	   detail);

	orig = CreateFileW(path, GENERIC_READ,
			   FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
			   OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
	file = CreateFileW(other, GENERIC_READ,
			   FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
			   OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
	err = GetLastError();
	ok(file != INVALID_HANDLE_VALUE && err == ERROR_ALREADY_EXISTS &&
	   orig != INVALID_HANDLE_VALUE && same_file(orig, file),
	   L"OPEN_ALWAYS of another case opens the existing file", NULL);
	if (file != INVALID_HANDLE_VALUE)
		CloseHandle(file);
	if (orig != INVALID_HANDLE_VALUE)
		CloseHandle(orig);

	ok(MoveFileExW(path, other, 0) != 0,
	   L"a rename to another case of its own name succeeds", NULL);
	find = FindFirstFileW(path, &data);
	_snwprintf(detail, ARRAYSIZE(detail), L"now listed as %ls",
		   find == INVALID_HANDLE_VALUE ? L"nothing" : data.cFileName);
	ok(find != INVALID_HANDLE_VALUE,
	   L"the renamed file is still found under its old spelling", detail);
	if (find != INVALID_HANDLE_VALUE)
		FindClose(find);
}

static FILE *open_list(const wchar_t *root, const wchar_t *name)
{
	wchar_t path[MAX_PATH * 4];
	FILE *f;

	join(path, ARRAYSIZE(path), root, name);
	f = _wfopen(path, L"rb");
	if (!f) {
		fwprintf(stderr, L"layout-client: %ls: cannot open\n", path);
		exit(2);
	}
	return f;
}

static void run_list(const wchar_t *root, const wchar_t *name,
		     struct first_file *first)
{
	char line[MAX_LINE];
	FILE *f = open_list(root, name);

	while (fgets(line, sizeof(line), f)) {
		char *kind = strtok(line, "\t\r\n");
		char *what = strtok(NULL, "\t\r\n");
		char *expect = strtok(NULL, "\r\n");
		wchar_t *w_what, *w_expect;

		if (!kind || !what)
			continue;
		w_what = widen(what);
		w_expect = widen(expect ? expect : "");
		if (!strcmp(kind, "open"))
			do_open(root, w_what, w_expect, first);
		else if (!strcmp(kind, "find"))
			do_find(root, w_what, w_expect);
		else if (!strcmp(kind, "miss"))
			do_miss(root, w_what);
		free(w_what);
		free(w_expect);
	}
	fclose(f);
}

int wmain(int argc, wchar_t **argv)
{
	static struct first_file first;
	int changes = 1, i;

	if (argc == 3 && !wcscmp(argv[1], L"--no-changes"))
		changes = 0;
	else if (argc != 2) {
		fwprintf(stderr, L"usage: layout-client.exe [--no-changes] ROOT\n");
		return 2;
	}
	QueryPerformanceFrequency(&ticks_per_second);
	run_list(argv[argc - 1], L"references.tsv", &first);
	run_list(argv[argc - 1], L"probes.tsv", &first);
	if (changes && first.path[0])
		case_semantics(&first);
	for (i = 0; i < (int)ARRAYSIZE(timings); i++)
		if (timings[i].count)
			printf("# timing %s %d %.1f\n", timings[i].kind,
				timings[i].count,
				timings[i].ticks * 1e6 / ticks_per_second.QuadPart /
				timings[i].count);
	printf("1..%d\n", tests);
	return failures ? 1 : 0;
}
