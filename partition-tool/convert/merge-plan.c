// SPDX-License-Identifier: GPL-2.0
/*
 * Planning the merges of --on-collision=merge.  The walk (plan.c) marks,
 * in each directory to convert, which directories of a colliding group
 * merge into the one kept; what a merge does inside them depends on what
 * the directories hold once converted themselves (children are converted
 * before their parents), so it is worked out here, after the walk, by
 * playing the conversion through on a model of the directories involved,
 * children first and in the order the moves are made (moves.c):
 *
 *  - the entries of each merged directory land in the kept one as
 *    lib/landing.h decides: the kept one's own entries keep their names,
 *    the arriving directories come first, then the rest, by bytes;
 *  - two directories that collide there merge the same way, recursively,
 *    into the one already there;
 *  - anything else that collides gets a ' (case conflict N)' name.
 *
 * Each nested change goes into the converted directory's list before the
 * merge that makes it, which is the order the conversion makes them in.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"
#include "workspace.h"
#include "lib/dirread.h"
#include "lib/fold.h"
#include "lib/landing.h"
#include "lib/report.h"
#include "lib/util.h"

struct model_dir;

struct model_entry {
	char *name;		/* as the conversion will have named it */
	size_t len;
	uint64_t ino;
	bool is_dir;
	char *source;		/* its path before the run, to read it from */
	struct model_dir *dir;	/* a directory's model, once read */
};

/* A directory as the conversion leaves it: its plan applied. */
struct model_dir {
	char *source;
	struct model_entry *v;
	size_t count, cap;
};

struct merge_planner {
	struct plan *plan;
	struct folder *folder;
	int rootfd;
	struct model_dir **dirs;	/* every model read, to find and free */
	size_t ndirs, cap;
	struct change *list;		/* the directory's rebuilt changes */
	size_t nlist, listcap;
	int errors;
};

/* Also plan.c's, which calls this file and is not called by it. */
void plan_unnamed(struct plan *plan, const char *dir, const char *name,
		  size_t len)
{
	char *q = report_escape(name, len, true);

	gp_warn("%s: %s: no room for a ' (case conflict N)' name", dir, q);
	free(q);
	plan->unnamed++;
}

static void add_entry(struct model_dir *d, const struct model_entry *e)
{
	if (d->count == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 16;
		d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
	}
	d->v[d->count++] = *e;
}

static struct plan_dir *planned_dir(const struct plan *plan, const char *path)
{
	for (size_t i = 0; i < plan->ndirs; i++)
		if (!strcmp(plan->dirs[i].path, path))
			return &plan->dirs[i];
	return NULL;
}

/* The name the plan of PD gives its entry NAME; NULL if merged away. */
static const char *name_after(const struct plan_dir *pd, const char *path,
			      const char *name)
{
	const char *now = name;
	char *full;

	if (!pd)
		return now;
	full = join_path(path, name);
	for (size_t i = 0; i < pd->nchanges; i++) {
		const struct change *c = &pd->changes[i];

		if (c->merge && !strcmp(c->old, full)) {
			now = NULL;
			break;
		}
		if (!c->merge && !c->dir && !strcmp(c->old, name))
			now = c->new;
	}
	free(full);
	return now;
}

/* Read the directory SOURCE as its own conversion will leave it. */
static struct model_dir *read_model(struct merge_planner *mp,
				    const char *source)
{
	const struct plan_dir *pd = planned_dir(mp->plan, source);
	struct model_dir *d = xcalloc(1, sizeof(*d));
	struct dir_entries ents;
	int fd = open_beneath(mp->rootfd, source);

	d->source = xstrdup(source);
	if (mp->ndirs == mp->cap) {
		mp->cap = mp->cap ? 2 * mp->cap : 16;
		mp->dirs = xrealloc(mp->dirs, mp->cap * sizeof(*mp->dirs));
	}
	mp->dirs[mp->ndirs++] = d;
	if (fd < 0 || dirread_online(fd, true, &ents) < 0) {
		gp_warn("%s: reading it to plan a merge: %s", source,
			strerror(errno));
		mp->errors++;
		if (fd >= 0)
			close(fd);
		return d;
	}
	close(fd);
	for (size_t i = 0; i < ents.count; i++) {
		const struct dir_entry *de = &ents.v[i];
		const char *name = name_after(pd, source, de->name);
		struct model_entry e = { 0 };

		if (!name)
			continue;
		e.name = xstrdup(name);
		e.len = strlen(name);
		e.ino = de->ino;
		e.is_dir = de->is_dir;
		e.source = join_path(source, de->name);
		add_entry(d, &e);
	}
	dir_entries_free(&ents);
	return d;
}

static struct model_dir *model_of(struct merge_planner *mp,
				  const char *source)
{
	for (size_t i = 0; i < mp->ndirs; i++)
		if (!strcmp(mp->dirs[i]->source, source))
			return mp->dirs[i];
	return read_model(mp, source);
}

static struct model_dir *entry_model(struct merge_planner *mp,
				     struct model_entry *e)
{
	if (!e->dir)
		e->dir = model_of(mp, e->source);
	return e->dir;
}

static void push(struct merge_planner *mp, const struct change *c)
{
	if (mp->nlist == mp->listcap) {
		mp->listcap = mp->listcap ? 2 * mp->listcap : 16;
		mp->list = xrealloc(mp->list, mp->listcap * sizeof(*mp->list));
	}
	mp->list[mp->nlist++] = *c;
}

/*
 * E, an entry of the directory at PATH merged into another, renamed to
 * NAME there, and recorded.
 */
static void rename_arriving(struct merge_planner *mp, const char *path,
			    struct model_entry *e, const char *name, size_t len)
{
	struct change c = { .ino = e->ino, .planned = true };

	c.dir = xstrdup(path);
	c.old = e->name;
	c.oldlen = e->len;
	c.new = xasprintf("%.*s", (int)len, name);
	c.newlen = len;
	push(mp, &c);
	e->name = xstrdup(c.new);
	e->len = c.newlen;
}

/* Play the merge of FROM (at FROM_PATH) into INTO (at INTO_PATH). */
static void play_merge(struct merge_planner *mp, struct model_dir *into,
		       const char *into_path, struct model_dir *from,
		       const char *from_path)
{
	struct model_entry *v = from->v;
	struct landing *l = landing_new(mp->folder, ON_COLLISION_MERGE);
	const struct landing_decision *dec;
	size_t i, n = from->count;

	/* Taken out first: a merge may be asked of a model twice. */
	from->v = NULL;
	from->count = from->cap = 0;
	for (i = 0; i < into->count; i++)
		landing_hold(l, into->v[i].name, into->v[i].len,
			     into->v[i].is_dir, i);
	for (i = 0; i < n; i++)
		landing_arrive(l, v[i].name, v[i].len, v[i].is_dir, 0, i);
	dec = landing_decide(l, &n);
	for (i = 0; i < n; i++) {
		struct model_entry *e = &v[dec[i].entry->ref];

		/* FROM's names, converted, never fold alike: a directory
		   merges into one of INTO's own. */
		if ((dec[i].fate == LANDING_JOINED ||
		     dec[i].fate == LANDING_MERGED) && dec[i].met->held) {
			struct model_entry *u = &into->v[dec[i].met->ref];
			char *sub_into = join_path(into_path, u->name);
			char *sub_from = join_path(from_path, e->name);
			struct change c = { .merge = true, .old = sub_from,
					    .oldlen = strlen(sub_from),
					    .new = sub_into,
					    .newlen = strlen(sub_into),
					    .ino = u->ino, .planned = true };

			play_merge(mp, entry_model(mp, u), sub_into,
				   entry_model(mp, e), sub_from);
			push(mp, &c);
			free(e->name);
			free(e->source);
			continue;
		}
		if (dec[i].fate == LANDING_RENAMED)
			rename_arriving(mp, from_path, e, dec[i].name, dec[i].len);
		else if (dec[i].fate == LANDING_UNNAMED)
			plan_unnamed(mp->plan, from_path, e->name, e->len);
		add_entry(into, e);
	}
	landing_free(l);
	free(v);
}

/*
 * Rebuild PD's changes with what its merges do inside the directories,
 * in the order the conversion makes them: the landing's (plan.c).
 */
static void plan_dir_merges(struct merge_planner *mp, struct plan_dir *pd)
{
	mp->list = NULL;
	mp->nlist = mp->listcap = 0;
	for (size_t i = 0; i < pd->nchanges; i++) {
		struct change *c = &pd->changes[i];

		if (c->merge)
			play_merge(mp, model_of(mp, c->new), c->new,
				   model_of(mp, c->old), c->old);
		push(mp, c);
	}
	free(pd->changes);
	pd->changes = mp->list;
	pd->nchanges = mp->nlist;
}

static void free_model(struct model_dir *d)
{
	for (size_t i = 0; i < d->count; i++) {
		free(d->v[i].name);
		free(d->v[i].source);
	}
	free(d->v);
	free(d->source);
	free(d);
}

int plan_merges(struct plan *plan, struct folder *f, int rootfd)
{
	struct merge_planner mp = { .plan = plan, .folder = f,
				    .rootfd = rootfd };
	size_t i;

	/* Children first, as they are converted. */
	for (i = plan->ndirs; i-- > 0;) {
		struct plan_dir *pd = &plan->dirs[i];
		bool merges = false;

		for (size_t k = 0; k < pd->nchanges && !merges; k++)
			merges = pd->changes[k].merge;
		if (merges)
			plan_dir_merges(&mp, pd);
	}
	for (i = 0; i < mp.ndirs; i++)
		free_model(mp.dirs[i]);
	free(mp.dirs);
	return mp.errors ? -1 : 0;
}
