/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A mounted filesystem seen through an open directory: its inode flags
 * (FS_IOC_GETFLAGS, the one way gamepart asks "is it +F?" online) and
 * what filesystem it is on.
 */
#ifndef GAMEPART_ONLINE_H
#define GAMEPART_ONLINE_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/fs.h>

/* FD's inode flags (FS_*_FL) in *FLAGS; 0, or -1 with errno. */
int online_flags(int fd, int *flags);

/* Whether FD has FS_CASEFOLD_FL, in *CASEFOLDED; 0, or -1 with errno. */
int online_casefolded(int fd, bool *casefolded);

/* Set FS_CASEFOLD_FL on FD (an empty directory); 0, or -1 with errno. */
int online_set_casefold(int fd);

/*
 * Whether FD is on ext4.  When it is not, WHAT says what it is on, for a
 * message: "it is on tmpfs" (the type /proc/self/mountinfo gives), or
 * "type 0xMAGIC" when the mount cannot be found.  0, or -1 with errno.
 */
int online_is_ext4(int fd, bool *ext4, char *what, size_t size);

#endif
