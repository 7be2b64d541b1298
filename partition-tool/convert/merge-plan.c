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
 *  - the entries of each merged directory, by bytes, move into the kept
 *    one, after the kept one's own entries;
 *  - two directories that collide there merge the same way, recursively,
 *    into the one already there;
 *  - a file that collides gets a ' (case conflict N)' name; a directory
 *    that collides with a file takes the name, and the file is renamed.
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
#include "lib/util.h"

struct model_dir;

struct model_entry {
	char *name;		/* as the conversion will have named it */
	size_t len;
	uint32_t key;		/* fold_key() of the name */
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

char *join_path(const char *dir, const char *name)
{
	return strcmp(dir, ".") ? xasprintf("%s/%s", dir, name) :
				  xstrdup(name);
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
		e.key = fold_key(mp->folder, e.name, e.len);
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

static struct model_entry *find(const struct merge_planner *mp,
				const struct model_dir *d, const char *name,
				size_t len, uint32_t key)
{
	for (size_t i = 0; i < d->count; i++)
		if (d->v[i].key == key &&
		    fold_equal(mp->folder, name, len, d->v[i].name, d->v[i].len))
			return &d->v[i];
	return NULL;
}

/* A model to look names up in, for free_conflict_name(). */
struct model_lookup {
	const struct merge_planner *mp;
	const struct model_dir *d;
};

static void push(struct merge_planner *mp, const struct change *c)
{
	if (mp->nlist == mp->listcap) {
		mp->listcap = mp->listcap ? 2 * mp->listcap : 16;
		mp->list = xrealloc(mp->list, mp->listcap * sizeof(*mp->list));
	}
	mp->list[mp->nlist++] = *c;
}

/*
 * Rename E, an entry of the directory at PATH (merged into D, or D's
 * own), to a ' (case conflict N)' name free in D, and record it.
 */
/* Whether NAME folds like a name of the model in CTX. */
static bool taken_in_model(void *ctx, const char *name, size_t len)
{
	const struct model_lookup *l = ctx;

	return find(l->mp, l->d, name, len,
		    fold_key(l->mp->folder, name, len)) != NULL;
}

static void plan_rename(struct merge_planner *mp, struct model_dir *d,
			const char *path, struct model_entry *e)
{
	struct model_lookup l = { mp, d };
	struct change c = { .ino = e->ino, .planned = true };

	c.new = free_conflict_name(mp->plan, path, e->name, e->len,
				   taken_in_model, &l, &c.newlen);
	if (!c.new)
		return;
	c.dir = xstrdup(path);
	c.old = e->name;
	c.oldlen = e->len;
	push(mp, &c);
	e->name = xstrdup(c.new);
	e->len = c.newlen;
	e->key = fold_key(mp->folder, e->name, e->len);
}

static int by_name(const void *a, const void *b)
{
	const struct model_entry *x = a, *y = b;

	return bytes_cmp(x->name, x->len, y->name, y->len);
}

/* Play the merge of FROM (at FROM_PATH) into INTO (at INTO_PATH). */
static void play_merge(struct merge_planner *mp, struct model_dir *into,
		       const char *into_path, struct model_dir *from,
		       const char *from_path)
{
	struct model_entry *v = from->v;
	size_t n = from->count;

	/* Taken out first: a merge may be asked of a model twice. */
	from->v = NULL;
	from->count = from->cap = 0;
	if (n)
		qsort(v, n, sizeof(*v), by_name);
	for (size_t i = 0; i < n; i++) {
		struct model_entry *e = &v[i];
		struct model_entry *u = find(mp, into, e->name, e->len, e->key);

		if (u && u->is_dir && e->is_dir) {
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
		if (u && !e->is_dir)
			plan_rename(mp, into, from_path, e);
		else if (u)
			plan_rename(mp, into, into_path, u);
		add_entry(into, e);
	}
	free(v);
}

/* The entry of the converted directory a change of its own moves. */
static const char *moved_name(const struct change *c)
{
	const char *slash = c->merge ? strrchr(c->old, '/') : NULL;

	return slash ? slash + 1 : c->old;
}

static int by_moved_name(const void *a, const void *b)
{
	const struct change *x = a, *y = b;

	return strcmp(moved_name(x), moved_name(y));
}

/*
 * Rebuild PD's changes with what its merges do inside the directories,
 * in the order the conversion moves the entries: by their names' bytes.
 */
static void plan_dir_merges(struct merge_planner *mp, struct plan_dir *pd)
{
	qsort(pd->changes, pd->nchanges, sizeof(*pd->changes), by_moved_name);
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
