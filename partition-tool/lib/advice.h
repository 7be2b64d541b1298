/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What to run next on a Steam library: one command that casefolds every
 * directory of it that should be casefolded and is not (library
 * directories, game folders, Proton prefixes), with the collision policy
 * that the names below them need.  gamepart status prints it, and the
 * units' reports log what status prints.
 */
#ifndef GAMEPART_ADVICE_H
#define GAMEPART_ADVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "target.h"

enum todo_kind { TODO_LAYOUT, TODO_GAME, TODO_PREFIX };

struct todo_dir {
	char *path;		/* from the library's root */
	bool empty;
	enum todo_kind kind;
};

/* The directories that want +F and lack it. */
struct todo {
	struct todo_dir *v;
	size_t count;
	size_t kinds[3];	/* how many of each kind */
};

void todo_add(struct todo *td, const char *path, bool empty,
	      enum todo_kind kind);
void todo_free(struct todo *td);

/*
 * Print to OUT what is not casefolded, the names that would collide once
 * it is, and the command that converts it all ("next: ..."), for the
 * library at T (SHOWN is how to write its path online).  FI says whether
 * the filesystem has the casefold feature.  -1 when the names below could
 * not all be read (a message was printed), else 0.
 */
int todo_advise(FILE *out, const struct target *t, const struct fs_info *fi,
		const char *shown, struct todo *td);

#endif
