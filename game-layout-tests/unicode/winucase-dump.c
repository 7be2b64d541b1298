// SPDX-License-Identifier: GPL-2.0
/*
 * winucase-dump: Windows 8's upper case of each code point of plane 0, as
 * the kernel's fs/smb/client/winucase.c (MS-UCODEREF 3.1.5.3) gives it
 * through cifs_toupper(), built here with that file as it is.
 *
 *   winucase-dump
 *
 * Each line is a code point and its upper case, both hexadecimal (the
 * code point itself where the table has no upper case for it).
 */
#include <stdio.h>
#include <linux/nls.h>

wchar_t cifs_toupper(wchar_t in);

int main(void)
{
	for (unsigned int c = 0; c < 0x10000; c++)
		printf("%04x %04x\n", c, cifs_toupper(c));
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
