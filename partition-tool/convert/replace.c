// SPDX-License-Identifier: GPL-2.0
/*
 * Converting a directory by replacing it (--directories=replace): a new
 * directory, made in the work directory and set +F while empty, takes
 * the old one's attributes and then its entries, each moving once, and
 * is swapped into its place.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <linux/limits.h>

#include "directory.h"
#include "lib/crash.h"
#include "lib/online.h"
#include "lib/util.h"

/* The directory that holds PATH (relative to the tree's root). */
char *parent_path(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? xasprintf("%.*s", (int)(slash - path), path) :
		       xstrdup(".");
}

/*
 * Give TO, the new casefolded directory, what FROM has of its own that a
 * rename would have kept (lib/online.h).  Its times follow once it is
 * full; its change and creation times are its own.
 */
static int copy_attributes(const char *arg, const char *path, int from,
			   int to)
{
	char what[XATTR_NAME_MAX + 1];
	bool xattr;

	if (online_copy_attributes(from, to, what, sizeof(what), &xattr) == 0)
		return 0;
	if (xattr)
		gp_warn("%s/%s: copying its extended attribute %s: %s", arg,
			path, what, strerror(errno));
	else
		gp_warn("%s/%s: copying its attributes: %s: %s", arg, path,
			what, strerror(errno));
	return -1;
}

/*
 * Exchange the directory at PFD/BASE, the journal's, with NEWNAME in the
 * work directory; 0, 1 if BASE is no longer the journal's directory (a
 * writer renamed it, and perhaps made another under its name: that one
 * is exchanged back), -1 after a message.
 */
static int exchange(struct workspace *ws, int pfd, const char *base,
		    const char *newname)
{
	const struct journal *j = &ws->journal;
	struct stat st;

	if (fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT)
			return 1;
		gp_warn("%s/%s: %s", ws->arg, j->path, strerror(errno));
		return -1;
	}
	if (st.st_ino != j->ino)
		return 1;
	if (renameat2(pfd, base, ws->workfd, newname, RENAME_EXCHANGE) < 0) {
		if (errno == ENOENT)
			return 1;
		gp_warn("%s/%s: exchanging it with %s/../%s/%s: %s", ws->arg,
			j->path, ws->arg, ws->workname, newname,
			strerror(errno));
		return -1;
	}
	/* Renamed between the look and the exchange: put it back. */
	if (fstatat(ws->workfd, newname, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_ino != j->ino) {
		if (renameat2(pfd, base, ws->workfd, newname,
			      RENAME_EXCHANGE) < 0) {
			gp_warn("%s/%s: exchanging it back from %s/../%s/%s: %s",
				ws->arg, j->path, ws->arg, ws->workname,
				newname, strerror(errno));
			return -1;
		}
		return 1;
	}
	return 0;
}

/*
 * The directory being replaced was renamed away by a writer: its entries
 * go back into it (DFD) from the new one (NFD), which is removed.  It is
 * not converted; the walk after the plan finds it where it went.
 */
static int give_back(struct workspace *ws, struct outcome *out,
		     const char *path, int dfd, int nfd, const char *newname)
{
	if (!move_all(ws, out, &(struct place){ dfd, path, NULL },
		      &(struct place){ nfd, path, NULL },
		      "giving entries back"))
		return -1;
	if (unlinkat(ws->workfd, newname, AT_REMOVEDIR) < 0) {
		gp_warn("%s/../%s/%s: %s", ws->arg, ws->workname, newname,
			strerror(errno));
		return -1;
	}
	journal_done(&ws->journal);
	return 0;
}

/*
 * Convert the directory the journal names by replacing it: a new
 * directory, made in the work directory and set +F while empty, takes
 * the old one's attributes (copy_attributes) and then its entries, one
 * rename each; RENAME_EXCHANGE puts it in the old one's place in a
 * single step, so that the path never lacks a directory, and the old
 * one, emptied, is removed.  Whichever of the path and the work
 * directory's n<INO> holds the journal's inode says, after a crash,
 * whether the exchange was made.
 */
int replace_dir(struct workspace *ws, struct outcome *out)
{
	const struct journal *j = &ws->journal;
	const char *path = j->path, *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *parent = parent_path(path);
	char newname[40];
	struct stat st;
	int pfd, dfd = -1, nfd = -1, tries, ret = -1;
	bool casefolded;

	snprintf(newname, sizeof(newname), "n%llu",
		 (unsigned long long)j->ino);
	pfd = open_beneath(ws->rootfd, parent);
	if (pfd >= 0)
		dfd = open_dir_at(pfd, base);
	if (dfd < 0 && errno == ENOENT && untouched(ws, newname)) {
		/* Gone since its plan was recorded, before anything moved. */
		journal_done(&ws->journal);
		ret = 0;
		goto out;
	}
	if (dfd < 0 || fstat(dfd, &st) < 0) {
		gp_warn("%s/%s: %s", ws->arg, path, strerror(errno));
		goto out;
	}
	if (st.st_ino != j->ino) {
		/* Exchanged already: the old one is in the work directory,
		   unless it was removed too and only "done" was lost. */
		nfd = dfd;
		dfd = open_dir_at(ws->workfd, newname);
		if (dfd < 0 && errno == ENOENT &&
		    online_casefolded(nfd, &casefolded) == 0 && casefolded) {
			note_planned_changes(ws, out, nfd);
			goto done;
		}
		if (dfd < 0 || fstat(dfd, &st) < 0 || st.st_ino != j->ino) {
			gp_warn("%s/%s: replaced since it was checked (inode %llu, was %llu)",
				ws->arg, path, (unsigned long long)st.st_ino,
				(unsigned long long)j->ino);
			goto out;
		}
	} else {
		if (mkdirat(ws->workfd, newname, 0700) == 0)
			crash_point(ws->crash, "new directory made");
		else if (errno != EEXIST)
			goto work_fail;
		nfd = open_dir_at(ws->workfd, newname);
		if (nfd < 0 || online_casefolded(nfd, &casefolded) < 0)
			goto work_fail;
		if (!casefolded) {
			if (online_set_casefold(nfd) < 0)
				goto work_fail;
			crash_point(ws->crash, "+F set");
		}
		if (copy_attributes(ws->arg, path, dfd, nfd) < 0)
			goto out;
		crash_point(ws->crash, "attributes copied");
		if (!move_all(ws, out, &(struct place){ nfd, path, NULL },
			      &(struct place){ dfd, path, NULL },
			      "moving entries in"))
			goto out;
		ret = exchange(ws, pfd, base, newname);
		if (ret < 0)
			goto out;
		if (ret > 0) {
			/* Renamed away meanwhile: no longer at PATH. */
			ret = give_back(ws, out, path, dfd, nfd, newname);
			goto out;
		}
		ret = -1;
		crash_point(ws->crash, "directory exchanged");
	}

	/*
	 * The old directory may have gained entries since it was listed:
	 * made through a handle on it, or by name before the exchange.
	 * They follow the others, until it can be removed.
	 */
	for (tries = 0;; tries++) {
		if (!move_all(ws, out, &(struct place){ nfd, path, NULL },
			      &(struct place){ dfd, path, NULL },
			      "moving late entries in"))
			goto out;
		close(dfd);
		dfd = -1;
		if (futimens(nfd, j->times) < 0) {
			gp_warn("%s/%s: restoring its times: %s", ws->arg, path,
				strerror(errno));
			goto out;
		}
		/* Before the removal, after which a resume would not. */
		if (j->has_parent_times && futimens(pfd, j->parent_times) < 0) {
			gp_warn("%s/%s: restoring its times: %s", ws->arg,
				parent, strerror(errno));
			goto out;
		}
		if (unlinkat(ws->workfd, newname, AT_REMOVEDIR) == 0)
			break;
		if (errno != ENOTEMPTY || tries == EMPTY_TRIES) {
			gp_warn("%s/../%s/%s: removing the directory it replaced: %s",
				ws->arg, ws->workname, newname,
				errno == ENOTEMPTY ?
				"new entries keep appearing in it" :
				strerror(errno));
			goto out;
		}
		dfd = open_dir_at(ws->workfd, newname);
		if (dfd < 0)
			goto work_fail;
	}
	crash_point(ws->crash, "old directory removed");
	note_planned_changes(ws, out, nfd);
done:
	journal_done(&ws->journal);
	out->converted++;
	ret = 0;
	goto out;
work_fail:
	gp_warn("%s/../%s/%s: %s", ws->arg, ws->workname, newname,
		strerror(errno));
out:
	if (nfd >= 0)
		close(nfd);
	if (dfd >= 0)
		close(dfd);
	if (pfd >= 0)
		close(pfd);
	free(parent);
	return ret;
}

