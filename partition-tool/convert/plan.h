/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A conversion's plan (what the check of the tree found and decided,
 * made before anything changes) and its outcome (what was done, for
 * the report).
 */
#ifndef GAMEPART_CONVERT_PLAN_H
#define GAMEPART_CONVERT_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "change.h"
#include "convert.h"

struct folder;
struct report;
struct target;

/*
 * How this run converts: as the options say, or, resuming, as the
 * interrupted run did.
 */
struct convert_mode {
	enum collision_policy policy;
	bool replace;		/* directories under PATH are replaced */
};

/* A directory to convert, in the order the walk met it (parents first). */
struct plan_dir {
	char *path;		/* online relative to PATH ("." for it),
				   offline absolute inside the filesystem */
	uint64_t ino;
	struct change *changes;
	size_t nchanges;
};

struct plan {
	struct plan_dir *dirs;
	size_t ndirs, cap;
	size_t casefolded;	/* directories already +F */
	size_t groups;		/* collision groups in directories to convert */
	size_t refused;		/* names a strict +F directory would refuse */
	size_t unnamed;		/* names the rename policy could not rename */
};

/*
 * Walk the open target T (offline: from each of O's roots) into a new
 * PLAN and REPORT, names judged by F, renames chosen under POLICY.  -1
 * after a message when the tree cannot be converted (unreadable, other
 * mounts or encrypted directories inside).
 */
int plan_tree(const struct convert_options *o, enum collision_policy policy,
	      struct target *t, struct folder *f, struct report *report,
	      struct plan *plan);
void plan_free(struct plan *plan);
/*
 * NAME, of the directory DIR, collides and no ' (case conflict N)' name
 * fits it: said, and counted in PLAN->unnamed.
 */
void plan_unnamed(struct plan *plan, const char *dir, const char *name,
		  size_t len);

/* How many renames (not merges) the plan holds. */
size_t plan_renames(const struct plan *plan);

/*
 * Under the merge policy, once the tree is walked: add to each planned
 * directory's changes what its merges do inside the directories merged
 * (merge-plan.c), reading them beneath ROOTFD.  -1 after a message.
 */
int plan_merges(struct plan *plan, struct folder *f, int rootfd);

struct outcome {
	size_t converted;	/* directories */
	size_t moved;		/* entries moved (online) or relinked */
	size_t late_dirs;	/* directories made during the conversion,
				   converted (online) */
	char **unconverted;	/* made during it and left as they are */
	size_t nunconverted;
	struct change *changes;	/* done, in order, each with its dir */
	size_t nchanges, cap;
	bool undo_written;	/* offline: the undo file holds the run */
};

/* Note C, done; DIR is the directory converted, for a rename without
   its own. */
void outcome_note(struct outcome *out, const char *dir,
		  const struct change *c);
void outcome_free(struct outcome *out);

/* Everything a report of the run is made from. */
struct convert_result {
	const struct convert_options *o;
	struct convert_mode mode;
	struct report *report;
	const struct plan *plan;
	const struct outcome *out;
	const char *undo_file;	/* offline: the undo file to name */
	const char *record;	/* online: the record kept of the changes */
};

/*
 * The report, the plan (dry run) or the outcome, for people or as JSON;
 * OUTCOME_TEXT says how the run ended ("converted", ...).  -1 if the
 * output failed.
 */
int print_result(const struct convert_result *r, const char *outcome_text);

/*
 * The same report and outcome, as --json gives them, written to a new
 * file NAME in the directory DIRFD and synced; 0, or -1 with errno.
 */
int write_record(const struct convert_result *r, const char *outcome_text,
		 int dirfd, const char *name);

/*
 * After planning: the exit status if the plan stops here (names that
 * cannot be kept, collisions under the fail policy, a dry run), having
 * said why, or -1 to go on and change the filesystem.
 */
int plan_stops(const struct convert_result *r);

#endif
