// SPDX-License-Identifier: GPL-2.0
/*
 * convert --prefixes: every Proton prefix of a mounted Steam library that
 * is not casefolded (lib/library.h) converted in turn, each as
 * "gamepart convert PREFIX" would, and an interrupted one resumed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "convert.h"
#include "lib/library.h"
#include "lib/target.h"
#include "lib/util.h"

/* The worse of two exit statuses. */
static int worse(int a, int b)
{
	return a > b ? a : b;
}

int convert_prefixes(const struct convert_options *o)
{
	struct target t;
	struct below_dirs px;
	size_t done = 0;
	int ret = EXIT_NOTHING_FOUND;

	if (target_open(&t, o->arg, NULL, TARGET_READ) < 0)
		return EXIT_TROUBLE;
	if (prefixes_find(&t, &px) < 0) {
		target_close(&t);
		return EXIT_TROUBLE;
	}
	for (size_t i = 0; i < px.count; i++) {
		const struct below_dir *p = &px.v[i];
		bool interrupted = convert_interrupted_at(t.dirfd, p->path);
		struct convert_options one = *o;
		char *path;

		if (p->state == DIR_CASEFOLD && !interrupted)
			continue;
		path = xasprintf("%s/%s", o->arg, p->path);
		printf("%s%s:\n", done ? "\n" : "", p->path);
		fflush(stdout);
		if (interrupted && o->dry_run) {
			printf("a conversion was interrupted: gamepart convert --resume %s\n",
			       path);
		} else {
			one.arg = path;
			one.library = o->arg;
			one.subdir = p->path;
			one.resume = interrupted;
			ret = worse(ret, convert_online(&one));
			fflush(stdout);
		}
		free(path);
		done++;
	}
	if (!px.count)
		printf("%s: no Proton prefix (%s/*/%s)\n", o->arg,
		       PREFIXES_DIR, PREFIX_DRIVE_C);
	else if (!done)
		printf("%s: every Proton prefix is casefolded (%zu)\n", o->arg,
		       px.count);
	below_dirs_free(&px);
	target_close(&t);
	return ret;
}
