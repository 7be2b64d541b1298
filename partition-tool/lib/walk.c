// SPDX-License-Identifier: GPL-2.0
/*
 * Walking a tree one directory at a time, online and offline.
 *
 * Online: every directory is opened relative to its parent with
 * O_NOFOLLOW, so a symbolic link is never followed; a directory whose
 * device or mount differs from the start's is a mount point and is
 * skipped (and said so).  Offline: libext2fs reads the directories of the
 * unmounted filesystem; a directory already visited (a corrupted tree
 * with a loop) is not walked twice.
 *
 * Each directory's entries are read whole before the visitor sees them;
 * the parent's fd and entries stay alive while its children are walked,
 * so memory and descriptors grow with depth, not with width.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <et/com_err.h>
#include <ext2fs/ext2_fs.h>
#include <ext2fs/ext2fs.h>
#include <linux/fs.h>

#include "online.h"
#include "util.h"
#include "walk.h"

/* Deeper trees are reported, not walked: the walk recurses. */
#define MAX_DEPTH 4096

static char *child_path(const char *parent, const char *name)
{
	if (!strcmp(parent, "."))
		return xstrdup(name);
	return xasprintf("%s/%s", parent, name);
}

/*
 * "gamepart: CMD: WHERE: text", WHERE naming the directory for the user:
 * online a path (ARG/PATH), offline ARG and the path inside the image.
 */
static void __attribute__((format(printf, 4, 5)))
walk_warn(const char *arg, bool online, const char *path, const char *fmt, ...)
{
	char *text, *where;
	va_list ap;

	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	if (!strcmp(path, "."))
		where = xstrdup(arg);
	else if (online)
		where = xasprintf("%s/%s", arg, path);
	else
		where = xasprintf("%s: %s", arg, path);
	gp_warn("%s: %s", where, text);
	free(where);
	free(text);
}

/* What both walks share. */
struct walker {
	const char *arg;
	bool online;
	walk_visit_fn visit;
	void *ctx;
	struct walk_result *res;
};

/* An encrypted directory's names are not readable as names: skip it. */
static int skip_encrypted(struct walker *w, const char *path)
{
	walk_warn(w->arg, w->online, path, "note: encrypted directory, its names are not checked");
	w->res->skipped++;
	return 0;
}

/* Hand the directory at PATH, read into B, to the visitor. */
static int visit_dir(struct walker *w, const char *path, uint64_t ino,
		     bool casefolded, const struct dir_entries *b)
{
	struct walk_dir dir = {
		.path = path, .ino = ino, .casefolded = casefolded,
		.entries = b->v, .count = b->count,
	};

	w->res->dirs++;
	return w->visit(w->ctx, &dir);
}

/* ---- online ---- */

struct online {
	struct walker w;
	bool flags_optional;	/* not ext4: a filesystem may have no inode flags */
	dev_t dev;
	uint64_t mnt_id;
	bool have_mnt_id;
};

/* Whether FD (a directory) is on the mount the walk started on. */
static int same_mount(const struct online *w, int fd, bool *same)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
		  STATX_BASIC_STATS | STATX_MNT_ID, &stx) < 0)
		return -1;
	*same = makedev(stx.stx_dev_major, stx.stx_dev_minor) == w->dev;
	if (*same && w->have_mnt_id && (stx.stx_mask & STATX_MNT_ID))
		*same = stx.stx_mnt_id == w->mnt_id;
	return 0;
}

static int walk_online_dir(struct online *w, int fd, const char *path,
			   uint64_t ino, int depth)
{
	struct dir_entries b;
	int flags = 0, ret = 0;
	size_t i;

	if (online_flags(fd, &flags) < 0) {
		if (!w->flags_optional || (errno != ENOTTY &&
					   errno != EOPNOTSUPP && errno != EINVAL)) {
			walk_warn(w->w.arg, true, path, "reading its flags: %s", strerror(errno));
			w->w.res->errors++;
			return 0;
		}
		/* vfat, exfat, 9p...: no inode flags, so nothing is +F. */
		flags = 0;
	}
	if (flags & FS_ENCRYPT_FL)
		return skip_encrypted(&w->w, path);
	if (dirread_online(fd, true, &b) < 0) {
		walk_warn(w->w.arg, true, path, "%s", strerror(errno));
		w->w.res->errors++;
		return 0;
	}
	ret = visit_dir(&w->w, path, ino, (unsigned int)flags & FS_CASEFOLD_FL,
			&b);
	if (ret)
		goto out;

	for (i = 0; i < b.count && !ret; i++) {
		const struct dir_entry *e = &b.v[i];
		char *sub;
		bool same;
		int cfd;

		if (!e->is_dir)
			continue;
		sub = child_path(path, e->name);
		cfd = openat(fd, e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			     O_NOCTTY | O_CLOEXEC);
		if (cfd < 0) {
			/* Replaced by a symbolic link or a file meanwhile. */
			if (errno != ELOOP && errno != ENOTDIR &&
			    errno != ENOENT) {
				walk_warn(w->w.arg, true, sub, "%s", strerror(errno));
				w->w.res->errors++;
			}
		} else if (same_mount(w, cfd, &same) < 0) {
			walk_warn(w->w.arg, true, sub, "%s", strerror(errno));
			w->w.res->errors++;
		} else if (!same) {
			walk_warn(w->w.arg, true, sub, "note: another filesystem is mounted here; not checked");
			w->w.res->skipped++;
			w->w.res->mounts++;
		} else if (depth + 1 >= MAX_DEPTH) {
			walk_warn(w->w.arg, true, sub, "more than %d directories deep; not checked", MAX_DEPTH);
			w->w.res->errors++;
		} else {
			ret = walk_online_dir(w, cfd, sub, e->ino, depth + 1);
		}
		if (cfd >= 0)
			close(cfd);
		free(sub);
	}
out:
	dir_entries_free(&b);
	return ret;
}

/* One descriptor per level of the tree: allow as many as we may. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int walk_online(const char *arg, int dirfd, bool flags_optional,
		       walk_visit_fn visit, void *ctx, struct walk_result *res)
{
	struct online w = {
		.w = { .arg = arg, .online = true, .visit = visit, .ctx = ctx,
		       .res = res },
		.flags_optional = flags_optional,
	};
	struct statx stx;
	int fd, ret;

	raise_fd_limit();
	if (statx(dirfd, "", AT_EMPTY_PATH, STATX_BASIC_STATS | STATX_MNT_ID,
		  &stx) < 0) {
		walk_warn(arg, true, ".", "%s", strerror(errno));
		res->errors++;
		return 0;
	}
	w.dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
	w.have_mnt_id = stx.stx_mask & STATX_MNT_ID;
	w.mnt_id = stx.stx_mnt_id;
	/* Our own descriptor: reading moves its offset. */
	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		walk_warn(arg, true, ".", "%s", strerror(errno));
		res->errors++;
		return 0;
	}
	ret = walk_online_dir(&w, fd, ".", stx.stx_ino, 0);
	close(fd);
	return ret;
}

/* ---- offline ---- */

struct offline {
	struct walker w;
	ext2_filsys fs;
	ext2fs_inode_bitmap seen;
};

static int walk_offline_dir(struct offline *w, ext2_ino_t ino,
			    const char *path, int depth)
{
	struct dir_entries b;
	struct ext2_inode inode;
	errcode_t err;
	int ret = 0;
	size_t i;

	ext2fs_mark_inode_bitmap2(w->seen, ino);
	err = ext2fs_read_inode(w->fs, ino, &inode);
	if (err) {
		walk_warn(w->w.arg, false, path, "%s", error_message(err));
		w->w.res->errors++;
		return 0;
	}
	if (inode.i_flags & EXT4_ENCRYPT_FL)
		return skip_encrypted(&w->w, path);
	err = dirread_offline(w->fs, ino, &b);
	if (err) {
		walk_warn(w->w.arg, false, path, "%s", error_message(err));
		w->w.res->errors++;
		return 0;
	}
	ret = visit_dir(&w->w, path, ino, inode.i_flags & EXT4_CASEFOLD_FL, &b);

	for (i = 0; i < b.count && !ret; i++) {
		const struct dir_entry *e = &b.v[i];
		char *sub;

		if (!e->is_dir)
			continue;
		sub = child_path(path, e->name);
		if (ext2fs_test_inode_bitmap2(w->seen, e->ino)) {
			walk_warn(w->w.arg, false, sub, "directory inode %llu seen twice (run e2fsck); not walked again", (unsigned long long)e->ino);
			w->w.res->errors++;
		} else if (depth + 1 >= MAX_DEPTH) {
			walk_warn(w->w.arg, false, sub, "more than %d directories deep; not checked", MAX_DEPTH);
			w->w.res->errors++;
		} else {
			ret = walk_offline_dir(w, e->ino, sub, depth + 1);
		}
		free(sub);
	}
	dir_entries_free(&b);
	return ret;
}

static int walk_offline(const char *arg, ext2_filsys fs, ext2_ino_t ino,
			walk_visit_fn visit, void *ctx, struct walk_result *res)
{
	struct offline w = {
		.w = { .arg = arg, .visit = visit, .ctx = ctx, .res = res },
		.fs = fs,
	};
	errcode_t err;
	int ret;

	err = ext2fs_allocate_inode_bitmap(fs, "directories walked", &w.seen);
	if (err) {
		walk_warn(arg, false, ".", "%s", error_message(err));
		res->errors++;
		return 0;
	}
	ret = walk_offline_dir(&w, ino, ".", 0);
	ext2fs_free_inode_bitmap(w.seen);
	return ret;
}

int walk_target(const struct target *t, walk_visit_fn visit, void *ctx,
		struct walk_result *res)
{
	memset(res, 0, sizeof(*res));
	if (t->kind == TARGET_ONLINE)
		return walk_online(t->arg, t->dirfd, *t->foreign, visit, ctx,
				   res);
	return walk_offline(t->arg, t->fs, t->ino, visit, ctx, res);
}
