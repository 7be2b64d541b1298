// SPDX-License-Identifier: GPL-2.0
/*
 * The steps of an import (runner.h), each safe to take again after an
 * interruption: a file is copied to the work directory, given its owner,
 * mode and times there and only then renamed to its place, so a name in
 * the library is never a half-copied file; a moved entry is renamed once.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner.h"
#include "lib/dirread.h"
#include "lib/online.h"
#include "lib/progress.h"
#include "lib/report.h"
#include "lib/util.h"

static int cached_dir(struct dir_cache *c, const char *path)
{
	if (c->path && !strcmp(c->path, path))
		return c->fd;
	if (c->fd >= 0)
		close(c->fd);
	free(c->path);
	c->path = NULL;
	c->fd = online_open_dir_beneath(c->rootfd, path, false);
	if (c->fd >= 0)
		c->path = xstrdup(path);
	return c->fd;
}

static void cache_drop(struct dir_cache *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->path);
	c->path = NULL;
	c->fd = -1;
}

/* PATH's directory, opened, and its last component in *BASE. */
static int parent_of(struct dir_cache *c, const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	if (!slash) {
		*base = path;
		return cached_dir(c, ".");
	}
	*base = slash + 1;
	dir = xasprintf("%.*s", (int)(slash - path), path);
	fd = cached_dir(c, dir);
	free(dir);
	return fd;
}

int import_fail(const char *top, const char *path, const char *what)
{
	int err = errno;
	char *q = report_escape(path, strlen(path), true);

	progress_clear();
	gp_warn("%s/%s: %s: %s", top, q, what, strerror(err));
	free(q);
	return -1;
}

/* LEN bytes at OFF of IN to the same place in OUT. */
static int copy_range(struct runner *r, int in, int out, off_t off, off_t len)
{
	loff_t from = off, to = off;
	ssize_t n = 0;

	/* The kernel's copy first: a reflink or in-kernel copy where the
	   filesystems allow it, no round trip through us. */
	while (len > 0 &&
	       (n = copy_file_range(in, &from, out, &to, (size_t)len, 0)) > 0)
		len -= n;
	if (len == 0 || n == 0)
		return 0;
	if (errno != EXDEV && errno != EINVAL && errno != ENOSYS &&
	    errno != EOPNOTSUPP)
		return -1;
	if (!r->buf)
		r->buf = xmalloc(1 << 20);
	while (len > 0) {
		ssize_t got = pread(in, r->buf,
				    len < (1 << 20) ? (size_t)len : 1 << 20,
				    from);

		if (got <= 0)
			return got < 0 ? -1 : 0;
		for (ssize_t done = 0; done < got;) {
			ssize_t w = pwrite(out, r->buf + done,
					   (size_t)(got - done), to);

			if (w < 0)
				return -1;
			done += w;
			to += w;
		}
		from += got;
		len -= got;
	}
	return 0;
}

/*
 * IN, of SIZE bytes, copied to the empty OUT extent by extent, so that
 * its holes stay holes, as with cp -a: a game's sparse files (prefilled
 * caches, disk images) would otherwise take their whole size.
 */
static int copy_data(struct runner *r, int in, int out, off_t size)
{
	off_t start, end = 0;
	int found;

	while ((found = online_data_extent(in, end, size, &start, &end)) > 0)
		if (copy_range(r, in, out, start, end - start) < 0)
			return -1;
	/* A hole at the end has no data to copy: the size gives it. */
	return found < 0 ? -1 : ftruncate(out, size);
}

static const struct linked *linked_find(const struct runner *r,
					const struct stat *st)
{
	for (size_t i = 0; i < r->nlinks; i++)
		if (r->links[i].dev == st->st_dev && r->links[i].ino == st->st_ino)
			return &r->links[i];
	return NULL;
}

static void linked_add(struct runner *r, const struct stat *st,
		       const char *dest)
{
	if (st->st_nlink < 2 || S_ISDIR(st->st_mode) || linked_find(r, st))
		return;
	r->links = xrealloc(r->links, (r->nlinks + 1) * sizeof(*r->links));
	r->links[r->nlinks++] = (struct linked){
		.dev = st->st_dev, .ino = st->st_ino, .dest = xstrdup(dest),
	};
}

/* Make IMPORT_TMP_NAME in the work directory a copy of the entry SRC. */
static int copy_to_tmp(struct runner *r, int sfd, const char *base,
		       const struct stat *st)
{
	const struct timespec times[2] = { st->st_atim, st->st_mtim };
	int wfd = r->j.workfd, in, out, ret = -1;
	struct stat now;

	if (unlinkat(wfd, IMPORT_TMP_NAME, 0) < 0 && errno != ENOENT)
		return -1;
	if (S_ISLNK(st->st_mode)) {
		size_t size = (size_t)st->st_size + 1;
		char *target = xmalloc(size);
		ssize_t n = readlinkat(sfd, base, target, size);

		if (n < 0 || (size_t)n >= size) {
			if (n >= 0)
				errno = EAGAIN;	/* changed since the plan */
			free(target);
			return -1;
		}
		target[n] = '\0';
		ret = symlinkat(target, wfd, IMPORT_TMP_NAME);
		free(target);
		if (ret == 0 && r->chown)
			ret = fchownat(wfd, IMPORT_TMP_NAME, r->owner, r->group,
				       AT_SYMLINK_NOFOLLOW);
		if (ret == 0)
			ret = utimensat(wfd, IMPORT_TMP_NAME, times, AT_SYMLINK_NOFOLLOW);
		return ret;
	}
	/* Not blocked by a FIFO put in the file's place since the plan. */
	in = openat(sfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (in < 0)
		return -1;
	if (fstat(in, &now) < 0) {
		close(in);
		return -1;
	}
	if (!S_ISREG(now.st_mode)) {
		close(in);
		errno = ESTALE;	/* not the file that was planned */
		return -1;
	}
	out = openat(wfd, IMPORT_TMP_NAME, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		     0600);
	if (out >= 0 && copy_data(r, in, out, now.st_size) == 0 &&
	    (!r->chown || fchown(out, r->owner, r->group) == 0) &&
	    fchmod(out, st->st_mode & 0777) == 0 && futimens(out, times) == 0)
		ret = 0;
	close(in);
	if (out >= 0 && close(out) < 0)
		ret = -1;
	return ret;
}

/*
 * Whether DEST, found at a step's name when it is taken again, is the
 * interrupted run's copy of the entry SRC (whole or not: its data may
 * not have reached the disk) rather than something another program put
 * there: only a copy has the source's type, mode and mtime, and, copied
 * by root, the library's owner.
 */
static bool own_copy(const struct runner *r, const struct stat *src,
		     const struct stat *dest)
{
	return (src->st_mode & S_IFMT) == (dest->st_mode & S_IFMT) &&
	       (S_ISLNK(src->st_mode) ||
		(src->st_mode & 0777) == (dest->st_mode & 0777)) &&
	       src->st_mtim.tv_sec == dest->st_mtim.tv_sec &&
	       src->st_mtim.tv_nsec == dest->st_mtim.tv_nsec &&
	       (!r->chown || dest->st_uid == r->owner);
}

static int taken(struct runner *r, const struct step *s)
{
	errno = EEXIST;
	return import_fail(r->library, s->dest,
			   "the name was taken during the import; move that away, then --resume");
}

/* Link DEST to the copy FIRST (a path in LIBRARY) of the same file, SRC. */
static int link_copy(struct runner *r, const struct step *s, int dfd,
		     const char *dbase, const char *first,
		     const struct stat *src, bool replay)
{
	const char *slash = strrchr(first, '/');
	char *dir = slash ? xasprintf("%.*s", (int)(slash - first), first) :
			    xstrdup(".");
	int ffd = online_open_dir_beneath(r->libfd, dir, true), ret = -1;
	struct stat f, d;

	free(dir);
	if (ffd < 0)
		return import_fail(r->library, first, "cannot open its directory");
	if (replay && fstatat(dfd, dbase, &d, AT_SYMLINK_NOFOLLOW) == 0) {
		if (fstatat(ffd, slash ? slash + 1 : first, &f,
			    AT_SYMLINK_NOFOLLOW) == 0 && f.st_ino == d.st_ino) {
			close(ffd);
			return 0;
		}
		if (!own_copy(r, src, &d) || unlinkat(dfd, dbase, 0) < 0) {
			close(ffd);
			return taken(r, s);
		}
	}
	if (linkat(ffd, slash ? slash + 1 : first, dfd, dbase, 0) == 0)
		ret = 0;
	else
		import_fail(r->library, s->dest, "cannot link it");
	close(ffd);
	return ret;
}

static int step_entry(struct runner *r, const struct step *s, bool replay)
{
	const char *sbase, *dbase;
	int sfd = parent_of(&r->src, s->src, &sbase);
	int serr = errno;
	int dfd = parent_of(&r->dest, s->dest, &dbase);
	const struct linked *l;
	struct stat st, there;

	if (dfd < 0)
		return import_fail(r->library, s->dest, "cannot open its directory");
	/* Moved, and its directory removed, before the interruption. */
	if (sfd < 0 && serr == ENOENT && r->move && replay &&
	    fstatat(dfd, dbase, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return 0;
	if (sfd < 0) {
		errno = serr;
		return import_fail("SRC", s->src, "cannot open its directory");
	}
	if (r->move) {
		if (renameat2(sfd, sbase, dfd, dbase, RENAME_NOREPLACE) == 0)
			return 0;
		/* Moved before the interruption. */
		if (errno == ENOENT && replay &&
		    fstatat(dfd, dbase, &st, AT_SYMLINK_NOFOLLOW) == 0)
			return 0;
		return import_fail("SRC", s->src, errno == EEXIST ?
			    "its place in the library was taken during the import" :
			    "cannot move it");
	}
	if (fstatat(sfd, sbase, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return import_fail("SRC", s->src, "cannot read it");
	l = S_ISREG(st.st_mode) ? linked_find(r, &st) : NULL;
	if (l)
		return link_copy(r, s, dfd, dbase, l->dest, &st, replay);
	if (replay && fstatat(dfd, dbase, &there, AT_SYMLINK_NOFOLLOW) == 0 &&
	    !own_copy(r, &st, &there))
		return taken(r, s);
	if (copy_to_tmp(r, sfd, sbase, &st) < 0)
		return import_fail("SRC", s->src, "cannot copy it");
	/* Taken again, the step replaces its own copy (own_copy()). */
	if (renameat2(r->j.workfd, IMPORT_TMP_NAME, dfd, dbase,
		      replay ? 0 : RENAME_NOREPLACE) < 0)
		return errno == EEXIST ? taken(r, s) :
		       import_fail(r->library, s->dest, "cannot put the copy in place");
	linked_add(r, &st, s->dest);
	return 0;
}

static int step_mkdir(struct runner *r, const struct step *s, bool replay)
{
	const char *base;
	int pfd = parent_of(&r->dest, s->dest, &base);
	bool casefolded, nonempty;
	int fd, ret = -1;

	if (pfd < 0)
		return import_fail(r->library, s->dest, "cannot open its directory");
	if (mkdirat(pfd, base, 0700) < 0 && !(replay && errno == EEXIST))
		return import_fail(r->library, s->dest, errno == EEXIST ?
			    "the name was taken during the import" :
			    "cannot make it");
	fd = openat(pfd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return import_fail(r->library, s->dest, "cannot open it");
	/* A directory made in a +F one is +F already; elsewhere it is made
	   so while it is empty, before anything goes into it. */
	if (online_casefolded(fd, &casefolded) < 0)
		goto out;
	if (!casefolded && (dirread_online_nonempty(fd, &nonempty) < 0 ||
			    nonempty)) {
		errno = nonempty ? ENOTEMPTY : errno;
		goto out;
	}
	if (!casefolded && online_set_casefold(fd) < 0)
		goto out;
	if (r->chown && fchown(fd, r->owner, r->group) < 0)
		goto out;
	ret = 0;
out:
	if (ret < 0)
		import_fail(r->library, s->dest, "cannot make it case-insensitive");
	close(fd);
	return ret;
}

static int step_dir_attrs(struct runner *r, const struct step *s,
			  bool replay)
{
	struct timespec times[2];
	struct stat st;
	int sfd, dfd, ret;

	sfd = online_open_dir_beneath(r->srcfd, s->src, false);
	/* Moving, the source directory goes once its attributes were
	   given: gone, they were. */
	if (sfd < 0 && errno == ENOENT && r->move && replay)
		return 0;
	if (sfd < 0 || fstat(sfd, &st) < 0) {
		if (sfd >= 0)
			close(sfd);
		return import_fail("SRC", s->src, "cannot read it");
	}
	close(sfd);
	dfd = online_open_dir_beneath(r->libfd, s->dest, true);
	if (dfd < 0)
		return import_fail(r->library, s->dest, "cannot open it");
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	/* Still writable by its owner, so that Steam can update it. */
	ret = fchmod(dfd, (st.st_mode & 02777) | 0700) == 0 &&
	      futimens(dfd, times) == 0 ? 0 : -1;
	if (ret < 0)
		import_fail(r->library, s->dest, "cannot give it its mode and times");
	close(dfd);
	return ret;
}

static int step_rmdir(struct runner *r, const struct step *s, bool replay)
{
	const char *base;
	int pfd = parent_of(&r->src, s->src, &base);
	char *q;

	if (pfd < 0 && replay && errno == ENOENT)
		return 0;
	if (pfd < 0)
		return import_fail("SRC", s->src, "cannot open its directory");
	if (unlinkat(pfd, base, AT_REMOVEDIR) == 0)
		return 0;
	if (replay && errno == ENOENT)
		return 0;
	if (errno != ENOTEMPTY && errno != EEXIST)
		return import_fail("SRC", s->src, "cannot remove it");
	/* Something arrived in it during the import: left, and said. */
	q = report_escape(s->src, strlen(s->src), true);
	progress_clear();
	gp_warn("SRC/%s: left in place: it holds entries that arrived during the import",
		q);
	free(q);
	r->leftovers++;
	return 0;
}

/*
 * Resuming a copy: the copies made before the interruption of a file
 * with several names are found again, so that its later names are links
 * to them, as in SRC.
 */
void find_links(struct runner *r)
{
	for (size_t i = 0; i < r->j.done && !r->move; i++) {
		const struct step *s = &r->plan.steps[i];
		const char *base;
		struct stat st;
		int fd;

		if (s->kind != STEP_ENTRY)
			continue;
		fd = parent_of(&r->src, s->src, &base);
		if (fd >= 0 && fstatat(fd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode))
			linked_add(r, &st, s->dest);
	}
}

int take_step(struct runner *r, const struct step *s, bool replay)
{
	switch (s->kind) {
	case STEP_MKDIR:
		return step_mkdir(r, s, replay);
	case STEP_ENTRY:
		return step_entry(r, s, replay);
	case STEP_DIR_ATTRS:
		return step_dir_attrs(r, s, replay);
	case STEP_RMDIR:
		return step_rmdir(r, s, replay);
	}
	return -1;
}

void runner_release(struct runner *r)
{
	cache_drop(&r->src);
	cache_drop(&r->dest);
	for (size_t i = 0; i < r->nlinks; i++)
		free(r->links[i].dest);
	free(r->links);
	free(r->buf);
	r->links = NULL;
	r->nlinks = 0;
	r->buf = NULL;
}
