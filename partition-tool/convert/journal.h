/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The journal of an online conversion: what it records so that an
 * interrupted conversion can be finished (see run.c).
 */
#ifndef GAMEPART_CONVERT_JOURNAL_H
#define GAMEPART_CONVERT_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "convert.h"
#include "change.h"

#define CONVERT_JOURNAL		"journal"

struct journal {
	int fd;			/* read-only: holds the lock */
	int dirfd;		/* the work directory (not owned) */
	bool has_header;
	char *version;		/* read: another version's, which it is not */
	enum collision_policy policy;
	bool replace;		/* directories are replaced, not emptied */
	/* The directory being converted: set by journal_begin() or read. */
	bool in_flight;
	char *path;
	uint64_t ino;
	struct timespec times[2];	/* its atime and mtime before */
	/* Its parent's, when it is replaced: the exchange changes them. */
	bool has_parent_times;
	struct timespec parent_times[2];
	struct change *changes;
	size_t nchanges;
	char *pending;		/* records to write with the next one */
	/*
	 * Read back: the changes of the directories recorded done, each
	 * rename with its directory, so that a resumed conversion reports
	 * them.
	 */
	struct change *history;
	size_t nhistory;
};

void journal_init(struct journal *j);
/* Open (CREATE: creating it) and lock the journal in WORKFD: 0, or
   -errno (-EWOULDBLOCK: another conversion holds it). */
int journal_open(struct journal *j, int workfd, bool create);
/* Read an existing journal: the policy, the directory in flight and the
   renames done; -1 (EINVAL) if it is not one. */
int journal_read(struct journal *j);
/* The header, with the collision policy and how directories are made
   casefolded (REPLACE: see replace.c). */
int journal_start(struct journal *j, enum collision_policy policy,
		  bool replace);
/* Record, durably, the directory about to be converted, its times, its
   parent's (PARENT_TIMES, or NULL) and its plan. */
int journal_begin(struct journal *j, const char *path, uint64_t ino,
		  const struct timespec times[2],
		  const struct timespec parent_times[2],
		  const struct change *changes, size_t n);
/* Record, durably, that POLICY applies from here on (a resumed run's,
   once the directory in flight is finished). */
int journal_policy(struct journal *j, enum collision_policy policy);
/*
 * Record that it is converted.  The record goes to disk with the next one
 * (one fsync a directory, not two): lost in a crash, it costs a --resume
 * that finds the directory converted and does nothing to it.
 */
void journal_done(struct journal *j);
/* Remove the journal file; the lock goes with it. */
int journal_remove(struct journal *j, int workfd);
void journal_close(struct journal *j);

#endif
