// SPDX-License-Identifier: GPL-2.0
/*
 * print-file.exe PATH: open PATH through the Win32 API and copy it to the
 * console.  The guest boot test runs it under Wine to show that Windows
 * programs run in the guest at all; the full test client comes later.
 */
#include <windows.h>
#include <stdio.h>

int wmain(int argc, wchar_t **argv)
{
	HANDLE file, out;
	char buf[4096];
	DWORD got, put;

	if (argc != 2) {
		fwprintf(stderr, L"usage: print-file.exe PATH\n");
		return 2;
	}
	file = CreateFileW(argv[1], GENERIC_READ, FILE_SHARE_READ, NULL,
			   OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
	if (file == INVALID_HANDLE_VALUE) {
		fwprintf(stderr, L"print-file: %ls: error %lu\n", argv[1],
			 GetLastError());
		return 1;
	}
	out = GetStdHandle(STD_OUTPUT_HANDLE);
	while (ReadFile(file, buf, sizeof(buf), &got, NULL) && got > 0) {
		if (!WriteFile(out, buf, got, &put, NULL) || put != got) {
			CloseHandle(file);
			return 1;
		}
	}
	CloseHandle(file);
	return 0;
}
