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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <et/com_err.h>
#include <ext2fs/ext2_fs.h>
#include <ext2fs/ext2fs.h>
#include <linux/fs.h>

#include "gamepart.h"
#include "target.h"
#include "walk.h"

/* Deeper trees are reported, not walked: the walk recurses. */
#define MAX_DEPTH 4096

/* The entries of one directory, names packed in one buffer. */
struct dirbuf {
	struct walk_entry *entries;
	size_t count, cap;
	char *names;		/* NUL-terminated names, back to back */
	size_t used, size;
};

static void dirbuf_add(struct dirbuf *b, const char *name, size_t len,
		       uint64_t ino, bool is_dir)
{
	struct walk_entry *e;

	if (b->count == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 64;
		b->entries = xrealloc(b->entries, b->cap * sizeof(*b->entries));
	}
	if (b->used + len + 1 > b->size) {
		while (b->used + len + 1 > b->size)
			b->size = b->size ? 2 * b->size : 4096;
		b->names = xrealloc(b->names, b->size);
	}
	memcpy(b->names + b->used, name, len);
	b->names[b->used + len] = '\0';
	e = &b->entries[b->count++];
	/* An offset until the buffer stops moving: see dirbuf_seal(). */
	e->name = NULL;
	e->len = len;
	e->ino = ino;
	e->is_dir = is_dir;
	b->used += len + 1;
}

/* Point the entries at their names, now that the buffer is final. */
static void dirbuf_seal(struct dirbuf *b)
{
	size_t i, off = 0;

	for (i = 0; i < b->count; i++) {
		b->entries[i].name = b->names + off;
		off += b->entries[i].len + 1;
	}
}

static void dirbuf_free(struct dirbuf *b)
{
	free(b->entries);
	free(b->names);
}

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
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		text = NULL;
	if (!strcmp(path, "."))
		where = xstrdup(arg);
	else if (online)
		where = xasprintf("%s/%s", arg, path);
	else
		where = xasprintf("%s: %s", arg, path);
	gp_warn("%s: %s", where, text ? text : fmt);
	free(where);
	free(text);
}

static bool dot_or_dotdot(const char *name, size_t len)
{
	return (len == 1 && name[0] == '.') ||
	       (len == 2 && name[0] == '.' && name[1] == '.');
}

/* ---- online ---- */

struct online {
	const char *arg;
	walk_visit_fn visit;
	void *ctx;
	struct walk_result *res;
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

static int read_online(struct online *w, int fd, const char *path,
		       struct dirbuf *b)
{
	char buf[32768];

	for (;;) {
		ssize_t n = getdents64(fd, buf, sizeof(buf));
		if (n < 0) {
			walk_warn(w->arg, true, path, "%s", strerror(errno));
			w->res->errors++;
			return -1;
		}
		if (n == 0)
			break;
		for (ssize_t off = 0; off < n;) {
			const struct dirent64 *d = (const void *)(buf + off);
			size_t len = strlen(d->d_name);
			bool is_dir = d->d_type == DT_DIR;

			off += d->d_reclen;
			if (dot_or_dotdot(d->d_name, len))
				continue;
			if (d->d_type == DT_UNKNOWN) {
				struct stat st;

				if (fstatat(fd, d->d_name, &st,
					    AT_SYMLINK_NOFOLLOW) == 0)
					is_dir = S_ISDIR(st.st_mode);
			}
			dirbuf_add(b, d->d_name, len, d->d_ino, is_dir);
		}
	}
	dirbuf_seal(b);
	return 0;
}

static int walk_online_dir(struct online *w, int fd, const char *path,
			   uint64_t ino, int depth)
{
	struct dirbuf b = { 0 };
	struct walk_dir dir;
	int flags = 0, ret = 0;
	size_t i;

	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0) {
		walk_warn(w->arg, true, path, "reading its flags: %s", strerror(errno));
		w->res->errors++;
		return 0;
	}
	if (flags & FS_ENCRYPT_FL) {
		walk_warn(w->arg, true, path, "note: encrypted directory, its names are not checked");
		w->res->skipped++;
		return 0;
	}
	if (read_online(w, fd, path, &b) < 0)
		goto out;
	w->res->dirs++;
	dir.path = path;
	dir.ino = ino;
	dir.casefolded = flags & FS_CASEFOLD_FL;
	dir.entries = b.entries;
	dir.count = b.count;
	ret = w->visit(w->ctx, &dir);
	if (ret)
		goto out;

	for (i = 0; i < b.count && !ret; i++) {
		const struct walk_entry *e = &b.entries[i];
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
				walk_warn(w->arg, true, sub, "%s", strerror(errno));
				w->res->errors++;
			}
		} else if (same_mount(w, cfd, &same) < 0) {
			walk_warn(w->arg, true, sub, "%s", strerror(errno));
			w->res->errors++;
		} else if (!same) {
			walk_warn(w->arg, true, sub, "note: another filesystem is mounted here; not checked");
			w->res->skipped++;
			w->res->mounts++;
		} else if (depth + 1 >= MAX_DEPTH) {
			walk_warn(w->arg, true, sub, "more than %d directories deep; not checked", MAX_DEPTH);
			w->res->errors++;
		} else {
			ret = walk_online_dir(w, cfd, sub, e->ino, depth + 1);
		}
		if (cfd >= 0)
			close(cfd);
		free(sub);
	}
out:
	dirbuf_free(&b);
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

static int walk_online(const char *arg, int dirfd, walk_visit_fn visit,
		       void *ctx, struct walk_result *res)
{
	struct online w = { .arg = arg, .visit = visit, .ctx = ctx, .res = res };
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
	const char *arg;
	ext2_filsys fs;
	walk_visit_fn visit;
	void *ctx;
	struct walk_result *res;
	ext2fs_inode_bitmap seen;
	bool filetype;
};

struct collect {
	struct offline *w;
	struct dirbuf *b;
};

static int collect_entry(ext2_ino_t dir, int entry, struct ext2_dir_entry *de,
			 int offset, int blocksize, char *buf, void *priv)
{
	struct collect *c = priv;
	size_t len = ext2fs_dirent_name_len(de);
	bool is_dir = false;

	(void)dir;
	(void)offset;
	(void)blocksize;
	(void)buf;
	if (entry == DIRENT_DOT_FILE || entry == DIRENT_DOT_DOT_FILE ||
	    !de->inode || dot_or_dotdot(de->name, len))
		return 0;
	if (c->w->filetype &&
	    ext2fs_dirent_file_type(de) != EXT2_FT_UNKNOWN) {
		is_dir = ext2fs_dirent_file_type(de) == EXT2_FT_DIR;
	} else {
		struct ext2_inode inode;

		if (!ext2fs_read_inode(c->w->fs, de->inode, &inode))
			is_dir = LINUX_S_ISDIR(inode.i_mode);
	}
	dirbuf_add(c->b, de->name, len, de->inode, is_dir);
	return 0;
}

static int walk_offline_dir(struct offline *w, ext2_ino_t ino,
			    const char *path, int depth)
{
	struct dirbuf b = { 0 };
	struct collect c = { .w = w, .b = &b };
	struct ext2_inode inode;
	struct walk_dir dir;
	errcode_t err;
	int ret = 0;
	size_t i;

	ext2fs_mark_inode_bitmap2(w->seen, ino);
	err = ext2fs_read_inode(w->fs, ino, &inode);
	if (err) {
		walk_warn(w->arg, false, path, "%s", error_message(err));
		w->res->errors++;
		return 0;
	}
	if (inode.i_flags & EXT4_ENCRYPT_FL) {
		walk_warn(w->arg, false, path, "note: encrypted directory, its names are not checked");
		w->res->skipped++;
		return 0;
	}
	err = ext2fs_dir_iterate2(w->fs, ino, 0,
				  NULL, collect_entry, &c);
	if (err) {
		walk_warn(w->arg, false, path, "%s", error_message(err));
		w->res->errors++;
		goto out;
	}
	dirbuf_seal(&b);
	w->res->dirs++;
	dir.path = path;
	dir.ino = ino;
	dir.casefolded = inode.i_flags & EXT4_CASEFOLD_FL;
	dir.entries = b.entries;
	dir.count = b.count;
	ret = w->visit(w->ctx, &dir);

	for (i = 0; i < b.count && !ret; i++) {
		const struct walk_entry *e = &b.entries[i];
		char *sub;

		if (!e->is_dir)
			continue;
		sub = child_path(path, e->name);
		if (ext2fs_test_inode_bitmap2(w->seen, e->ino)) {
			walk_warn(w->arg, false, sub, "directory inode %llu seen twice (run e2fsck); not walked again", (unsigned long long)e->ino);
			w->res->errors++;
		} else if (depth + 1 >= MAX_DEPTH) {
			walk_warn(w->arg, false, sub, "more than %d directories deep; not checked", MAX_DEPTH);
			w->res->errors++;
		} else {
			ret = walk_offline_dir(w, e->ino, sub, depth + 1);
		}
		free(sub);
	}
out:
	dirbuf_free(&b);
	return ret;
}

static int walk_offline(const char *arg, ext2_filsys fs, ext2_ino_t ino,
			walk_visit_fn visit, void *ctx, struct walk_result *res)
{
	struct offline w = { .arg = arg, .fs = fs, .visit = visit, .ctx = ctx,
			     .res = res };
	errcode_t err;
	int ret;

	w.filetype = ext2fs_has_feature_filetype(fs->super);
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
		return walk_online(t->arg, t->dirfd, visit, ctx, res);
	return walk_offline(t->arg, t->fs, t->ino, visit, ctx, res);
}
