/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A change a conversion makes to a name, as the plan, the journal and
 * the report hold it.
 */
#ifndef GAMEPART_CONVERT_CHANGE_H
#define GAMEPART_CONVERT_CHANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A change to a name: a rename, or (--on-collision=merge) a directory
 * merged into another.  Changes are made, recorded and reported in one
 * order, and each gives the paths as they are just before it is made.
 */
struct change {
	bool merge;
	/*
	 * A rename: OLD becomes NEW in DIR (a path as the directory's
	 * report gives it; NULL: the directory converted).  A merge: the
	 * entries of the directory OLD move into NEW, and OLD is removed;
	 * both are paths from the converted tree's root.
	 */
	char *dir;
	char *old, *new;
	size_t oldlen, newlen;
	uint64_t ino;		/* the renamed entry; the directory kept */
	bool planned;		/* in the plan, not forced by a late arrival */
};

void change_free(struct change *c);
/* TO, a copy of FROM, a rename given DIR if it has none. */
void change_copy(struct change *to, const struct change *from,
		 const char *dir);

/* NAME in the directory DIR (a path from the tree's root, "." for it). */
char *join_path(const char *dir, const char *name);

#endif
