// SPDX-License-Identifier: GPL-2.0
/*
 * lookup-bench.exe [-r ROUNDS] [-t MS] DIR...: how long a Windows program
 * waits, under Wine, for CreateFileW of one name in each DIR (a Windows
 * path, e.g. Z:\tmp\mnt\cf-10000) filled by progs/lookup-bench populate
 * (file-000000.dat ...).  The Windows twin of progs/lookup-bench.
 *
 * Kinds of request, each timed over at least 16 requests and MS
 * milliseconds (default 300), in every directory in turn, ROUNDS rounds
 * (default 3), the best round kept:
 *
 *   exact   an existing name as stored: Wine's fixed cost per open
 *   case    the same names in upper case, as a game spells them
 *   miss    a missing name, a new one each time, not a legal 8.3 name
 *   miss83  a missing legal 8.3 name (D3DX9_43.DLL-like), a new one each
 *           time: Wine scans the directory for these even where the
 *           filesystem folds case (see NOTES.md on find_file_in_dir)
 *   list    FindFirstFileW("DIR\\*.dds"), as a game looks for its
 *           textures: Wine reads the whole directory and finds none
 *           (at least 4 requests, each a whole listing)
 *
 * Every answer is checked (found or ERROR_FILE_NOT_FOUND), so what is
 * timed is the real lookup.  Output, one line per directory and kind:
 * "DIR KIND REQUESTS MEAN_US".
 */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

#define SPREAD_NAMES 16
#define MIN_REQUESTS 16
#define MAX_REQUESTS 100000

enum kind { EXACT, CASE, MISS, MISS83, LIST, KINDS };

static const char *const kind_names[KINDS] = {
	"exact", "case", "miss", "miss83", "list"
};

static LARGE_INTEGER ticks_per_second;

static double now_us(void)
{
	LARGE_INTEGER t;

	QueryPerformanceCounter(&t);
	return t.QuadPart * 1e6 / ticks_per_second.QuadPart;
}

/* How many file-NNNNNN.dat the directory holds: the names are dense. */
static long count_entries(const wchar_t *dir)
{
	wchar_t pattern[MAX_PATH];
	WIN32_FIND_DATAW data;
	HANDLE find;
	long n = 0;

	_snwprintf(pattern, MAX_PATH, L"%ls\\file-*.dat", dir);
	find = FindFirstFileW(pattern, &data);
	if (find == INVALID_HANDLE_VALUE)
		return 0;
	do
		n++;
	while (FindNextFileW(find, &data));
	FindClose(find);
	return n;
}

/*
 * The I-th request's path.  Existing names are spread over the directory:
 * where a scan finds a name depends on where it sits in readdir order.
 */
static void request_path(wchar_t *out, const wchar_t *dir, long entries,
			 enum kind kind, int round, long i)
{
	long which = (i % SPREAD_NAMES) * entries / SPREAD_NAMES;

	switch (kind) {
	case EXACT:
		_snwprintf(out, MAX_PATH, L"%ls\\file-%06ld.dat", dir, which);
		break;
	case CASE:
		_snwprintf(out, MAX_PATH, L"%ls\\FILE-%06ld.DAT", dir, which);
		break;
	case MISS:
		_snwprintf(out, MAX_PATH, L"%ls\\missing-file-%d-%06ld.dll", dir,
			   round, i);
		break;
	case MISS83:
		_snwprintf(out, MAX_PATH, L"%ls\\Q%d%06ld.DLL", dir, round % 10, i);
		break;
	default:
		_snwprintf(out, MAX_PATH, L"%ls\\*.dds", dir);
		break;
	}
	out[MAX_PATH - 1] = 0;
}

/* One kind in one directory: microseconds per request, or -1 if wrong. */
static double time_kind(const wchar_t *dir, long entries, enum kind kind,
			int round, double min_us, long *requests)
{
	wchar_t path[MAX_PATH];
	double start = now_us(), elapsed = 0;
	long i;

	long min_requests = kind == LIST ? 4 : MIN_REQUESTS;

	for (i = 0; i < MAX_REQUESTS && (i < min_requests || elapsed < min_us); i++) {
		int want = kind == EXACT || kind == CASE;
		WIN32_FIND_DATAW data;
		HANDLE file;
		DWORD err;

		request_path(path, dir, entries, kind, round, i);
		if (kind == LIST)
			file = FindFirstFileW(path, &data);
		else
			file = CreateFileW(path, GENERIC_READ, FILE_SHARE_READ, NULL,
					   OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
		err = GetLastError();
		if (file != INVALID_HANDLE_VALUE && kind == LIST)
			FindClose(file);
		else if (file != INVALID_HANDLE_VALUE)
			CloseHandle(file);
		if (want != (file != INVALID_HANDLE_VALUE) ||
		    (!want && err != ERROR_FILE_NOT_FOUND)) {
			fwprintf(stderr, L"lookup-bench.exe: %ls: %ls (error %lu)\n",
				 path, want ? L"not found" : L"unexpected answer", err);
			return -1;
		}
		elapsed = now_us() - start;
	}
	*requests = i;
	return elapsed / i;
}

int wmain(int argc, wchar_t **argv)
{
	int rounds = 3, first = 1, round, d, k, ndirs;
	double min_us = 300e3, (*best)[KINDS];
	long (*requests)[KINDS], *entries;

	while (first + 1 < argc && argv[first][0] == L'-') {
		if (!wcscmp(argv[first], L"-r"))
			rounds = _wtoi(argv[first + 1]);
		else if (!wcscmp(argv[first], L"-t"))
			min_us = _wtoi(argv[first + 1]) * 1e3;
		else
			break;
		first += 2;
	}
	ndirs = argc - first;
	if (ndirs < 1 || rounds < 1 || argv[first][0] == L'-') {
		fwprintf(stderr, L"usage: lookup-bench.exe [-r ROUNDS] [-t MS] DIR...\n");
		return 2;
	}
	QueryPerformanceFrequency(&ticks_per_second);
	best = calloc(ndirs, sizeof(*best));
	requests = calloc(ndirs, sizeof(*requests));
	entries = calloc(ndirs, sizeof(*entries));
	if (!best || !requests || !entries)
		return 2;
	for (d = 0; d < ndirs; d++) {
		entries[d] = count_entries(argv[first + d]);
		if (!entries[d]) {
			fwprintf(stderr, L"lookup-bench.exe: %ls: no file-*.dat in it\n",
				 argv[first + d]);
			return 1;
		}
	}
	/* Rounds go round every directory, so that a slow spell of the host
	 * costs one round of each rather than all of one. */
	for (round = 0; round < rounds; round++)
		for (d = 0; d < ndirs; d++)
			for (k = 0; k < KINDS; k++) {
				long n;
				double us = time_kind(argv[first + d], entries[d], k,
						      round, min_us, &n);

				if (us < 0)
					return 1;
				if (!round || us < best[d][k]) {
					best[d][k] = us;
					requests[d][k] = n;
				}
			}
	for (d = 0; d < ndirs; d++)
		for (k = 0; k < KINDS; k++)
			wprintf(L"%ls %hs %ld %.1f\n", argv[first + d], kind_names[k],
				requests[d][k], best[d][k]);
	return 0;
}
