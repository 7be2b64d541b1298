// SPDX-License-Identifier: GPL-2.0
/*
 * Undo files (see undo.h).  The format is e2fsprogs' (lib/ext2fs/undo_io.c
 * and misc/e2undo.c), which installs no header for it: the little that
 * gamepart reads, the magic and the state word, is defined here alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <et/com_err.h>
#include <ext2fs/ext2fs.h>

#include "undo.h"
#include "util.h"

/*
 * The header (misc/e2undo.c's struct undo_header): 512 bytes, "E2UNDO02",
 * the state word at byte 44 (little-endian, bit 0: the run finished),
 * and a crc32c of the bytes before it in the last four.
 */
#define UNDO_MAGIC		"E2UNDO02"
#define UNDO_HEADER_SIZE	512
#define UNDO_STATE_OFFSET	44
#define UNDO_STATE_FINISHED	0x1
#define UNDO_CRC_OFFSET		(UNDO_HEADER_SIZE - 4)

int undo_file_state(const char *path)
{
	unsigned char hdr[UNDO_STATE_OFFSET + 4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return errno == ENOENT ? UNDO_NONE : -1;
	n = pread(fd, hdr, sizeof(hdr), 0);
	close(fd);
	if (n < 0)
		return -1;
	/*
	 * The header is written with the first block's record, before the
	 * block itself: without it (the file made, zeroed, or cut short),
	 * nothing was written to the filesystem.
	 */
	if (n < (ssize_t)sizeof(hdr) ||
	    !memcmp(hdr, "\0\0\0\0\0\0\0\0", 8))
		return UNDO_EMPTY;
	if (memcmp(hdr, UNDO_MAGIC, 8)) {
		errno = EINVAL;
		return -1;
	}
	/* Little-endian on disk. */
	return hdr[UNDO_STATE_OFFSET] & UNDO_STATE_FINISHED ? UNDO_FINISHED :
	       UNDO_UNFINISHED;
}

const char *undo_default_dir(void)
{
	const char *dir = getenv("E2FSPROGS_UNDO_DIR");

	return dir && *dir ? dir : UNDO_DEFAULT_DIR;
}

char *undo_default_path(const char *target)
{
	const char *base = strrchr(target, '/');

	base = base ? base + 1 : target;
	return xasprintf("%s/gamepart-convert-%s.e2undo", undo_default_dir(),
			 base);
}

char *undo_interrupted(const char *target)
{
	char *undo = undo_default_path(target);

	if (undo_file_state(undo) == UNDO_UNFINISHED)
		return undo;
	free(undo);
	return NULL;
}

/*
 * The undo manager writes through a backing manager: unix_io without its
 * write-back block cache, so that a block's undo record reaches the
 * kernel before the block does even if the program is killed between
 * the two writes.  libext2fs's undo set-up is process-wide
 * (set_undo_io_backing_manager), and so is this.
 */
static struct struct_io_manager backing_io;

static errcode_t backing_open(const char *name, int flags, io_channel *channel)
{
	errcode_t err = unix_io_manager->open(name, flags, channel);

	if (!err)
		err = io_channel_set_options(*channel, "cache=off");
	return err;
}

int undo_prepare(const char *path)
{
	errcode_t err;

	backing_io = *unix_io_manager;
	backing_io.name = "unix I/O, uncached";
	backing_io.open = backing_open;
	err = set_undo_io_backing_manager(&backing_io);
	if (!err)
		err = set_undo_io_backup_file((char *)path);
	if (err) {
		gp_warn("%s: %s", path, error_message(err));
		return -1;
	}
	return 0;
}

/*
 * Clear the finished bit of the undo file at PATH, as undo_io leaves it
 * while a run is under way, and seal the header with its checksum.
 */
static int mark_unfinished(const char *path)
{
	unsigned char hdr[UNDO_HEADER_SIZE];
	int fd = open(path, O_RDWR | O_CLOEXEC);
	__u32 crc;
	int ret = -1;

	if (fd < 0)
		return -1;
	if (pread(fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr) ||
	    memcmp(hdr, UNDO_MAGIC, 8)) {
		errno = EINVAL;
		goto out;
	}
	hdr[UNDO_STATE_OFFSET] &= (unsigned char)~UNDO_STATE_FINISHED;
	crc = ext2fs_cpu_to_le32(ext2fs_crc32c_le(~0U, hdr, UNDO_CRC_OFFSET));
	memcpy(hdr + UNDO_CRC_OFFSET, &crc, sizeof(crc));
	if (pwrite(fd, hdr, sizeof(hdr), 0) == (ssize_t)sizeof(hdr) &&
	    fsync(fd) == 0)
		ret = 0;
out:
	close(fd);
	return ret;
}

int undo_abandon(ext2_filsys fs, const char *path)
{
	/*
	 * Closing the undo manager records the superblock as it is now,
	 * which e2undo checks the filesystem against, and marks the file
	 * finished: the mark is taken back right after.
	 */
	ext2fs_free(fs);
	if (undo_file_state(path) == UNDO_EMPTY)
		return 0;
	if (mark_unfinished(path) < 0) {
		gp_warn("%s: marking it unfinished: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
