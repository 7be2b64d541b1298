// SPDX-License-Identifier: GPL-2.0
/*
 * Converting a directory keeping its inode: its entries are moved into a
 * temporary directory in the work directory, +F is set on it while it
 * is empty, and they are moved back, under a new name where two would
 * collide.  Processes working inside it, bind mounts and inotify watches
 * on it keep working; each entry moves twice.  Every entry is at each
 * instant either in its directory or in the temporary one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "directory.h"
#include "lib/crash.h"
#include "lib/online.h"
#include "lib/util.h"

/*
 * Convert the directory the journal names keeping its inode: empty it
 * into its temporary directory (unless it is +F already), set +F, move
 * everything back, remove the temporary directory.  Each step finds its
 * work from the filesystem, so it is also how a crashed conversion
 * resumes.
 */
int keep_dir(struct workspace *ws, struct outcome *out)
{
	const struct journal *j = &ws->journal;
	const char *path = j->path;
	char tmpname[40];
	struct stat st;
	int dfd, tfd = -1, tries, ret = -1;
	bool casefolded;

	snprintf(tmpname, sizeof(tmpname), "d%llu",
		 (unsigned long long)j->ino);
	dfd = open_beneath(ws->rootfd, path);
	if (dfd < 0 && errno == ENOENT && untouched(ws, tmpname)) {
		/* Gone since its plan was recorded, before anything moved. */
		journal_done(&ws->journal);
		return 0;
	}
	if (dfd < 0 || fstat(dfd, &st) < 0) {
		gp_warn("%s/%s: %s", ws->arg, path, strerror(errno));
		goto out;
	}
	if (st.st_ino != j->ino) {
		gp_warn("%s/%s: replaced since it was checked (inode %llu, was %llu)",
			ws->arg, path, (unsigned long long)st.st_ino,
			(unsigned long long)j->ino);
		goto out;
	}
	if (mkdirat(ws->workfd, tmpname, 0700) == 0)
		crash_point(ws->crash, "temporary directory made");
	else if (errno != EEXIST) {
		gp_warn("%s/../%s/%s: %s", ws->arg, ws->workname, tmpname,
			strerror(errno));
		goto out;
	}
	tfd = open_dir_at(ws->workfd, tmpname);
	if (tfd < 0) {
		gp_warn("%s/../%s/%s: %s", ws->arg, ws->workname, tmpname,
			strerror(errno));
		goto out;
	}

	for (tries = 0;; tries++) {
		if (online_casefolded(dfd, &casefolded) < 0) {
			gp_warn("%s/%s: reading its flags: %s", ws->arg, path,
				strerror(errno));
			goto out;
		}
		if (casefolded)
			break;
		if (!empty_into(ws, path, dfd, tfd))
			goto out;
		if (online_set_casefold(dfd) == 0) {
			crash_point(ws->crash, "+F set");
			break;
		}
		if (errno != ENOTEMPTY || tries == EMPTY_TRIES) {
			gp_warn("%s/%s: setting +F: %s", ws->arg, path,
				errno == ENOTEMPTY ?
				"new entries keep appearing in it" :
				strerror(errno));
			goto out;
		}
	}

	if (!move_all(ws, out, &(struct place){ dfd, path, NULL },
		      &(struct place){ tfd, path, NULL },
		      "moving entries back"))
		goto out;
	note_planned_changes(ws, out, dfd);
	/* Its entries are back: so is its modification time. */
	if (futimens(dfd, j->times) < 0) {
		gp_warn("%s/%s: restoring its times: %s", ws->arg, path,
			strerror(errno));
		goto out;
	}
	/*
	 * Closed first: a removed directory still open would keep the
	 * filesystem from being remounted read-only (EBUSY) for as long as
	 * the process lives, stopped or not.
	 */
	close(tfd);
	tfd = -1;
	if (unlinkat(ws->workfd, tmpname, AT_REMOVEDIR) < 0) {
		gp_warn("%s/../%s/%s: %s", ws->arg, ws->workname, tmpname,
			strerror(errno));
		goto out;
	}
	crash_point(ws->crash, "temporary directory removed");
	journal_done(&ws->journal);
	out->converted++;
	ret = 0;
out:
	if (tfd >= 0)
		close(tfd);
	if (dfd >= 0)
		close(dfd);
	return ret;
}

