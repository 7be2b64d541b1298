/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an online conversion works with: the tree's root, its parent, and
 * the work directory beside it (CONVERT_WORK_PREFIX in convert.h) that
 * holds the journal and the temporary directories.
 */
#ifndef GAMEPART_CONVERT_WORKSPACE_H
#define GAMEPART_CONVERT_WORKSPACE_H

#include "journal.h"
#include "plan.h"

struct crash_hook;
struct folder;

struct workspace {
	const char *arg;	/* PATH, for messages */
	int rootfd;		/* PATH (owned by its target) */
	int parentfd;		/* PATH/.. */
	int workfd;		/* the work directory, -1 until opened */
	char workname[64];
	struct journal journal;
	struct crash_hook *crash;
	struct folder *folder;	/* the filesystem's names (owned by the run) */
	bool resuming;		/* finishing a directory a crash interrupted */
};

/*
 * Open PATH's parent and name the work directory; refuse a PATH that is
 * the root of its filesystem, whose entries have nowhere to go.  -1 after
 * a message.
 */
int workspace_init(struct workspace *ws, const char *arg, int rootfd,
		   struct crash_hook *crash);
void workspace_close(struct workspace *ws);

/*
 * Open the work directory of an earlier conversion and lock its journal:
 * 0, 1 if there is none, 2 if there is only the empty work directory of
 * a finished conversion (for workspace_remove_dir), -1 after a message.
 */
int workspace_open(struct workspace *ws);

/* Make the work directory with its journal's header (MODE) in it. */
int workspace_make(struct workspace *ws, const struct convert_mode *mode);

/* Remove the journal, then the work directory. */
int workspace_remove(struct workspace *ws);
/* Remove the work directory, once empty. */
int workspace_remove_dir(struct workspace *ws);

/* DIRFD/NAME, a directory, never through a symbolic link. */
int open_dir_at(int dirfd, const char *name);
/* RELPATH beneath ROOTFD, never through a symbolic link or another mount. */
int open_beneath(int rootfd, const char *relpath);

#endif
