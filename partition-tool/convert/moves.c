// SPDX-License-Identifier: GPL-2.0
/*
 * Moving a directory's entries, one renameat2 each, never replacing a
 * name (see online.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "directory.h"
#include "lib/crash.h"
#include "lib/dirread.h"
#include "lib/fold.h"
#include "lib/landing.h"
#include "lib/util.h"

bool empty_into(struct workspace *ws, const char *path, int dfd, int tfd)
{
	struct dir_entries d;
	bool all;
	size_t i;

	if (dirread_online(dfd, false, &d) < 0) {
		gp_warn("%s/%s: %s", ws->arg, path, strerror(errno));
		return false;
	}
	for (i = 0; i < d.count; i++) {
		const char *name = d.v[i].name;

		if (renameat2(dfd, name, tfd, name, RENAME_NOREPLACE) < 0) {
			/* Removed or renamed by someone else meanwhile. */
			if (errno == ENOENT)
				continue;
			gp_warn("%s/%s/%s: moving it out: %s", ws->arg, path,
				name, strerror(errno));
			break;
		}
		crash_point(ws->crash, "moving entries out");
	}
	all = i == d.count;
	dir_entries_free(&d);
	return all;
}

bool untouched(const struct workspace *ws, const char *name)
{
	struct stat st;

	return fstatat(ws->workfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 &&
	       errno == ENOENT;
}

/* The planned rename of NAME in the directory KEY (NULL: the one in flight). */
static struct change *planned_rename(struct journal *j, const char *key,
				     const char *name)
{
	for (size_t i = 0; i < j->nchanges; i++) {
		struct change *c = &j->changes[i];

		if (c->merge || strcmp(c->old, name))
			continue;
		if (key ? c->dir && !strcmp(c->dir, key) : !c->dir)
			return c;
	}
	return NULL;
}

static struct change *planned_merge(struct journal *j, const char *from)
{
	for (size_t i = 0; i < j->nchanges; i++)
		if (j->changes[i].merge && !strcmp(j->changes[i].old, from))
			return &j->changes[i];
	return NULL;
}

/*
 * A planned change made: reported now, in the order changes are made;
 * finishing a directory an interrupted run started, at its end, in the
 * plan's order, which was the order they were made in.
 */
static void note_made(struct workspace *ws, struct outcome *out,
		      struct change *c)
{
	if (!ws->resuming)
		outcome_note(out, ws->journal.path, c);
}

/*
 * The name under which the casefolded directory FD holds INO, in *NAME:
 * of its links, the one that folds like LIKE.
 */
static int name_of(const struct workspace *ws, int fd, uint64_t ino,
		   const char *like, char **name)
{
	struct dir_entries d;

	if (dirread_online(fd, false, &d) < 0)
		return -1;
	*name = NULL;
	for (size_t i = 0; i < d.count && !*name; i++)
		if (d.v[i].ino == ino &&
		    fold_equal(ws->folder, d.v[i].name, d.v[i].len, like,
			       strlen(like)))
			*name = xstrdup(d.v[i].name);
	dir_entries_free(&d);
	if (!*name) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

/*
 * Rename NAME in FROM into TO under the first free ' (case conflict N)'
 * name, noting it as a late rename in the directory DIR; the kernel's
 * EEXIST on RENAME_NOREPLACE says which names are free.
 */
static bool late_rename(struct workspace *ws, struct outcome *out,
			const struct place *from, const struct place *to,
			const char *name, const char *phase)
{
	struct change late = { .dir = (char *)from->path };
	unsigned int k;
	struct stat st;

	for (k = 1; k < 100000; k++) {
		late.new = conflict_name(name, strlen(name), k, &late.newlen);
		if (!late.new) {
			errno = ENAMETOOLONG;
			break;
		}
		if (renameat2(from->fd, name, to->fd, late.new,
			      RENAME_NOREPLACE) == 0) {
			crash_point(ws->crash, phase);
			late.old = (char *)name;
			late.oldlen = strlen(name);
			late.ino = fstatat(to->fd, late.new, &st,
					   AT_SYMLINK_NOFOLLOW) == 0 ?
				   st.st_ino : 0;
			outcome_note(out, NULL, &late);
			free(late.new);
			return true;
		}
		free(late.new);
		if (errno != EEXIST)
			break;
	}
	gp_warn("%s/%s/%s: %s: %s", ws->arg, from->path, name, phase,
		strerror(errno));
	return false;
}

/*
 * Merge the directory NAME of FROM into the directory INO of TO that
 * holds its name: its entries move in (merging again where two
 * directories meet), then it is removed, and the merge noted.
 */
static bool merge_entry(struct workspace *ws, struct outcome *out,
			const struct place *from, const struct place *to,
			const char *name, uint64_t ino)
{
	struct place l = { .fd = -1 }, k = { .fd = -1 };
	char *kname = NULL, *lpath = join_path(from->path, name), *kpath = NULL;
	struct change *planned;
	bool ok = false;
	int tries;

	if (name_of(ws, to->fd, ino, name, &kname) < 0) {
		gp_warn("%s/%s/%s: merging it: %s", ws->arg, from->path, name,
			strerror(errno));
		goto out;
	}
	kpath = join_path(to->path, kname);
	l.path = l.key = lpath;
	k.path = k.key = kpath;
	l.fd = open_dir_at(from->fd, name);
	k.fd = open_dir_at(to->fd, kname);
	if (l.fd < 0 || k.fd < 0) {
		gp_warn("%s/%s: merging it: %s", ws->arg,
			l.fd < 0 ? lpath : kpath, strerror(errno));
		goto out;
	}
	for (tries = 0;; tries++) {
		if (!move_all(ws, out, &k, &l, "merging entries"))
			goto out;
		if (unlinkat(from->fd, name, AT_REMOVEDIR) == 0)
			break;
		if (errno != ENOTEMPTY || tries == EMPTY_TRIES) {
			gp_warn("%s/%s: removing it, merged into %s: %s",
				ws->arg, lpath, kpath, errno == ENOTEMPTY ?
				"new entries keep appearing in it" :
				strerror(errno));
			goto out;
		}
	}
	crash_point(ws->crash, "merged directory removed");
	planned = planned_merge(&ws->journal, lpath);
	if (planned) {
		note_made(ws, out, planned);
	} else {
		struct change late = { .merge = true, .old = lpath,
				       .oldlen = strlen(lpath), .new = kpath,
				       .newlen = strlen(kpath), .ino = ino };

		outcome_note(out, NULL, &late);
	}
	ok = true;
out:
	if (l.fd >= 0)
		close(l.fd);
	if (k.fd >= 0)
		close(k.fd);
	free(kname);
	free(lpath);
	free(kpath);
	return ok;
}

/*
 * Move NAME from FROM into the casefolded TO, under its planned new name
 * if it has one.  A name that now collides (a writer created a variant
 * meanwhile) gets the next free ' (case conflict N)' name under the
 * rename and merge policies; merging, two directories that collide are
 * merged.  What is there keeps its name (lib/landing.h).
 * PHASE names the step, for the crash hook and the messages.
 */
static bool move_entry(struct workspace *ws, struct outcome *out,
		       const struct place *to, const struct place *from,
		       const char *name, const char *phase)
{
	struct change *planned = planned_rename(&ws->journal, from->key, name);
	const char *dest = planned ? planned->new : name;
	enum collision_policy policy = ws->journal.policy;
	struct stat st, there;
	int tries;

	/* More than one try only while a writer keeps taking the name. */
	for (tries = 0; tries < EMPTY_TRIES; tries++) {
		if (renameat2(from->fd, name, to->fd, dest,
			      RENAME_NOREPLACE) == 0) {
			crash_point(ws->crash, phase);
			if (planned)
				note_made(ws, out, planned);
			out->moved++;
			return true;
		}
		if (errno == ENOENT)
			return true;	/* removed or renamed by someone else */
		if (errno != EEXIST || policy == ON_COLLISION_FAIL) {
			gp_warn("%s/%s/%s: %s: %s", ws->arg, from->path, dest,
				phase, errno == EEXIST ?
				"a name that collides with it appeared meanwhile" :
				strerror(errno));
			return false;
		}
		if (policy != ON_COLLISION_MERGE)
			break;
		if (fstatat(from->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    fstatat(to->fd, dest, &there, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno == ENOENT)
				continue;	/* one went meanwhile */
			gp_warn("%s/%s/%s: %s: %s", ws->arg, from->path, name,
				phase, strerror(errno));
			return false;
		}
		/* What is there stays there (lib/landing.h). */
		if (!S_ISDIR(st.st_mode) || !S_ISDIR(there.st_mode))
			break;
		return merge_entry(ws, out, from, to, name, there.st_ino);
	}
	if (!late_rename(ws, out, from, to, name, phase))
		return false;
	out->moved++;
	return true;
}

/* As names land (lib/landing.h); CTX points to the policy. */
static int landing_cmp(const void *a, const void *b, void *ctx)
{
	const struct dir_entry *x = a, *y = b;

	return landing_order(*(const enum collision_policy *)ctx, x->name,
			     x->len, x->is_dir, y->name, y->len, y->is_dir);
}

bool move_all(struct workspace *ws, struct outcome *out,
	      const struct place *to, const struct place *from,
	      const char *phase)
{
	struct dir_entries d;
	bool all;
	size_t i;

	/* Merging, directories land first: each entry's type is needed. */
	if (dirread_online(from->fd, ws->journal.policy == ON_COLLISION_MERGE,
			   &d) < 0) {
		gp_warn("%s/%s: %s: %s", ws->arg, from->path, phase,
			strerror(errno));
		return false;
	}
	/*
	 * In the order the plan landed them: the first of a group of
	 * colliding names takes its name, and merges happen in a known
	 * order.
	 */
	if (d.count)
		qsort_r(d.v, d.count, sizeof(*d.v), landing_cmp,
			&ws->journal.policy);
	for (i = 0; i < d.count; i++)
		if (!move_entry(ws, out, to, from, d.v[i].name, phase))
			break;
	all = i == d.count;
	dir_entries_free(&d);
	return all;
}

/*
 * At the end of a directory an interrupted run started: its planned
 * changes, in the plan's order, some made before the interruption.  Its
 * own renames whose new name in DFD holds the inode the plan gave it;
 * its merges and the renames inside them, done since the directory is.
 */
void note_planned_changes(struct workspace *ws, struct outcome *out, int dfd)
{
	struct journal *j = &ws->journal;
	struct stat st;

	if (!ws->resuming)
		return;
	for (size_t i = 0; i < j->nchanges; i++) {
		struct change *c = &j->changes[i];

		if (c->merge || c->dir ||
		    (fstatat(dfd, c->new, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		     st.st_ino == c->ino))
			outcome_note(out, j->path, c);
	}
}
