/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The processes that hold something under a directory: an open file, a
 * working or root directory, a mapped file (a game's executable and its
 * libraries).  While convert converts a directory, its entries are away
 * for a moment, and such a process may find a file missing.
 */
#ifndef GAMEPART_HOLDERS_H
#define GAMEPART_HOLDERS_H

#include <stddef.h>
#include <sys/types.h>

struct holder {
	pid_t pid;
	char comm[17];		/* its name, as /proc/PID/comm gives it */
};

struct holders {
	struct holder *v;	/* by pid */
	size_t count;
};

/*
 * The processes holding something under the directory DIR (an absolute
 * path without symbolic links, as realpath() gives it), but this one and
 * those waiting for it (the shell that runs it, whose working directory
 * may well be there), as far as /proc lets us see: a process we may not
 * look into is not found.
 */
void holders_find(const char *dir, struct holders *out);
void holders_free(struct holders *h);

/* "steam (1234), game.exe (5678)" and "and N more" past LIMIT. */
char *holders_text(const struct holders *h, size_t limit);

#endif
