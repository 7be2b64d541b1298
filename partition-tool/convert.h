/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gamepart convert's journal: what it records so that an interrupted
 * conversion can be finished (see cmd-convert.c).
 */
#ifndef GAMEPART_CONVERT_H
#define GAMEPART_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ext2fs/ext2fs.h>

/*
 * The work directory of a conversion of the tree with inode INO is
 * PARENT/.gamepart-convert.INO; it holds the journal and the temporary
 * directories, and exists only while a conversion is under way.
 */
#define CONVERT_WORK_PREFIX	".gamepart-convert."
#define CONVERT_JOURNAL		"journal"

struct rename {
	char *old, *new;
	size_t oldlen, newlen;
	uint64_t ino;
	bool planned;		/* in the plan, not forced by a late arrival */
};

struct journal {
	int fd;			/* read-only: holds the lock */
	int dirfd;		/* the work directory (not owned) */
	bool has_header;
	int policy;		/* 0 fail, 1 rename */
	bool replace;		/* directories are replaced, not emptied */
	/* The directory being converted: set by journal_begin() or read. */
	bool in_flight;
	char *path;
	uint64_t ino;
	struct timespec times[2];	/* its atime and mtime before */
	/* Its parent's, when it is replaced: the exchange changes them. */
	bool has_parent_times;
	struct timespec parent_times[2];
	struct rename *renames;
	size_t nrenames;
	char *pending;		/* records to write with the next one */
	/*
	 * Read back: the renames of the directories recorded done, with
	 * each one's directory, so that a resumed conversion reports them.
	 */
	struct rename *history;
	char **history_dirs;
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
   casefolded (REPLACE: see cmd-convert.c). */
int journal_start(struct journal *j, bool rename_policy, bool replace);
/* Record, durably, the directory about to be converted, its times, its
   parent's (PARENT_TIMES, or NULL) and its plan. */
int journal_begin(struct journal *j, const char *path, uint64_t ino,
		  const struct timespec times[2],
		  const struct timespec parent_times[2],
		  const struct rename *renames, size_t n);
/*
 * Record that it is converted.  The record goes to disk with the next one
 * (one fsync a directory, not two): lost in a crash, it costs a --resume
 * that finds the directory converted and does nothing to it.
 */
void journal_done(struct journal *j);
/* Remove the journal file; the lock goes with it. */
int journal_remove(struct journal *j, int workfd);
void journal_close(struct journal *j);

/* Whether a conversion of the directory DIRFD was interrupted (its work
   directory is still there). */
bool convert_interrupted(int dirfd);

/* ---- offline, through libext2fs (convert-offline.c) ---- */

enum { UNDO_NONE, UNDO_EMPTY, UNDO_UNFINISHED, UNDO_FINISHED };
/* What the undo file at PATH says of its run: UNDO_* (UNDO_EMPTY: made,
   but the run stopped before writing anything), or -1 (errno) if it
   cannot be read or is not an undo file. */
int undo_file_state(const char *path);

/* The undo file of an offline conversion of TARGET unless one is named:
   gamepart-convert-NAME.e2undo in $E2FSPROGS_UNDO_DIR or ".". */
char *convert_undo_file(const char *target);
/* That undo file, if an offline conversion of TARGET left it unfinished;
   else NULL. */
char *offline_interrupted(const char *target);

/* Turn the casefold feature on, as tune2fs -O casefold does. */
errcode_t offline_enable_casefold(ext2_filsys fs);

/* Called after each change, naming the phase it belongs to. */
typedef void (*offline_step_fn)(void *ctx, const char *phase);

/*
 * Make directory INO casefolded, keeping its inode and its entries'
 * inodes, each entry under its new name when RENAMES has one for it,
 * and rebuild its hash index for the casefolded hash.  *LINKED counts
 * the entries linked back.
 */
errcode_t offline_convert_dir(ext2_filsys fs, uint32_t ino,
			      const struct rename *renames, size_t nrenames,
			      size_t *linked, offline_step_fn step, void *ctx);

#endif
