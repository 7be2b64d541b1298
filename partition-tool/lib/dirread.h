/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading one directory whole: online through getdents64 on an open
 * descriptor, offline through libext2fs.  These are the only two places
 * where gamepart reads a directory; walking, planning, moving and
 * rebuilding all take the entries from here.
 */
#ifndef GAMEPART_DIRREAD_H
#define GAMEPART_DIRREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ext2fs/ext2fs.h>

struct dir_entry {
	const char *name;	/* NUL-terminated; may hold no NUL: use len */
	size_t len;
	uint64_t ino;
	bool is_dir;
	int ftype;		/* offline: the entry's EXT2_FT_*; online 0 */
};

/* The entries of one directory, without "." and "..", names packed. */
struct dir_entries {
	struct dir_entry *v;
	size_t count;
	uint64_t parent;	/* offline: the inode ".." names */
	size_t rec_bytes;	/* offline: the records the names need */
	/* private */
	size_t cap;
	char *names;
	size_t used, size;
};

/*
 * Read the directory open as FD from its start.  With TYPES, an entry
 * whose type getdents64 does not give is looked up, so that is_dir is
 * right.  0, or -1 with errno.
 */
int dirread_online(int fd, bool types, struct dir_entries *out);

/* Whether the directory open as FD has an entry besides "." and "..",
   in *NONEMPTY, reading no further than the first; 0, or -1 with errno. */
int dirread_online_nonempty(int fd, bool *nonempty);

/*
 * Read directory INO of FS; without the filetype feature, each entry's
 * inode is read for its type.  0 or a libext2fs error.
 */
errcode_t dirread_offline(ext2_filsys fs, ext2_ino_t ino,
			  struct dir_entries *out);

/* Whether INO of FS has an entry besides "." and "..", in *NONEMPTY. */
errcode_t dirread_offline_nonempty(ext2_filsys fs, ext2_ino_t ino,
				   bool *nonempty);

void dir_entries_free(struct dir_entries *d);

#endif
