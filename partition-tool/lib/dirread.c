// SPDX-License-Identifier: GPL-2.0
/*
 * The two directory readers, online and offline (see dirread.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ext2fs/ext2_fs.h>
#include <ext2fs/ext2fs.h>

#include "dirread.h"
#include "util.h"

static bool dot_or_dotdot(const char *name, size_t len)
{
	return (len == 1 && name[0] == '.') ||
	       (len == 2 && name[0] == '.' && name[1] == '.');
}

static void add(struct dir_entries *d, const char *name, size_t len,
		uint64_t ino, bool is_dir, int ftype)
{
	struct dir_entry *e;

	if (d->count == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 64;
		d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
	}
	if (d->used + len + 1 > d->size) {
		while (d->used + len + 1 > d->size)
			d->size = d->size ? 2 * d->size : 4096;
		d->names = xrealloc(d->names, d->size);
	}
	memcpy(d->names + d->used, name, len);
	d->names[d->used + len] = '\0';
	e = &d->v[d->count++];
	/* An offset until the buffer stops moving: see seal(). */
	e->name = NULL;
	e->len = len;
	e->ino = ino;
	e->is_dir = is_dir;
	e->ftype = ftype;
	d->used += len + 1;
}

/* Point the entries at their names, now that the buffer is final. */
static void seal(struct dir_entries *d)
{
	size_t i, off = 0;

	for (i = 0; i < d->count; i++) {
		d->v[i].name = d->names + off;
		off += d->v[i].len + 1;
	}
}

void dir_entries_free(struct dir_entries *d)
{
	free(d->v);
	free(d->names);
	memset(d, 0, sizeof(*d));
}

/*
 * Read FD from its start into OUT, or with OUT NULL only until the first
 * entry, counted in *SEEN; 0, or -1 with errno.
 */
static int read_online(int fd, bool types, struct dir_entries *out,
		       size_t *seen)
{
	char buf[32768];

	*seen = 0;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	for (;;) {
		ssize_t n = getdents64(fd, buf, sizeof(buf));

		if (n <= 0)
			return (int)n;
		for (ssize_t off = 0; off < n;) {
			const struct dirent64 *de = (const void *)(buf + off);
			size_t len = strlen(de->d_name);
			bool is_dir = de->d_type == DT_DIR;

			off += de->d_reclen;
			if (dot_or_dotdot(de->d_name, len))
				continue;
			++*seen;
			if (!out)
				return 0;
			if (types && de->d_type == DT_UNKNOWN) {
				struct stat st;

				if (fstatat(fd, de->d_name, &st,
					    AT_SYMLINK_NOFOLLOW) == 0)
					is_dir = S_ISDIR(st.st_mode);
			}
			add(out, de->d_name, len, de->d_ino, is_dir, 0);
		}
	}
}

int dirread_online(int fd, bool types, struct dir_entries *out)
{
	size_t seen;

	memset(out, 0, sizeof(*out));
	if (read_online(fd, types, out, &seen) < 0) {
		int err = errno;

		dir_entries_free(out);
		errno = err;
		return -1;
	}
	seal(out);
	return 0;
}

int dirread_online_nonempty(int fd, bool *nonempty)
{
	size_t seen;
	int ret = read_online(fd, false, NULL, &seen);

	*nonempty = seen > 0;
	return ret;
}

struct offline_read {
	ext2_filsys fs;
	struct dir_entries *out;
	bool filetype;
	bool stop_at_first;	/* only whether there is an entry */
	bool found;
};

static int offline_entry(ext2_ino_t dir, int which, struct ext2_dir_entry *de,
			 int offset, int blocksize, char *buf, void *priv)
{
	struct offline_read *r = priv;
	size_t len = ext2fs_dirent_name_len(de);
	int ftype = ext2fs_dirent_file_type(de);
	bool is_dir;

	(void)dir;
	(void)offset;
	(void)blocksize;
	(void)buf;
	if (!de->inode)
		return 0;
	if (which == DIRENT_DOT_DOT_FILE) {
		r->out->parent = de->inode;
		return 0;
	}
	if (which == DIRENT_DOT_FILE || dot_or_dotdot(de->name, len))
		return 0;
	if (r->stop_at_first) {
		r->found = true;
		return DIRENT_ABORT;
	}
	if (r->filetype && ftype != EXT2_FT_UNKNOWN) {
		is_dir = ftype == EXT2_FT_DIR;
	} else {
		struct ext2_inode inode;

		is_dir = !ext2fs_read_inode(r->fs, de->inode, &inode) &&
			 LINUX_S_ISDIR(inode.i_mode);
	}
	add(r->out, de->name, len, de->inode, is_dir, ftype);
	r->out->rec_bytes += EXT2_DIR_REC_LEN(len);
	return 0;
}

errcode_t dirread_offline(ext2_filsys fs, ext2_ino_t ino,
			  struct dir_entries *out)
{
	struct offline_read r = {
		.fs = fs, .out = out,
		.filetype = ext2fs_has_feature_filetype(fs->super),
	};
	errcode_t err;

	memset(out, 0, sizeof(*out));
	err = ext2fs_dir_iterate2(fs, ino, 0, NULL, offline_entry, &r);
	if (err) {
		dir_entries_free(out);
		return err;
	}
	seal(out);
	return 0;
}

errcode_t dirread_offline_nonempty(ext2_filsys fs, ext2_ino_t ino,
				   bool *nonempty)
{
	struct dir_entries none;
	struct offline_read r = { .fs = fs, .out = &none, .stop_at_first = true };
	errcode_t err;

	memset(&none, 0, sizeof(none));
	err = ext2fs_dir_iterate2(fs, ino, 0, NULL, offline_entry, &r);
	*nonempty = r.found;
	return err;
}
