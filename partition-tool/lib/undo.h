/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Undo files, as e2undo replays them: every block an offline change
 * overwrites is first saved through libext2fs's undo I/O manager.  All
 * that gamepart knows of the undo file format is in undo.c.
 */
#ifndef GAMEPART_UNDO_H
#define GAMEPART_UNDO_H

#include <ext2fs/ext2fs.h>

enum undo_state {
	UNDO_NONE,		/* no such file */
	UNDO_EMPTY,		/* made, but nothing was saved in it: the run
				   stopped before its first write */
	UNDO_UNFINISHED,	/* the run that wrote it did not complete */
	UNDO_FINISHED,
};

/* What the undo file at PATH says of its run, or -1 with errno (EINVAL:
   it is not an undo file). */
int undo_file_state(const char *path);

/* Where e2fsprogs' tools keep their undo files unless told otherwise. */
#define UNDO_DEFAULT_DIR	"/var/lib/e2fsprogs"

/* $E2FSPROGS_UNDO_DIR, else UNDO_DEFAULT_DIR. */
const char *undo_default_dir(void);

/* The undo file of an offline conversion of TARGET unless one is named:
   gamepart-convert-NAME.e2undo in undo_default_dir(). */
char *undo_default_path(const char *target);

/* That undo file, if an offline conversion of TARGET left it unfinished;
   else NULL. */
char *undo_interrupted(const char *target);

/*
 * Make the next target_open(TARGET_WRITE_UNDO) save every block to PATH
 * before overwriting it; -1 after a message.
 */
int undo_prepare(const char *path);

/*
 * Close FS, opened with TARGET_WRITE_UNDO, without writing its metadata,
 * and leave its undo file PATH marked unfinished, as a crash would: the
 * run did not complete, and a later one must roll it back first.  -1
 * after a message if the file could not be marked.
 */
int undo_abandon(ext2_filsys fs, const char *path);

#endif
