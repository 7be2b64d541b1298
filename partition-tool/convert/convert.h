/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The conversion engine: make every directory of a tree casefolded in
 * place, online (a mounted tree, online.c) or offline (an unmounted
 * device or image, offline.c).  cmd-convert.c parses the options into
 * struct convert_options and calls it; check and status ask it whether
 * a conversion was interrupted.
 */
#ifndef GAMEPART_CONVERT_H
#define GAMEPART_CONVERT_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/collision.h"
#include "lib/work-dirs.h"

/* What the command line asked for; read-only to the engine. */
struct convert_options {
	const char *arg;		/* PATH, or TARGET with offline */
	enum collision_policy policy;
	bool policy_given;		/* else a resumed run keeps its own */
	bool dry_run, json, resume;
	bool replace, replace_given;	/* --directories=replace */
	bool offline;
	bool prefixes;			/* PATH is a library: its prefixes */
	bool force;			/* even while processes hold files */
	/*
	 * Online, if set: PATH is SUBDIR of the directory LIBRARY, opened
	 * beneath it through no symbolic link (ARG names it in messages).
	 */
	const char *library, *subdir;
	const char *undo_file;		/* offline; NULL: the default one */
	char *const *roots;		/* offline: paths inside the filesystem */
	size_t nroots;
};

/* Convert as O says; the exit status (EXIT_* of lib/util.h). */
int convert_online(const struct convert_options *o);
int convert_offline(const struct convert_options *o);
/* Convert the Proton prefixes of the library O->arg that are not +F. */
int convert_prefixes(const struct convert_options *o);

/* Whether a conversion of the directory DIRFD was interrupted (its work
   directory is still there). */
bool convert_interrupted(int dirfd);
/* The same of the directory PATH beneath DIRFD (not a symbolic link). */
bool convert_interrupted_at(int dirfd, const char *path);

#endif
