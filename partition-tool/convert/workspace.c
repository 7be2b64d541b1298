// SPDX-License-Identifier: GPL-2.0
/*
 * The work directory of an online conversion (see workspace.h).  It is
 * made under a temporary name with its journal's header in it, then
 * renamed into place, so that a work directory always has a journal
 * that says how the conversion goes; a run that finds one without its
 * journal finds a conversion that was finished but for removing it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "workspace.h"
#include "lib/crash.h"
#include "lib/online.h"
#include "lib/util.h"

int open_dir_at(int dirfd, const char *name)
{
	return openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		      O_CLOEXEC);
}

/*
 * PATH's directory: RELPATH beneath the tree's root, never through a
 * symbolic link or into another mount.
 */
int open_beneath(int rootfd, const char *relpath)
{
	return online_open_dir_beneath(rootfd, relpath, true);
}

/*
 * Open PATH's parent and the work directory's name; refuse a PATH that is
 * the root of its filesystem, whose entries have nowhere to go.
 */
static int open_parent(struct workspace *ws)
{
	struct stat st, pst;

	if (fstat(ws->rootfd, &st) < 0) {
		gp_warn("%s: %s", ws->arg, strerror(errno));
		return -1;
	}
	ws->parentfd = openat(ws->rootfd, "..", O_RDONLY | O_DIRECTORY |
			     O_CLOEXEC);
	if (ws->parentfd < 0 || fstat(ws->parentfd, &pst) < 0) {
		gp_warn("%s/..: %s", ws->arg, strerror(errno));
		return -1;
	}
	if (pst.st_dev != st.st_dev || pst.st_ino == st.st_ino) {
		gp_warn("%s: the root of its filesystem: its entries have nowhere to go while it is emptied; convert the directories under it (gamepart convert --offline with no DIR converts them all once it is unmounted)",
			ws->arg);
		return -1;
	}
	snprintf(ws->workname, sizeof(ws->workname), CONVERT_WORK_PREFIX "%llu",
		 (unsigned long long)st.st_ino);
	return 0;
}

/* Lock the journal in the open work directory; -1 with a message. */
static int lock_journal(struct workspace *ws, int workfd, const char *workname,
			bool create)
{
	int ret = journal_open(&ws->journal, workfd, create);

	if (ret == -EWOULDBLOCK) {
		gp_warn("%s: another conversion of this tree is in progress",
			ws->arg);
		return -1;
	}
	if (ret < 0) {
		gp_warn("%s/../%s/" CONVERT_JOURNAL ": %s", ws->arg, workname,
			strerror(-ret));
		return -1;
	}
	return 0;
}

int workspace_open(struct workspace *ws)
{
	struct stat st;

	ws->workfd = open_dir_at(ws->parentfd, ws->workname);
	if (ws->workfd < 0 && errno == ENOENT)
		return 1;
	if (ws->workfd < 0) {
		gp_warn("%s/../%s: %s", ws->arg, ws->workname, strerror(errno));
		return -1;
	}
	/*
	 * The work directory has a journal from its making (workspace_make) until
	 * the conversion is done; without one, the run that finished was
	 * stopped before it could remove the directory.
	 */
	if (fstatat(ws->workfd, CONVERT_JOURNAL, &st, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno == ENOENT) {
		close(ws->workfd);
		ws->workfd = -1;
		return 2;
	}
	return lock_journal(ws, ws->workfd, ws->workname, false);
}

/*
 * Make the work directory with its journal's header in it, under a
 * temporary name renamed into place: a work directory always has a
 * journal that says which policy the conversion follows.  One left under
 * the temporary name by a crash is removed first, unless a conversion
 * holds its lock.
 */
int workspace_make(struct workspace *ws, const struct convert_mode *mode)
{
	char newname[sizeof(ws->workname) + 8];
	int fd;

	snprintf(newname, sizeof(newname), "%s.new", ws->workname);
	fd = open_dir_at(ws->parentfd, newname);
	if (fd >= 0) {
		if (lock_journal(ws, fd, newname, true) < 0) {
			close(fd);
			return -1;
		}
		journal_close(&ws->journal);
		if (unlinkat(fd, CONVERT_JOURNAL, 0) < 0 && errno != ENOENT) {
			gp_warn("%s/../%s: %s", ws->arg, newname, strerror(errno));
			close(fd);
			return -1;
		}
		close(fd);
		if (unlinkat(ws->parentfd, newname, AT_REMOVEDIR) < 0) {
			gp_warn("%s/../%s: %s", ws->arg, newname, strerror(errno));
			return -1;
		}
	}
	if (mkdirat(ws->parentfd, newname, 0700) < 0) {
		gp_warn("%s/../%s: %s", ws->arg, newname, strerror(errno));
		return -1;
	}
	ws->workfd = open_dir_at(ws->parentfd, newname);
	if (ws->workfd < 0) {
		gp_warn("%s/../%s: %s", ws->arg, newname, strerror(errno));
		return -1;
	}
	if (lock_journal(ws, ws->workfd, newname, true) < 0)
		return -1;
	if (journal_start(&ws->journal, mode->policy, mode->replace) < 0 ||
	    fsync(ws->workfd) < 0) {
		gp_warn("%s/../%s/" CONVERT_JOURNAL ": %s", ws->arg, newname,
			strerror(errno));
		return -1;
	}
	if (renameat2(ws->parentfd, newname, ws->parentfd, ws->workname,
		      RENAME_NOREPLACE) < 0 || fsync(ws->parentfd) < 0) {
		gp_warn("%s/../%s: %s", ws->arg, ws->workname, strerror(errno));
		return -1;
	}
	crash_point(ws->crash, "work directory made");
	return 0;
}

/*
 * Remove the work directory, once empty.  A run started after the
 * journal's removal may have removed it first (workspace_open returns 2).
 */
int workspace_remove_dir(struct workspace *ws)
{
	if (unlinkat(ws->parentfd, ws->workname, AT_REMOVEDIR) < 0 &&
	    errno != ENOENT) {
		gp_warn("%s/../%s: removing it: %s", ws->arg, ws->workname,
			strerror(errno));
		return -1;
	}
	return 0;
}

int workspace_remove(struct workspace *ws)
{
	if (journal_remove(&ws->journal, ws->workfd) < 0) {
		gp_warn("%s/../%s: removing it: %s", ws->arg, ws->workname,
			strerror(errno));
		return -1;
	}
	crash_point(ws->crash, "journal removed");
	return workspace_remove_dir(ws);
}


int workspace_init(struct workspace *ws, const char *arg, int rootfd,
		   struct crash_hook *crash)
{
	memset(ws, 0, sizeof(*ws));
	ws->arg = arg;
	ws->rootfd = rootfd;
	ws->parentfd = -1;
	ws->workfd = -1;
	ws->crash = crash;
	journal_init(&ws->journal);
	return open_parent(ws);
}

void workspace_close(struct workspace *ws)
{
	journal_close(&ws->journal);
	if (ws->workfd >= 0)
		close(ws->workfd);
	if (ws->parentfd >= 0)
		close(ws->parentfd);
	ws->workfd = ws->parentfd = -1;
}

bool convert_interrupted(int dirfd)
{
	struct stat st;
	char name[64];
	bool found;
	int parent;

	if (fstat(dirfd, &st) < 0)
		return false;
	parent = openat(dirfd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (parent < 0)
		return false;
	snprintf(name, sizeof(name), CONVERT_WORK_PREFIX "%llu",
		 (unsigned long long)st.st_ino);
	found = fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		S_ISDIR(st.st_mode);
	close(parent);
	return found;
}

bool convert_interrupted_at(int dirfd, const char *path)
{
	int fd = online_open_dir_beneath(dirfd, path, false);
	bool ret;

	if (fd < 0)
		return false;
	ret = convert_interrupted(fd);
	close(fd);
	return ret;
}
