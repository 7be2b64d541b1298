/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The directories the engines keep their journals in while they run, by
 * name, so that a walk, a check or another engine knows them and leaves
 * them alone.
 */
#ifndef GAMEPART_WORK_DIRS_H
#define GAMEPART_WORK_DIRS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The work directory of a conversion of the tree with inode INO is
 * PARENT/.gamepart-convert.INO; it holds the journal and the temporary
 * directories, and exists only while a conversion is under way.
 */
#define CONVERT_WORK_PREFIX	".gamepart-convert."

/* Whether NAME is the name of a conversion's work directory. */
bool convert_is_work_dir(const char *name, size_t len);

/* An import's, in the library it imports into, while it is under way. */
#define IMPORT_WORK_DIR		".gamepart-import"

#endif
