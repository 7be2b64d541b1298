/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A mounted filesystem seen through an open directory: its inode flags
 * (FS_IOC_GETFLAGS, the one way gamepart asks "is it +F?" online), what
 * filesystem it is on, and a directory's attributes given to another.
 */
#ifndef GAMEPART_ONLINE_H
#define GAMEPART_ONLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <linux/fs.h>

/* FD's inode flags (FS_*_FL) in *FLAGS; 0, or -1 with errno. */
int online_flags(int fd, int *flags);

/* Whether FD has FS_CASEFOLD_FL, in *CASEFOLDED; 0, or -1 with errno. */
int online_casefolded(int fd, bool *casefolded);

/* Set FS_CASEFOLD_FL on FD (an empty directory); 0, or -1 with errno. */
int online_set_casefold(int fd);

/*
 * The path of the directory FD inside its filesystem ("/", "/lib"), as
 * an offline tool names it: its path below its mount point, under the
 * mount's own root when a subtree is mounted (a bind mount).  NULL when
 * /proc does not tell.
 */
char *online_path_in_fs(int fd);

/*
 * Whether FD is on ext4.  When it is not, WHAT says what it is on, for a
 * message: "it is on tmpfs" (the type /proc/self/mountinfo gives), or
 * "type 0xMAGIC" when the mount cannot be found.  0, or -1 with errno.
 */
int online_is_ext4(int fd, bool *ext4, char *what, size_t size);

/*
 * Give TO (a directory) what FROM has of its own that a rename would have
 * kept: owner, every extended attribute (user, trusted, security, the
 * POSIX ACLs), mode, the chattr flags that make sense to carry, and the
 * project.  -1 with errno when a step fails; WHAT (SIZE bytes) names
 * it, or with *XATTR the extended attribute that failed.
 */
int online_copy_attributes(int from, int to, char *what, size_t size,
			   bool *xattr);

/*
 * The next extent of data of the open file FD (of SIZE bytes) at or
 * after FROM, as [*START, *END): 1, or 0 when only a hole is left, or -1
 * with errno.  Without SEEK_DATA (EINVAL), the rest of the file is one
 * extent.  A copy that writes only these keeps the file's holes.
 */
int online_data_extent(int fd, off_t from, off_t size, off_t *start,
		       off_t *end);

/*
 * RELPATH beneath the directory ROOTFD, as a directory, through no
 * symbolic link (in any component) and, with SAME_FS, onto no other
 * mount; -1 with errno (ELOOP: a symbolic link, EXDEV: a mount).
 */
int online_open_dir_beneath(int rootfd, const char *relpath, bool same_fs);

#endif
