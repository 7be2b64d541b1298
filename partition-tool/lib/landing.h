/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one planner of names landing in a casefolded directory, which
 * convert and import share: the names the directory holds, and names
 * arriving from one or more sources, decided by a collision policy.
 *
 * The rule, for both commands (gamepart(8) says it to users):
 *
 *  - A name the directory already holds keeps it: programs already open
 *    it by that path.  (Convert fills a directory anew, so at its top
 *    every name arrives; inside a merge, the kept directory's names are
 *    held.)
 *  - Names arrive source by source, in the order their directories
 *    merged; within a source, under the merge policy directories come
 *    first, so that a directory takes a name before a file does; then
 *    byte by byte.
 *  - An arriving name that folds like no name taken takes its own.
 *  - A directory with the very bytes of a directory there joins it, as
 *    with cp -a: not a collision, under every policy.
 *  - Otherwise it collides with the name there.  fail: it is a
 *    collision, and the run stops; merge, both directories: it merges
 *    into the one there; anything else takes the first
 *    ' (case conflict N)' name (collision.h) that folds like no name of
 *    the landing, held, arriving or given: a name that collides with
 *    nothing is never renamed to make room.
 *
 * A merge is decided here; what lands inside the merged directories is
 * a landing of its own, held names the kept directory's, which the
 * caller plans with the entries it reads (recursively).
 */
#ifndef GAMEPART_LANDING_H
#define GAMEPART_LANDING_H

#include <stdbool.h>
#include <stddef.h>

#include "collision.h"

struct folder;

struct landing_entry {
	const char *name;	/* not copied: kept until landing_free() */
	size_t len;
	bool is_dir;
	size_t source;		/* an arriving name's source, from 0 */
	size_t ref;		/* the caller's, to find its entry again */
	bool held;		/* given by landing_hold() */
};

enum landing_fate {
	LANDING_TAKEN,		/* takes its own name */
	LANDING_JOINED,		/* a directory, into the one of its very name */
	LANDING_MERGED,		/* a directory, into the one it folds like */
	LANDING_RENAMED,	/* takes a ' (case conflict N)' name */
	LANDING_COLLIDED,	/* fail policy: folds like a name taken */
	LANDING_UNNAMED,	/* no ' (case conflict N)' name fits it */
};

struct landing_decision {
	const struct landing_entry *entry;
	enum landing_fate fate;
	/* RENAMED: the new name; otherwise the entry's own. */
	const char *name;
	size_t len;
	/* JOINED, MERGED, RENAMED, COLLIDED, UNNAMED: the entry holding
	   the name it met. */
	const struct landing_entry *met;
};

/*
 * The order two names of one source land in (above): < 0 when A (a
 * directory if A_DIR) lands before B.  For an executor that moves
 * entries one by one, to move them in the order they were planned.
 */
int landing_order(enum collision_policy policy, const char *a, size_t alen,
		  bool a_dir, const char *b, size_t blen, bool b_dir);

struct landing;

struct landing *landing_new(const struct folder *f,
			    enum collision_policy policy);
void landing_free(struct landing *l);
/* NAME (of LEN bytes; a directory if IS_DIR) is held, the caller's REF. */
void landing_hold(struct landing *l, const char *name, size_t len,
		  bool is_dir, size_t ref);
/* NAME arrives from SOURCE. */
void landing_arrive(struct landing *l, const char *name, size_t len,
		    bool is_dir, size_t source, size_t ref);
/*
 * Decide every arriving name: the decisions, one per arrival, in the
 * order above, which is the order a run lands them in; valid until
 * landing_free().  Each lookup is hashed: O(N) for N names, plus the
 * sort of the arrivals.
 */
const struct landing_decision *landing_decide(struct landing *l,
					      size_t *count);

#endif
