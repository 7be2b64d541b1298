/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The directories of a game library: the default Steam layout, or one read
 * from a layout file (format in gamepart.8, LAYOUT FILES).
 */
#ifndef GAMEPART_LAYOUT_H
#define GAMEPART_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

struct layout_dir {
	char *path;		/* relative, no "." or "..", no trailing '/' */
	bool casefold;		/* wants EXT4_CASEFOLD_FL (+F) */
	unsigned long line;	/* in the layout file; 0 for the default */
};

/*
 * Directories in creation order: a directory's parent is the root or
 * comes before it.
 */
struct layout {
	struct layout_dir *dirs;
	size_t count;
};

/*
 * The Steam library layout: steamapps/ and its common/, compatdata/,
 * shadercache/, downloading/ and temp/, every one of them +F (see
 * "STEAM LAYOUT" in gamepart.8 for why steamapps/ itself is).
 */
void layout_default(struct layout *l);

struct folder;

/*
 * Read FILE.  On a syntax error, or a name that folds (as F, the rules of
 * the filesystem the layout is for, folds it) to a sibling's in a parent
 * listed as casefold, "FILE:LINE: cause" has been printed and -1 is
 * returned; on an I/O error "FILE: cause".
 */
int layout_read(struct layout *l, const char *file, const struct folder *f);

void layout_free(struct layout *l);

#endif
