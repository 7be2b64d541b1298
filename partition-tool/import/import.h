/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The import engine: bring a tree from any filesystem into a library on
 * a casefolded ext4 filesystem, copying it (or moving it, within one
 * filesystem), so that every name arrives in a case-insensitive
 * directory and no file is lost to a name that folds like another.
 *
 * A run plans first (plan.c): SRC and what LIBRARY already holds are
 * read, names are grouped as the library's encoding folds them, and the
 * collision policy decides each group.  The plan is a list of steps,
 * each one safe to repeat; it is written to a journal in LIBRARY
 * (journal.c) before anything changes, so that an interrupted import is
 * finished with --resume (run.c).
 */
#ifndef GAMEPART_IMPORT_H
#define GAMEPART_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/collision.h"
#include "lib/work-dirs.h"

/* What the command line asked for; read-only to the engine. */
struct import_options {
	const char *src;		/* NULL: resuming, the journal's */
	const char *library;
	enum collision_policy policy;
	bool move;			/* rename, do not copy */
	bool dry_run, json, resume, force;
};

int import_run(const struct import_options *o);

/*
 * One step.  Paths are relative: SRC to the source tree's top, DEST to
 * LIBRARY ("." for either top).
 */
enum step_kind {
	STEP_MKDIR = 'd',	/* make DEST, case-insensitive, as SRC */
	STEP_ENTRY = 'e',	/* copy or move the non-directory SRC to DEST */
	STEP_DIR_ATTRS = 'a',	/* give DEST SRC's mode and times, once full */
	STEP_RMDIR = 'r',	/* move: remove the emptied directory SRC */
};

struct step {
	enum step_kind kind;
	char *src, *dest;
};

/*
 * A decision the report lists: a name renamed to DEST, or a directory
 * merged into the directory DEST (which the library may already hold).
 */
struct import_change {
	bool merge;
	char *src, *dest;
};

struct import_plan {
	struct step *steps;
	size_t nsteps, cap;
	struct import_change *changes;
	size_t nchanges, ccap;
	/* What it would bring, for the summary and the space check. */
	size_t files, symlinks, dirs;
	uint64_t bytes;
	/* Why it cannot go ahead; each is said where it is found. */
	size_t groups;		/* colliding groups (fail policy) */
	size_t refused;		/* names a strict library refuses */
	size_t unnamed;		/* names no conflict name fits */
	size_t unimportable;	/* sockets, devices, other mounts */
	/* Library directories that receive names but are not +F. */
	char **plain_dirs;
	size_t nplain;
};

void import_plan_free(struct import_plan *p);
void plan_add_step(struct import_plan *p, enum step_kind kind,
		   const char *src, const char *dest);
void plan_add_change(struct import_plan *p, bool merge, const char *src,
		     const char *dest);

struct folder;
struct report;

/*
 * Plan the import of the tree SRCFD into the library LIBFD, names judged
 * by F and found into REPORT, with (MOVE) the removal of the source's
 * emptied directories: 0, or -1 after a message when a directory
 * cannot be read.
 */
int import_plan(int srcfd, int libfd, struct folder *f,
		enum collision_policy policy, bool move, struct report *report,
		struct import_plan *p);

/* The journal of a run: its plan, and the steps known done. */
struct import_journal {
	int workfd;		/* LIBRARY/.gamepart-import */
	int fd;			/* the plan, locked */
	int donefd;
	char *src;		/* the real path of SRC */
	bool move;
	enum collision_policy policy;
	size_t done;		/* steps durable on disk */
};

/*
 * Make the work directory in LIBFD and write P durably to it, locked:
 * 0, or -1 after a message.
 */
int import_journal_create(struct import_journal *j, int libfd, const char *library,
		   const char *src, bool move, enum collision_policy policy,
		   const struct import_plan *p);
/*
 * Open and lock the journal of an interrupted import into LIBFD and read
 * its plan into P: 0, 1 when there is none, -1 after a message.
 */
int import_journal_load(struct import_journal *j, int libfd, const char *library,
		 struct import_plan *p);
/* Steps before N are on disk (the caller synced the filesystem). */
int import_journal_checkpoint(struct import_journal *j, size_t n);
/* Remove the journal and the work directory. */
int import_journal_finish(struct import_journal *j, int libfd);
void import_journal_close(struct import_journal *j);

/* Everything a report of the run is made from. */
struct import_result {
	const struct import_options *o;
	const char *src;		/* as named in the output */
	bool resumed;			/* no findings: the plan was read */
	bool move;
	enum collision_policy policy;
	struct report *report;
	const struct import_plan *plan;
	const char *outcome;		/* "imported", "dry run", ... */
	const char *record;		/* where the record went, or NULL */
	uid_t owner;
	gid_t group;
};

/* Print the result for people or as JSON; -1 if the output failed. */
int import_print(const struct import_result *r);
/* Write it as --json gives it to a new file NAME in DIRFD, synced: 0,
   or -1 with errno. */
int import_write_record(const struct import_result *r, int dirfd,
			const char *name);

#endif
