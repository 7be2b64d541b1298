/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a TARGET|PATH argument names: a directory on a mounted filesystem
 * (online), or an unmounted block device or image file (offline, opened
 * with libext2fs).  A mounted device is refused for offline use.  The
 * target layer also says what the filesystem's name rules are
 * (struct fs_info) and which folding rules follow from them.
 */
#ifndef GAMEPART_TARGET_H
#define GAMEPART_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include <ext2fs/ext2fs.h>

/* The filesystem's name rules, as its superblock (or the kernel) says. */
struct fs_info {
	int encoding;		/* s_encoding, 0 without the casefold feature;
				   -1 named by the kernel but unknown here */
	int encoding_flags;	/* s_encoding_flags */
	bool casefold_feature;
	bool known;		/* online: false when nothing could be read */
	char source[96];	/* online: where it was read */
	char device[72];	/* online: /dev/NAME, when known */
	char why[160];		/* online, not known: why */
};

enum target_kind { TARGET_ONLINE, TARGET_OFFLINE };

struct target {
	enum target_kind kind;
	const char *arg;	/* as given on the command line */
	int dirfd;		/* online: the directory, O_RDONLY|O_DIRECTORY */
	ext2_filsys fs;		/* offline: the open filesystem */
	ext2_ino_t ino;		/* offline: the directory to start from */
	struct fs_info info;
	char foreign[96];	/* online, not on ext4: what it is on */
};

/* How an offline target is opened. */
enum target_access {
	TARGET_READ,
	TARGET_READ_ANY_FS,	/* online, a tree on any filesystem, whose
				   names alone are judged (gamepart check) */
	TARGET_WRITE,		/* exclusively */
	TARGET_WRITE_UNDO,	/* exclusively, every write saved first to
				   an undo file (undo.h) */
};

/*
 * Open ARG.  Offline, SUBDIR (may be NULL) is a path inside the filesystem
 * to start from instead of its root.  On failure a message naming ARG and
 * the cause has been printed and -1 is returned.
 */
int target_open(struct target *t, const char *arg, const char *subdir,
		enum target_access access);
void target_close(struct target *t);

/*
 * Offline: the directory at PATH inside the filesystem (from its root).
 * On failure a message naming ARG, PATH and the cause has been printed
 * and -1 is returned.
 */
int target_find_dir(const struct target *t, const char *path,
		    ext2_ino_t *ino);

/*
 * libext2fs's EXT2_MF_* flags for the device or image DEV (mounted, swap,
 * busy) and, if mounted, its mount point in MTPT ("" if unknown).  On
 * failure a message naming DEV has been printed and -1 is returned.
 */
int target_mount_flags(const char *dev, int *mflags, char *mtpt, size_t size);

/* What is at a path of the target where a directory is expected. */
enum dir_state { DIR_MISSING, DIR_NOT_DIR, DIR_PLAIN, DIR_CASEFOLD, DIR_ERROR };

/*
 * PATH (relative to T's starting directory, never through a symbolic
 * link) as a directory; for DIR_PLAIN, whether it is empty in *EMPTY.
 * DIR_ERROR after a message.
 */
enum dir_state target_dir_state(const struct target *t, const char *path,
				bool *empty);

struct folder;

/*
 * The folding rules of T's filesystem.  When it has no casefold feature,
 * or its superblock could not be read, they are those the feature brings
 * by default (utf8-12.1, not strict), and with SAY_ASSUMED a note says
 * so.  NULL after a message when libext2fs does not know the encoding.
 */
struct folder *target_folder(const struct target *t, bool say_assumed);

/*
 * FLAGS as "0x3 (strict, no-compat-fallback)": the value in hexadecimal,
 * then the names of the bits, bits gamepart does not know in hexadecimal.
 */
void encoding_flags_text(int flags, char *buf, size_t size);

/*
 * "utf8-12.1", "utf8-nfkd-12.1" or "utf8-windows-12.1", or NULL for an
 * encoding gamepart does not know.
 */
const char *encoding_name(int encoding);

/* The names above, for help texts and usage errors. */
#define ENCODING_NAMES "utf8-12.1, utf8-nfkd-12.1, utf8-windows-12.1"

/* The s_encoding that NAME (as above) stands for; -1 for none. */
int encoding_by_name(const char *name);

/*
 * The folding rules of a filesystem made with ENCODING and its default
 * flags (as mke2fs -E encoding=NAME makes it: not strict).  NULL after a
 * message naming WHO (when not NULL) if the libext2fs gamepart runs with
 * cannot fold ENCODING's names.
 */
struct folder *encoding_folder(int encoding, const char *who);

#endif
