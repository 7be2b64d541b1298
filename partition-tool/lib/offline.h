/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Changes to an unmounted ext4 filesystem through libext2fs: the only
 * code of gamepart that writes inodes, directory blocks or superblock
 * fields.  Callers open the filesystem with target_open() (target.h),
 * with an undo file when the change must be revertible (undo.h).
 */
#ifndef GAMEPART_OFFLINE_H
#define GAMEPART_OFFLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ext2fs/ext2fs.h>

#include "dirread.h"

struct crash_hook;

/* What a new directory is given besides its name. */
struct offline_dir_attrs {
	bool casefold;		/* EXT4_CASEFOLD_FL */
	bool have_owner;
	uint32_t uid, gid;
};

/* Make directory NAME in PARENT with mode 0755 and A; its inode in *INO. */
errcode_t offline_mkdir(ext2_filsys fs, ext2_ino_t parent, const char *name,
			const struct offline_dir_attrs *a, ext2_ino_t *ino);

/*
 * Turn the casefold feature on, as tune2fs -O casefold does, and mark it
 * as offline_set_no_compat_fallback() does.
 */
errcode_t offline_enable_casefold(ext2_filsys fs);

/*
 * Set the encoding flag no-compat-fallback (0x2): no name on FS was hashed
 * under other folding rules.  Only for a filesystem that has just been
 * made or has just had the casefold feature turned on.
 */
void offline_set_no_compat_fallback(ext2_filsys fs);

/* Whether FS was not cleanly unmounted or has recorded errors. */
bool offline_needs_fsck(ext2_filsys fs);

/*
 * Mark FS not clean on disk before a series of changes (so that fsck
 * looks at it before anything mounts it, should the series stop), and
 * clean again once the series is complete (written at close).
 */
errcode_t offline_changes_begin(ext2_filsys fs);
void offline_changes_end(ext2_filsys fs);

/*
 * The name directory entry E takes in the rebuilt directory: NULL keeps
 * its own.
 */
typedef const char *(*offline_rename_fn)(void *ctx, const struct dir_entry *e);

/*
 * Make directory INO casefolded in place, keeping its inode and its
 * entries' inodes, each entry under the name RENAME gives it, and build
 * its hash index anew with the casefolded hash.  *LINKED counts the
 * entries linked back.  The changes, named by phase, are counted by
 * HOOK.
 */
errcode_t offline_rebuild_casefolded(ext2_filsys fs, ext2_ino_t ino,
				     offline_rename_fn rename, void *ctx,
				     size_t *linked, struct crash_hook *hook);

#endif
