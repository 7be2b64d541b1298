/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Examining one directory's names as a casefolded directory would take
 * them: the core that check and convert share.  Invalid names, names
 * with ignorable code points and groups of names that fold alike go to
 * the report; convert also plans renames from the groups.
 */
#ifndef GAMEPART_EXAMINE_H
#define GAMEPART_EXAMINE_H

#include <stddef.h>

#include "fold.h"
#include "walk.h"

struct report;

/* What one directory held, counted. */
struct examined {
	size_t invalid;		/* names not valid in the encoding */
	size_t refused;		/* of which a strict filesystem refuses */
	size_t groups;		/* groups of names that fold alike */
};

/*
 * Start a directory of the report under the name SHOWN, and judge D's
 * names into it.  ON_GROUP (may be NULL) is called with CTX for each
 * group after the report has it.
 */
void examine_dir(struct folder *f, struct report *r, const char *shown,
		 const struct walk_dir *d, fold_group_fn on_group, void *ctx,
		 struct examined *out);

#endif
