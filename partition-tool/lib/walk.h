/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Walking a tree one directory at a time, online (a mounted path, through
 * openat/getdents64, never following a symbolic link, never leaving the
 * filesystem it started on) or offline (an unmounted device or image,
 * through libext2fs), behind one visitor interface.
 */
#ifndef GAMEPART_WALK_H
#define GAMEPART_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dirread.h"
#include "target.h"

struct walk_dir {
	const char *path;	/* relative to the walk's root; "." for it */
	uint64_t ino;
	bool casefolded;	/* EXT4_CASEFOLD_FL set */
	const struct dir_entry *entries;	/* without "." and ".." */
	size_t count;
};

/*
 * Called once per directory with all its entries; a non-zero return stops
 * the walk and is returned by it.
 */
typedef int (*walk_visit_fn)(void *ctx, const struct walk_dir *dir);

/* What went wrong or was left out; each has been reported on stderr. */
struct walk_result {
	unsigned long errors;		/* unreadable directories and the like */
	unsigned long skipped;		/* mount points, encrypted directories */
	unsigned long mounts;		/* of which mount points */
	unsigned long dirs;		/* directories visited */
};

/*
 * Walk the tree of an open target from its starting directory,
 * depth first, parents before children, calling VISIT once per directory.
 * Returns VISIT's non-zero return if it stopped the walk, otherwise 0; a
 * directory that cannot be read is reported ("gamepart: CMD: PATH: cause"),
 * counted in RES->errors and skipped, and the walk goes on.
 */
int walk_target(const struct target *t, walk_visit_fn visit, void *ctx,
		struct walk_result *res);

#endif
