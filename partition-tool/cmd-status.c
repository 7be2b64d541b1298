// SPDX-License-Identifier: GPL-2.0
/*
 * gamepart status: the encoding and flags of a game-library filesystem,
 * whether the running kernel can mount it, which library directories are
 * casefolded, and what to run for those that are not.
 *
 * Offline (an unmounted device or image) everything comes from libext2fs.
 * Online (a directory) the flags come from FS_IOC_GETFLAGS.  The encoding
 * and strict flag come from /sys/fs/ext4/DEV/encoding{,_flags} on kernels
 * with the gamepart series; otherwise (stock Linux 6.1 reports them
 * nowhere) they are read from the filesystem's block device when we may
 * read it, and are "unknown" if not.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <et/com_err.h>
#include <ext2fs/ext2fs.h>

#include "gamepart.h"
#include "convert.h"
#include "layout.h"
#include "target.h"

#define CASEFOLD_FL		0x40000000	/* EXT4_CASEFOLD_FL */
#define EXT4_MAGIC		0xEF53
#define KERNEL_CASEFOLD		"/sys/fs/ext4/features/casefold"


enum dir_state { DIR_MISSING, DIR_NOT_DIR, DIR_PLAIN, DIR_CASEFOLD, DIR_ERROR };


static void usage(FILE *out)
{
	fputs("Usage: gamepart status TARGET|PATH\n"
	      "\n"
	      "Show the filename encoding of a game-library filesystem, whether this\n"
	      "kernel supports casefold, which library directories are casefolded\n"
	      "(+F), and what to run for those that are not.  TARGET is an unmounted\n"
	      "device or image file (read offline); PATH is a library directory on a\n"
	      "mounted filesystem.\n"
	      "\n"
	      "Options:\n"
	      "  -h, --help   show this help\n"
	      "\n"
	      "See gamepart(8).\n", out);
}

static const char *encoding_name(int encoding)
{
	return encoding == EXT4_ENC_UTF8_12_1 ? "utf8-12.1" : NULL;
}

static bool online_empty(int fd)
{
	int dup_fd = dup(fd);
	struct dirent *de;
	bool empty = true;
	DIR *d;

	if (dup_fd < 0)
		return false;
	d = fdopendir(dup_fd);
	if (!d) {
		close(dup_fd);
		return false;
	}
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			empty = false;
			break;
		}
	}
	closedir(d);
	return empty;
}

static enum dir_state online_dir(const struct target *t, const char *path,
				 bool *empty)
{
	int fd, flags = 0;
	enum dir_state s;

	fd = openat(t->dirfd, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return DIR_MISSING;
		if (errno == ENOTDIR || errno == ELOOP)
			return DIR_NOT_DIR;
		gp_warn("%s/%s: %s", t->arg, path, strerror(errno));
		return DIR_ERROR;
	}
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0) {
		gp_warn("%s/%s: reading its flags: %s", t->arg, path,
			strerror(errno));
		close(fd);
		return DIR_ERROR;
	}
	s = ((unsigned int)flags & CASEFOLD_FL) ? DIR_CASEFOLD : DIR_PLAIN;
	*empty = s == DIR_PLAIN && online_empty(fd);
	close(fd);
	return s;
}

static int count_entry(struct ext2_dir_entry *de, int offset, int blocksize,
		       char *buf, void *priv)
{
	int len = ext2fs_dirent_name_len(de);

	(void)offset;
	(void)blocksize;
	(void)buf;
	if ((len == 1 && de->name[0] == '.') ||
	    (len == 2 && de->name[0] == '.' && de->name[1] == '.'))
		return 0;
	*(bool *)priv = false;
	return DIRENT_ABORT;
}

static enum dir_state offline_dir(const struct target *t, const char *path,
				  bool *empty)
{
	struct ext2_inode inode;
	ext2_ino_t ino;
	errcode_t err;

	err = ext2fs_namei(t->fs, EXT2_ROOT_INO, t->ino, path, &ino);
	if (err == EXT2_ET_FILE_NOT_FOUND)
		return DIR_MISSING;
	if (!err)
		err = ext2fs_read_inode(t->fs, ino, &inode);
	if (err) {
		gp_warn("%s: %s: %s", t->arg, path, error_message(err));
		return DIR_ERROR;
	}
	if (!LINUX_S_ISDIR(inode.i_mode))
		return DIR_NOT_DIR;
	if (inode.i_flags & CASEFOLD_FL)
		return DIR_CASEFOLD;
	*empty = true;
	err = ext2fs_dir_iterate(t->fs, ino, 0, NULL, count_entry, empty);
	if (err)
		*empty = false;
	return DIR_PLAIN;
}

static void print_fs(const struct target *t, const struct walk_fs *fi,
		     bool kernel_ok)
{
	const char *name;

	printf("target:     %s (%s)\n", t->arg,
	       t->kind == TARGET_ONLINE ? "mounted, online" : "unmounted, offline");
	if (!fi->known) {
		printf("casefold:   unknown (%s)\n", fi->why);
		printf("encoding:   unknown\n");
		printf("strict:     unknown\n");
	} else if (!fi->casefold_feature) {
		printf("casefold:   feature off\n");
		printf("encoding:   none\n");
		printf("strict:     no\n");
	} else {
		name = encoding_name(fi->encoding);
		printf("casefold:   feature on\n");
		if (name)
			printf("encoding:   %s\n", name);
		else if (fi->encoding < 0)
			printf("encoding:   unknown to gamepart (see %s/encoding)\n",
			       fi->source);
		else
			printf("encoding:   unknown (s_encoding %d)\n", fi->encoding);
		printf("strict:     %s\n",
		       fi->encoding_flags & EXT4_ENC_STRICT_MODE_FL ?
		       "yes (names that are not valid UTF-8 are refused)" : "no");
	}
	if (fi->known && t->kind == TARGET_ONLINE)
		printf("read from:  %s\n", fi->source);
	printf("kernel:     %s\n", kernel_ok ?
	       "this kernel supports casefold (" KERNEL_CASEFOLD ")" :
	       "this kernel cannot mount a casefold filesystem (no " KERNEL_CASEFOLD ")");
}

static bool dir_interrupted(const struct target *t, const char *path)
{
	int fd = openat(t->dirfd, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC);
	bool ret;

	if (fd < 0)
		return false;
	ret = convert_interrupted(fd);
	close(fd);
	return ret;
}

static int status(const struct target *t, const struct walk_fs *fi)
{
	struct layout l;
	enum dir_state *states;
	bool *empties;
	size_t i, width = 0;
	int rc = EXIT_NOTHING_FOUND;
	const char *prefix = t->kind == TARGET_ONLINE && strcmp(t->arg, ".") ? t->arg : NULL;
	bool advised = false;

	layout_default(&l);
	states = xcalloc(l.count, sizeof(*states));
	empties = xcalloc(l.count, sizeof(*empties));
	for (i = 0; i < l.count; i++) {
		if (strlen(l.dirs[i].path) > width)
			width = strlen(l.dirs[i].path);
		states[i] = t->kind == TARGET_ONLINE ?
			online_dir(t, l.dirs[i].path, &empties[i]) :
			offline_dir(t, l.dirs[i].path, &empties[i]);
		if (states[i] == DIR_ERROR)
			rc = EXIT_TROUBLE;
	}
	printf("\nlibrary directories:\n");
	for (i = 0; i < l.count; i++) {
		static const char *const what[] = {
			[DIR_MISSING] = "missing",
			[DIR_NOT_DIR] = "not a directory",
			[DIR_PLAIN] = "not casefolded",
			[DIR_CASEFOLD] = "casefolded (+F)",
			[DIR_ERROR] = "unreadable",
		};
		printf("  %-*s  %s\n", (int)width, l.dirs[i].path, what[states[i]]);
	}
	printf("\n");
	if (t->kind == TARGET_OFFLINE) {
		char *undo = offline_interrupted(t->arg);

		if (undo) {
			printf("an offline conversion was interrupted (undo file %s): gamepart convert --offline --resume %s\n",
			       undo, t->arg);
			advised = true;
		}
		free(undo);
	}
	if (!advised && fi->known && !fi->casefold_feature) {
		printf("the filesystem has no casefold feature: unmount it and run tune2fs -O casefold on its device\n");
		advised = true;
	}
	for (i = 0; i < l.count && !advised; i++) {
		const char *p = l.dirs[i].path;
		char *shown = prefix ? xasprintf("%s/%s", prefix, p) : xstrdup(p);

		if (t->kind == TARGET_ONLINE && dir_interrupted(t, p)) {
			printf("%s: a conversion was interrupted: gamepart convert --resume %s\n",
			       p, shown);
		} else if (states[i] == DIR_PLAIN && l.dirs[i].casefold) {
			if (t->kind == TARGET_OFFLINE)
				printf("%s is not casefolded: gamepart convert --offline %s %s\n",
				       p, t->arg, p);
			else if (empties[i])
				printf("%s is not casefolded: gamepart casefold %s\n",
				       p, shown);
			else
				printf("%s is not casefolded: gamepart convert %s\n",
				       p, shown);
		} else if (states[i] == DIR_MISSING) {
			const char *slash = strrchr(p, '/');
			size_t j;
			bool parent_missing = false;

			for (j = 0; slash && j < i; j++)
				if (strlen(l.dirs[j].path) == (size_t)(slash - p) &&
				    !strncmp(l.dirs[j].path, p, (size_t)(slash - p)))
					parent_missing = states[j] == DIR_MISSING;
			if (!parent_missing)
				printf("%s is missing: create it in a casefolded parent, or mkdir it and run gamepart casefold on it\n",
				       p);
		} else if (states[i] == DIR_NOT_DIR) {
			printf("%s is not a directory: move it away and create the directory\n",
			       p);
		}
		free(shown);
	}
	free(states);
	free(empties);
	layout_free(&l);
	return rc;
}

int cmd_status(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct walk_fs *fi;
	struct target t;
	struct statfs sfs;
	bool kernel_ok;
	int c, rc;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_NOTHING_FOUND;
		}
		gp_warn("%s: unknown option; see 'gamepart status --help'",
			argv[optind - 1]);
		return EXIT_TROUBLE;
	}
	if (optind != argc - 1) {
		gp_warn("%s; see 'gamepart status --help'",
			optind < argc ? "one TARGET|PATH expected" : "no TARGET|PATH given");
		return EXIT_TROUBLE;
	}
	if (target_open(&t, argv[optind], NULL, false))
		return EXIT_TROUBLE;

	if (t.kind == TARGET_ONLINE) {
		if (fstatfs(t.dirfd, &sfs) < 0) {
			gp_warn("%s: %s", t.arg, strerror(errno));
			target_close(&t);
			return EXIT_TROUBLE;
		}
		if (sfs.f_type != EXT4_MAGIC) {
			gp_warn("%s: not on an ext4 filesystem", t.arg);
			target_close(&t);
			return EXIT_TROUBLE;
		}
	}
	fi = &t.fsinfo;
	kernel_ok = access(KERNEL_CASEFOLD, F_OK) == 0;
	print_fs(&t, fi, kernel_ok);
	rc = status(&t, fi);
	target_close(&t);
	return rc;
}
