// SPDX-License-Identifier: GPL-2.0
/*
 * Finding a Steam library's game folders and Proton prefixes (see
 * library.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <et/com_err.h>

#include "dirread.h"
#include "library.h"
#include "util.h"

/* The entries of PARENT; 1 if there is none, -1 after a message. */
static int list_parent(const struct target *t, const char *parent,
		       struct dir_entries *d)
{
	errcode_t err;
	ext2_ino_t ino;

	if (t->kind == TARGET_ONLINE) {
		int fd = openat(t->dirfd, parent, O_RDONLY | O_DIRECTORY |
				O_NOFOLLOW | O_CLOEXEC);
		int ret;

		if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
			return 1;
		ret = fd < 0 ? -1 : dirread_online(fd, true, d);
		if (ret < 0)
			gp_warn("%s/%s: %s", t->arg, parent, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	err = ext2fs_namei(t->fs, EXT2_ROOT_INO, t->ino, parent, &ino);
	if (err == EXT2_ET_FILE_NOT_FOUND)
		return 1;
	if (!err && ext2fs_check_directory(t->fs, ino))
		return 1;
	if (!err)
		err = dirread_offline(t->fs, ino, d);
	if (err) {
		gp_warn("%s: %s: %s", t->arg, parent, error_message(err));
		return -1;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strverscmp(((const struct below_dir *)a)->path,
			  ((const struct below_dir *)b)->path);
}

/* PARENT/X/SUFFIX (PARENT/X without SUFFIX) for each directory X. */
static int find_below(const struct target *t, const char *parent,
		      const char *suffix, struct below_dirs *out)
{
	struct dir_entries d;
	int ret = list_parent(t, parent, &d);

	memset(out, 0, sizeof(*out));
	if (ret)
		return ret > 0 ? 0 : -1;
	out->v = xcalloc(d.count ? d.count : 1, sizeof(*out->v));
	for (size_t i = 0; i < d.count; i++) {
		struct below_dir *p = &out->v[out->count];

		if (!d.v[i].is_dir)
			continue;
		p->path = xasprintf("%s/%s%s%s", parent, d.v[i].name,
				    suffix ? "/" : "", suffix ? suffix : "");
		p->state = target_dir_state(t, p->path, &p->empty);
		if (p->state == DIR_ERROR)
			ret = -1;
		if (p->state == DIR_PLAIN || p->state == DIR_CASEFOLD)
			out->count++;
		else
			free(p->path);
	}
	dir_entries_free(&d);
	qsort(out->v, out->count, sizeof(*out->v), by_name);
	return ret;
}

int prefixes_find(const struct target *t, struct below_dirs *out)
{
	return find_below(t, PREFIXES_DIR, PREFIX_DRIVE_C, out);
}

int games_find(const struct target *t, struct below_dirs *out)
{
	return find_below(t, GAMES_DIR, NULL, out);
}

void below_dirs_free(struct below_dirs *p)
{
	for (size_t i = 0; i < p->count; i++)
		free(p->v[i].path);
	free(p->v);
	memset(p, 0, sizeof(*p));
}
