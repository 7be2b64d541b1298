/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What to do when names would collide once case is folded, shared by
 * convert (names already in one directory) and import (names arriving
 * in one): the policies, and the ' (case conflict N)' names that the
 * rename and merge policies give.
 */
#ifndef GAMEPART_COLLISION_H
#define GAMEPART_COLLISION_H

#include <stdbool.h>
#include <stddef.h>

/* Which name keeps its own, and in which order they land: landing.h. */
enum collision_policy {
	ON_COLLISION_FAIL,	/* change nothing when names collide */
	ON_COLLISION_RENAME,	/* a name that collides is renamed */
	ON_COLLISION_MERGE,	/* a directory that meets a directory merges
				   into it; anything else is renamed */
};

/* The policy's name, as --on-collision, journals and JSON give it. */
const char *collision_policy_name(enum collision_policy policy);
/* The policy called NAME in *POLICY; false if none is. */
bool collision_policy_named(const char *name, enum collision_policy *policy);

/*
 * NAME with " (case conflict N)" before its last ".suffix" (none when the
 * only dot leads, as in ".bashrc"), the stem shortened at a character
 * boundary to stay within 255 bytes.  NULL if the suffix leaves no room.
 */
char *conflict_name(const char *name, size_t len, unsigned int n,
		    size_t *outlen);

#endif
