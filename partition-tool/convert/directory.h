/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Converting one directory of a mounted tree, the one the journal names:
 * keeping its inode (keep.c) or replacing it (replace.c), both by moving
 * entries with renameat2 (moves.c).  Each step finds its work from the
 * filesystem, so the same calls finish a directory a crash interrupted.
 */
#ifndef GAMEPART_CONVERT_DIRECTORY_H
#define GAMEPART_CONVERT_DIRECTORY_H

#include <stdbool.h>

#include "plan.h"
#include "workspace.h"

/* Attempts at emptying a directory that a writer keeps filling. */
#define EMPTY_TRIES	10

/* Convert the directory in flight keeping its inode; -1 after a message. */
int keep_dir(struct workspace *ws, struct outcome *out);
/* Convert it by replacing it with a new one; -1 after a message. */
int replace_dir(struct workspace *ws, struct outcome *out);

/* Move every entry of DFD into TFD as it is; false after a message. */
bool empty_into(struct workspace *ws, const char *path, int dfd, int tfd);

/*
 * A directory entries move out of or into: open as FD, at PATH (from the
 * tree's root, as reports give it); KEY names it in the plan's renames
 * (NULL: the directory in flight, or its temporary twin).
 */
struct place {
	int fd;
	const char *path;
	const char *key;
};

/*
 * Move every entry of FROM into the casefolded TO, in the order they
 * land (lib/landing.h: by their names' bytes, under the merge policy
 * directories first), under its planned new name if it has one; a name that
 * collides meanwhile gets the next free ' (case conflict N)' name, and
 * under the merge policy two directories that collide are merged (the
 * one in TO is kept).  PHASE names the step, for the crash hook and the
 * messages.  False after a message.
 */
bool move_all(struct workspace *ws, struct outcome *out,
	      const struct place *to, const struct place *from,
	      const char *phase);

/*
 * Whether nothing of the directory in flight has moved: NAME, its
 * temporary (or new) directory in the work directory, was never made.
 */
bool untouched(const struct workspace *ws, const char *name);

/* The directory that holds PATH (relative to the tree's root). */
char *parent_path(const char *path);

/* Report the planned changes of a directory an interrupted run started
   (other directories' are reported as they are made). */
void note_planned_changes(struct workspace *ws, struct outcome *out, int dfd);

#endif
