/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a run of an import works with (run.c), and its steps, taken one
 * at a time (steps.c).
 */
#ifndef GAMEPART_IMPORT_RUNNER_H
#define GAMEPART_IMPORT_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "import.h"
#include "lib/crash.h"

/* A copy, in the work directory, until it is renamed to its place. */
#define IMPORT_TMP_NAME		"tmp"

/* One open directory, found again by its path. */
struct dir_cache {
	int rootfd;
	char *path;
	int fd;
};

/* A file of SRC with several names, and its first copy in LIBRARY. */
struct linked {
	dev_t dev;
	ino_t ino;
	char *dest;
};

struct runner {
	const struct import_options *o;
	const char *library;
	int srcfd, libfd;
	struct import_journal j;
	struct import_plan plan;
	struct dir_cache src, dest;
	uid_t owner;
	gid_t group;
	bool chown;		/* give copies to the library's owner */
	bool move;
	size_t replay_until;	/* steps before it may find their own work
				   (resuming: all of them) */
	struct linked *links;
	size_t nlinks;
	char *buf;
	size_t leftovers;	/* source directories not emptied */
	char *src_name;		/* resumed: SRC as the journal names it */
	char *label;		/* of the progress line */
	struct crash_hook crash;
};

/*
 * Take step S; REPLAY: it may have been taken before an interruption,
 * and finds its own work.  -1 after a message.
 */
int take_step(struct runner *r, const struct step *s, bool replay);

/* Resuming a copy: find again the copies of files with several names
   made before the interruption. */
void find_links(struct runner *r);

/* Close what the steps keep open. */
void runner_release(struct runner *r);

/* "gamepart: import: TOP/PATH: WHAT: the cause (errno)"; -1. */
int import_fail(const char *top, const char *path, const char *what);

#endif
