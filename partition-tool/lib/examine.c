// SPDX-License-Identifier: GPL-2.0
/*
 * The names of one directory, judged (see examine.h).
 */
#include <stdint.h>

#include "examine.h"
#include "report.h"

struct groups {
	struct report *report;
	fold_group_fn on_group;
	void *ctx;
};

static void group(void *ctx, const struct dir_entry *const *names, size_t n)
{
	struct groups *g = ctx;

	report_collision(g->report, names, n);
	if (g->on_group)
		g->on_group(g->ctx, names, n);
}

void examine_dir(struct folder *f, struct report *r, const char *shown,
		 const struct walk_dir *d, fold_group_fn on_group, void *ctx,
		 struct examined *out)
{
	struct groups g = { .report = r, .on_group = on_group, .ctx = ctx };
	bool strict = folder_strict(f);
	uint32_t cp;
	size_t i;

	report_dir(r, shown, d->casefolded);
	report_scanned(r, d->count);
	for (i = 0; i < d->count; i++) {
		const struct dir_entry *e = &d->entries[i];

		switch (fold_examine(f, e->name, e->len, &cp)) {
		case FOLD_INVALID:
			report_invalid(r, e->name, e->len, strict);
			out->invalid++;
			out->refused += strict;
			break;
		case FOLD_IGNORABLE:
			report_ignorable(r, e->name, e->len, cp);
			break;
		case FOLD_PLAIN:
			break;
		}
	}
	out->groups += fold_groups(f, d->entries, d->count, group, &g);
}
