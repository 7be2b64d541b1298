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

/* "E2UNDO02", then the header fields up to the state (undo_io.c). */
#define UNDO_MAGIC		"E2UNDO02"
#define UNDO_STATE_OFFSET	44
#define UNDO_STATE_FINISHED	0x1

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

char *undo_default_path(const char *target)
{
	const char *dir = getenv("E2FSPROGS_UNDO_DIR");
	const char *base = strrchr(target, '/');

	base = base ? base + 1 : target;
	return xasprintf("%s/gamepart-convert-%s.e2undo",
			 dir && *dir ? dir : ".", base);
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
 * the two writes.  Sealed, it refuses every write: the undo manager's
 * close then cannot mark the file finished.  libext2fs's undo set-up is
 * process-wide (set_undo_io_backing_manager), and so is this.
 */
static struct struct_io_manager backing_io;
static bool sealed;

static errcode_t backing_open(const char *name, int flags, io_channel *channel)
{
	errcode_t err = unix_io_manager->open(name, flags, channel);

	if (!err)
		err = io_channel_set_options(*channel, "cache=off");
	return err;
}

static errcode_t backing_write_blk64(io_channel channel,
				     unsigned long long block, int count,
				     const void *data)
{
	if (sealed)
		return EXT2_ET_RO_FILSYS;
	return unix_io_manager->write_blk64(channel, block, count, data);
}

static errcode_t backing_write_blk(io_channel channel, unsigned long block,
				   int count, const void *data)
{
	if (sealed)
		return EXT2_ET_RO_FILSYS;
	return unix_io_manager->write_blk(channel, block, count, data);
}

static errcode_t backing_write_byte(io_channel channel, unsigned long offset,
				    int size, const void *data)
{
	if (sealed)
		return EXT2_ET_RO_FILSYS;
	return unix_io_manager->write_byte(channel, offset, size, data);
}

int undo_prepare(const char *path)
{
	errcode_t err;

	backing_io = *unix_io_manager;
	backing_io.name = "unix I/O, uncached, sealable";
	backing_io.open = backing_open;
	backing_io.write_blk = backing_write_blk;
	backing_io.write_blk64 = backing_write_blk64;
	backing_io.write_byte = backing_write_byte;
	sealed = false;
	err = set_undo_io_backing_manager(&backing_io);
	if (!err)
		err = set_undo_io_backup_file((char *)path);
	if (err) {
		gp_warn("%s: %s", path, error_message(err));
		return -1;
	}
	return 0;
}

void undo_abandon(ext2_filsys fs)
{
	sealed = true;
	ext2fs_free(fs);
	sealed = false;
}
