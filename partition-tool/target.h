/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a TARGET|PATH argument names: a directory on a mounted filesystem
 * (online), or an unmounted block device or image file (offline, opened
 * with libext2fs).  A mounted device is refused for offline use.
 */
#ifndef GAMEPART_TARGET_H
#define GAMEPART_TARGET_H

#include <stdbool.h>
#include <ext2fs/ext2fs.h>

#include "walk.h"

enum target_kind { TARGET_ONLINE, TARGET_OFFLINE };

struct target {
	enum target_kind kind;
	const char *arg;	/* as given on the command line */
	int dirfd;		/* online: the directory, O_RDONLY|O_DIRECTORY */
	ext2_filsys fs;		/* offline: the open filesystem */
	ext2_ino_t ino;		/* offline: the directory to start from */
	/*
	 * The filesystem's name rules from its superblock; online, read
	 * from the mounted device when it can be read (fsinfo.known).
	 */
	struct walk_fs fsinfo;
};

/*
 * Open ARG.  Offline, SUBDIR (may be NULL) is a path inside the filesystem
 * to start from instead of its root.  On failure a message naming ARG and
 * the cause has been printed and -1 is returned.
 */
int target_open(struct target *t, const char *arg, const char *subdir,
		bool writable);
void target_close(struct target *t);

/*
 * Offline: the directory at PATH inside the filesystem (from its root).
 * On failure a message naming ARG, PATH and the cause has been printed
 * and -1 is returned.
 */
int target_find_dir(const struct target *t, const char *path,
		    ext2_ino_t *ino);

/*
 * From now on, open offline targets for writing through libext2fs's undo
 * I/O manager: the old contents of every block written are saved to
 * UNDO_FILE first, for e2undo.
 */
void target_set_undo_file(const char *undo_file);

/*
 * libext2fs's EXT2_MF_* flags for the device or image DEV (mounted, swap,
 * busy) and, if mounted, its mount point in MTPT ("" if unknown).  On
 * failure a message naming DEV has been printed and -1 is returned.
 */
int target_mount_flags(const char *dev, int *mflags, char *mtpt, size_t size);

#endif
