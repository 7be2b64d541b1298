// SPDX-License-Identifier: GPL-2.0
/*
 * rename2: renameat2(2) from the shell, for the flags mv(1) may not offer.
 *
 *   rename2 [--noreplace|--exchange] OLD NEW
 *
 * Exits 0 on success; otherwise prints the error and exits 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE	(1 << 0)
#define RENAME_EXCHANGE		(1 << 1)
#endif

int main(int argc, char **argv)
{
	unsigned int flags = 0;
	int i = 1;

	if (argc == 4 && !strcmp(argv[1], "--noreplace"))
		flags = RENAME_NOREPLACE, i = 2;
	else if (argc == 4 && !strcmp(argv[1], "--exchange"))
		flags = RENAME_EXCHANGE, i = 2;
	else if (argc != 3) {
		fputs("Usage: rename2 [--noreplace|--exchange] OLD NEW\n", stderr);
		return 2;
	}
	if (syscall(SYS_renameat2, AT_FDCWD, argv[i], AT_FDCWD, argv[i + 1],
		    flags) < 0) {
		fprintf(stderr, "rename2: %s -> %s: %s\n", argv[i], argv[i + 1],
			strerror(errno));
		return 1;
	}
	return 0;
}
