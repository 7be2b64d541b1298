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
#include <sys/stat.h>

#include "directory.h"
#include "lib/crash.h"
#include "lib/dirread.h"
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

static const struct rename *planned_rename(const struct journal *j,
					   const char *name)
{
	size_t i;

	for (i = 0; i < j->nrenames; i++)
		if (!strcmp(j->renames[i].old, name))
			return &j->renames[i];
	return NULL;
}

/*
 * Move NAME from FROM into the casefolded TO, under its planned new name
 * if it has one.  A name that now collides (a writer created a variant
 * meanwhile) gets the next free ' (case conflict N)' name under the
 * rename policy; the kernel's EEXIST on RENAME_NOREPLACE says which are
 * free.  PHASE names the step, for the crash hook and the messages.
 */
static bool move_entry(struct workspace *ws, struct outcome *out,
		       const char *path, int to, int from, const char *name,
		       const char *phase)
{
	const struct rename *planned = planned_rename(&ws->journal, name);
	const char *dest = planned ? planned->new : name;
	struct rename late;
	unsigned int k;
	struct stat st;

	if (renameat2(from, name, to, dest, RENAME_NOREPLACE) == 0) {
		crash_point(ws->crash, phase);
		out->moved++;
		return true;
	}
	if (errno == ENOENT)
		return true;	/* removed or renamed by someone else */
	if (errno != EEXIST || ws->journal.policy != ON_COLLISION_RENAME) {
		gp_warn("%s/%s/%s: %s: %s", ws->arg, path, dest, phase,
			errno == EEXIST ?
			"a name that collides with it appeared meanwhile" :
			strerror(errno));
		return false;
	}
	for (k = 1; k < 100000; k++) {
		late.new = conflict_name(name, strlen(name), k, &late.newlen);
		if (!late.new)
			break;
		if (renameat2(from, name, to, late.new, RENAME_NOREPLACE) == 0) {
			crash_point(ws->crash, phase);
			late.old = (char *)name;
			late.oldlen = strlen(name);
			late.ino = fstatat(to, late.new, &st,
					   AT_SYMLINK_NOFOLLOW) == 0 ?
				   st.st_ino : 0;
			late.planned = false;
			outcome_note_rename(out, path, &late);
			free(late.new);
			out->moved++;
			return true;
		}
		free(late.new);
		if (errno != EEXIST)
			break;
	}
	gp_warn("%s/%s/%s: %s: %s", ws->arg, path, name, phase,
		strerror(errno));
	return false;
}

bool move_all(struct workspace *ws, struct outcome *out, const char *path,
	      int to, int from, const char *phase)
{
	struct dir_entries d;
	bool all;
	size_t i;

	if (dirread_online(from, false, &d) < 0) {
		gp_warn("%s/%s: %s: %s", ws->arg, path, phase, strerror(errno));
		return false;
	}
	for (i = 0; i < d.count; i++)
		if (!move_entry(ws, out, path, to, from, d.v[i].name, phase))
			break;
	all = i == d.count;
	dir_entries_free(&d);
	return all;
}

/* Those whose new name in DFD holds the inode the plan gave it. */
void note_planned_renames(struct workspace *ws, struct outcome *out, int dfd)
{
	const struct journal *j = &ws->journal;
	struct stat st;
	size_t i;

	for (i = 0; i < j->nrenames; i++) {
		const struct rename *r = &j->renames[i];

		if (fstatat(dfd, r->new, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_ino == r->ino)
			outcome_note_rename(out, j->path, r);
	}
}

