// SPDX-License-Identifier: GPL-2.0
/*
 * Planning a conversion: the tree is walked and each directory that is
 * not casefolded yet is examined (lib/examine.h) as a casefolded one
 * would take its names; where names collide, the policy decides them as
 * they land in the directory made casefolded (lib/landing.h).
 */
#include <stdlib.h>
#include <string.h>

#include <ext2fs/ext2_fs.h>
#include <ext2fs/ext2fs.h>

#include "plan.h"
#include "lib/collision.h"
#include "lib/examine.h"
#include "lib/landing.h"
#include "lib/progress.h"
#include "lib/report.h"
#include "lib/target.h"
#include "lib/util.h"
#include "lib/walk.h"

/* The walk's state while it fills a plan. */
struct planner {
	enum collision_policy policy;
	struct folder *folder;
	struct report *report;
	struct plan *plan;
	const char *root_path;	/* offline: the root being walked */
	ext2fs_inode_bitmap planned;	/* offline: directories planned */
	unsigned long long dirs, names;	/* walked, for the progress line */
};

static struct change *new_change(struct plan_dir *pd)
{
	struct change *c;

	pd->changes = xrealloc(pd->changes,
			       (pd->nchanges + 1) * sizeof(*pd->changes));
	c = &pd->changes[pd->nchanges++];
	memset(c, 0, sizeof(*c));
	c->planned = true;
	return c;
}

/* Rename E to NAME, a ' (case conflict N)' name free in the directory. */
static void plan_rename(struct plan_dir *pd, const struct dir_entry *e,
			const char *name, size_t len)
{
	struct change *r = new_change(pd);

	r->old = xasprintf("%.*s", (int)e->len, e->name);
	r->oldlen = e->len;
	r->new = xasprintf("%.*s", (int)len, name);
	r->newlen = len;
	r->ino = e->ino;
}

/* Merge the directory E into KEEP (merge-plan.c does the rest). */
static void plan_merge(struct plan_dir *pd, const struct dir_entry *e,
		       const struct dir_entry *keep)
{
	struct change *m = new_change(pd);
	char *from = xasprintf("%.*s", (int)e->len, e->name);
	char *into = xasprintf("%.*s", (int)keep->len, keep->name);

	m->merge = true;
	m->old = join_path(pd->path, from);
	m->oldlen = strlen(m->old);
	m->new = join_path(pd->path, into);
	m->newlen = strlen(m->new);
	m->ino = keep->ino;
	free(from);
	free(into);
}

/*
 * The names of D, which collide, as they land in the directory made
 * casefolded: every one arrives (landing.h).  The changes come in the
 * order the conversion makes them, which is the landing's.
 */
static void plan_collisions(struct planner *p, struct plan_dir *pd,
			    const struct walk_dir *d)
{
	struct landing *l = landing_new(p->folder, p->policy);
	const struct landing_decision *dec;
	size_t i, n;

	for (i = 0; i < d->count; i++)
		landing_arrive(l, d->entries[i].name, d->entries[i].len,
			       d->entries[i].is_dir, 0, i);
	dec = landing_decide(l, &n);
	for (i = 0; i < n; i++) {
		const struct dir_entry *e = &d->entries[dec[i].entry->ref];

		if (dec[i].fate == LANDING_RENAMED)
			plan_rename(pd, e, dec[i].name, dec[i].len);
		else if (dec[i].fate == LANDING_MERGED)
			plan_merge(pd, e, &d->entries[dec[i].met->ref]);
		else if (dec[i].fate == LANDING_UNNAMED)
			plan_unnamed(p->plan, pd->path, e->name, e->len);
	}
	landing_free(l);
}

/*
 * The path a report gives for a directory: online relative to PATH,
 * offline absolute inside the filesystem.
 */
static char *plan_path(const struct planner *p, const char *path)
{
	const char *root = p->root_path;

	if (!root)
		return xstrdup(path);
	if (!strcmp(path, "."))
		return xstrdup(root);
	return xasprintf("%s/%s", strcmp(root, "/") ? root : "", path);
}

static int visit(void *ctx, const struct walk_dir *d)
{
	struct planner *p = ctx;
	struct plan *plan = p->plan;
	struct examined counts = { 0 };
	struct plan_dir *pd;
	char *path;

	p->dirs++;
	p->names += d->count;
	progress_show("checking: %llu directories, %llu names", p->dirs,
		      p->names);
	/* Offline, two DIRs may share a subtree. */
	if (p->planned) {
		if (ext2fs_test_inode_bitmap2(p->planned, d->ino))
			return 0;
		ext2fs_mark_inode_bitmap2(p->planned, d->ino);
	}
	path = plan_path(p, d->path);
	if (d->casefolded) {
		report_dir(p->report, path, true);
		report_scanned(p->report, d->count);
		plan->casefolded++;
		free(path);
		return 0;
	}
	if (plan->ndirs == plan->cap) {
		plan->cap = plan->cap ? 2 * plan->cap : 64;
		plan->dirs = xrealloc(plan->dirs, plan->cap * sizeof(*plan->dirs));
	}
	pd = &plan->dirs[plan->ndirs++];
	memset(pd, 0, sizeof(*pd));
	pd->path = path;
	pd->ino = d->ino;
	examine_dir(p->folder, p->report, path, d, NULL, NULL, &counts);
	if (counts.groups && p->policy != ON_COLLISION_FAIL)
		plan_collisions(p, pd, d);
	plan->refused += counts.refused;
	plan->groups += counts.groups;
	return 0;
}

void plan_free(struct plan *plan)
{
	size_t i, j;

	for (i = 0; i < plan->ndirs; i++) {
		for (j = 0; j < plan->dirs[i].nchanges; j++)
			change_free(&plan->dirs[i].changes[j]);
		free(plan->dirs[i].changes);
		free(plan->dirs[i].path);
	}
	free(plan->dirs);
	memset(plan, 0, sizeof(*plan));
}

size_t plan_renames(const struct plan *plan)
{
	size_t i, n = 0;

	for (i = 0; i < plan->ndirs; i++)
		for (size_t k = 0; k < plan->dirs[i].nchanges; k++)
			n += !plan->dirs[i].changes[k].merge;
	return n;
}

/*
 * Offline without DIR: the directories at the root of the filesystem,
 * lost+found aside (e2fsck's, which it recreates without +F), as a
 * NULL-terminated array of "/NAME"; NULL after a message.
 */
static char **top_dirs(const struct convert_options *o, const struct target *t)
{
	struct dir_entries d;
	errcode_t err = dirread_offline(t->fs, EXT2_ROOT_INO, &d);
	char **roots;
	size_t n = 0;

	if (err) {
		gp_warn("%s: /: %s", o->arg, error_message(err));
		return NULL;
	}
	roots = xcalloc(d.count + 1, sizeof(*roots));
	for (size_t i = 0; i < d.count; i++)
		if (d.v[i].is_dir && strcmp(d.v[i].name, "lost+found"))
			roots[n++] = xasprintf("/%s", d.v[i].name);
	dir_entries_free(&d);
	return roots;
}

int plan_tree(const struct convert_options *o, enum collision_policy policy,
	      struct target *t, struct folder *f, struct report *report,
	      struct plan *plan)
{
	struct planner p = { .policy = policy, .folder = f, .report = report,
			     .plan = plan };
	struct walk_result res = { 0 };
	errcode_t err;
	char *label;
	int ret = -1;

	plan_free(plan);
	label = xasprintf("gamepart: convert: %s", o->arg);
	progress_begin(label);
	if (t->kind == TARGET_ONLINE) {
		walk_target(t, visit, &p, &res);
		if (policy == ON_COLLISION_MERGE && !res.errors &&
		    plan_merges(plan, f, t->dirfd) < 0)
			res.errors++;
	} else {
		err = ext2fs_allocate_inode_bitmap(t->fs, "planned directories",
						   &p.planned);
		if (err) {
			gp_warn("%s: %s", o->arg, error_message(err));
			goto out;
		}
		char **roots = o->nroots ? NULL : top_dirs(o, t);
		size_t nroots = o->nroots;
		bool failed = !o->nroots && !roots;

		for (; roots && roots[nroots]; nroots++)
			;
		for (size_t i = 0; i < nroots && !failed; i++) {
			struct walk_result one;

			p.root_path = roots ? roots[i] : o->roots[i];
			failed = target_find_dir(t, p.root_path, &t->ino) < 0;
			if (!failed && t->ino == EXT2_ROOT_INO) {
				gp_warn("%s: %s: the root of the filesystem, which convert leaves as it is, online and offline; name the directories under it, or give no DIR for all of them but lost+found",
					o->arg, p.root_path);
				failed = true;
			}
			if (failed)
				break;
			walk_target(t, visit, &p, &one);
			res.errors += one.errors;
			res.skipped += one.skipped;
			res.mounts += one.mounts;
		}
		for (size_t i = 0; roots && roots[i]; i++)
			free(roots[i]);
		free(roots);
		if (failed)
			goto out;
	}
	if (res.mounts)
		gp_warn("%s: %lu other filesystem%s mounted inside the tree, nothing changed",
			o->arg, res.mounts, res.mounts == 1 ? " is" : "s are");
	else if (res.errors)
		gp_warn("%s: the tree could not be read whole, nothing changed",
			o->arg);
	else if (res.skipped)
		gp_warn("%s: %lu encrypted director%s inside the tree, nothing changed",
			o->arg, res.skipped, res.skipped == 1 ? "y" : "ies");
	else
		ret = 0;
out:
	progress_end();
	free(label);
	if (p.planned)
		ext2fs_free_inode_bitmap(p.planned);
	return ret;
}

void outcome_note(struct outcome *out, const char *dir,
		  const struct change *c)
{
	if (out->nchanges == out->cap) {
		out->cap = out->cap ? 2 * out->cap : 16;
		out->changes = xrealloc(out->changes,
					out->cap * sizeof(*out->changes));
	}
	change_copy(&out->changes[out->nchanges++], c, dir);
}

void outcome_free(struct outcome *out)
{
	for (size_t i = 0; i < out->nchanges; i++)
		change_free(&out->changes[i]);
	free(out->changes);
	for (size_t i = 0; i < out->nunconverted; i++)
		free(out->unconverted[i]);
	free(out->unconverted);
	memset(out, 0, sizeof(*out));
}
