// SPDX-License-Identifier: GPL-2.0
/*
 * ext2-walk IMAGE: the bare offline walk that make bench-check holds
 * gamepart check against.  It opens an unmounted ext2/3/4 image read-only
 * through libext2fs, as gamepart does, reads every directory of the tree
 * with ext2fs_dir_iterate2() and prints how many entries it saw ("." and
 * ".." left out).  It does nothing with a name but count it, so the time it
 * takes is what reading the directories costs; whatever gamepart takes on
 * top is its own work.
 *
 * Like gamepart it reads a directory whole before descending into its
 * subdirectories, so both keep one directory iteration open at a time and
 * touch the blocks in the same order.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <et/com_err.h>
#include <ext2fs/ext2_fs.h>
#include <ext2fs/ext2fs.h>

/* A corrupted tree could loop; ours is made by mke2fs, but do not hang. */
#define MAX_DEPTH 4096

struct walk {
	ext2_filsys fs;
	const char *image;
	unsigned long long entries;
	bool filetype;
	int errors;
};

/* The subdirectories met while reading one directory. */
struct subdirs {
	struct walk *w;
	ext2_ino_t *ino;
	size_t n, cap;
};

static int count_entry(ext2_ino_t dir, int entry, struct ext2_dir_entry *de,
		       int offset, int blocksize, char *buf, void *priv)
{
	struct subdirs *s = priv;
	int len = ext2fs_dirent_name_len(de);
	bool is_dir;

	(void)dir;
	(void)offset;
	(void)blocksize;
	(void)buf;
	if (entry == DIRENT_DOT_FILE || entry == DIRENT_DOT_DOT_FILE ||
	    !de->inode)
		return 0;
	if ((len == 1 && de->name[0] == '.') ||
	    (len == 2 && de->name[0] == '.' && de->name[1] == '.'))
		return 0;
	s->w->entries++;
	if (s->w->filetype &&
	    ext2fs_dirent_file_type(de) != EXT2_FT_UNKNOWN) {
		is_dir = ext2fs_dirent_file_type(de) == EXT2_FT_DIR;
	} else {
		struct ext2_inode inode;

		is_dir = !ext2fs_read_inode(s->w->fs, de->inode, &inode) &&
			 LINUX_S_ISDIR(inode.i_mode);
	}
	if (!is_dir)
		return 0;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->ino = realloc(s->ino, s->cap * sizeof(*s->ino));
		if (!s->ino) {
			perror("ext2-walk");
			exit(2);
		}
	}
	s->ino[s->n++] = de->inode;
	return 0;
}

static void walk_dir(struct walk *w, ext2_ino_t ino, int depth)
{
	struct subdirs s = { .w = w };
	errcode_t err;
	size_t i;

	if (depth >= MAX_DEPTH) {
		fprintf(stderr, "ext2-walk: %s: deeper than %d directories at inode %u\n",
			w->image, MAX_DEPTH, ino);
		w->errors++;
		return;
	}
	err = ext2fs_dir_iterate2(w->fs, ino, 0, NULL, count_entry, &s);
	if (err) {
		com_err("ext2-walk", err, "while reading directory inode %u of %s",
			ino, w->image);
		w->errors++;
	}
	for (i = 0; i < s.n; i++)
		walk_dir(w, s.ino[i], depth + 1);
	free(s.ino);
}

int main(int argc, char **argv)
{
	struct walk w = { 0 };
	errcode_t err;

	if (argc != 2) {
		fprintf(stderr, "Usage: ext2-walk IMAGE\n");
		return 2;
	}
	w.image = argv[1];
	err = ext2fs_open2(w.image, NULL, EXT2_FLAG_64BITS, 0, 0,
			   unix_io_manager, &w.fs);
	if (err) {
		com_err("ext2-walk", err, "while opening %s", w.image);
		return 2;
	}
	w.filetype = ext2fs_has_feature_filetype(w.fs->super);
	walk_dir(&w, EXT2_ROOT_INO, 0);
	ext2fs_close_free(&w.fs);
	printf("%llu\n", w.entries);
	return w.errors ? 1 : 0;
}
