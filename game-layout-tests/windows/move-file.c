// SPDX-License-Identifier: GPL-2.0
/*
 * move-file.exe OLD NEW: MoveFileExW(OLD, NEW, 0) as a Windows program
 * renames a file, then FindFirstFileW(NEW) to print, in UTF-8, the name
 * the directory now lists.  For a rename that changes only the case of a
 * name, Windows lists NEW's spelling.
 * move-file.exe --list NAME: only the FindFirstFileW(NAME).
 *
 * Output: "moved NAME", "move-failed ERROR NAME" or "listed NAME", NAME
 * being what the listing shows ("-" when FindFirstFileW finds nothing).
 * Exit status 0 if the move succeeded, or the name was listed.
 */
#include <windows.h>
#include <stdio.h>
#include <wchar.h>

int wmain(int argc, wchar_t **argv)
{
	WIN32_FIND_DATAW data;
	char listed[MAX_PATH * 4] = "-";
	DWORD err = 0;
	HANDLE find;
	BOOL list_only, moved;

	if (argc != 3) {
		fputs("usage: move-file.exe OLD NEW | --list NAME\n", stderr);
		return 2;
	}
	list_only = !wcscmp(argv[1], L"--list");
	moved = list_only || MoveFileExW(argv[1], argv[2], 0);
	if (!moved)
		err = GetLastError();
	find = FindFirstFileW(argv[2], &data);
	if (find != INVALID_HANDLE_VALUE) {
		WideCharToMultiByte(CP_UTF8, 0, data.cFileName, -1, listed,
				    sizeof(listed), NULL, NULL);
		FindClose(find);
	}
	if (list_only)
		printf("listed %s\n", listed);
	else if (moved)
		printf("moved %s\n", listed);
	else
		printf("move-failed %lu %s\n", err, listed);
	if (list_only)
		return find != INVALID_HANDLE_VALUE ? 0 : 1;
	return moved ? 0 : 1;
}
