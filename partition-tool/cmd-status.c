// SPDX-License-Identifier: GPL-2.0
/*
 * gamepart status: the encoding and flags of a game-library filesystem,
 * whether the running kernel can mount it, which library directories are
 * casefolded, and what to run for those that are not.
 *
 * Offline (an unmounted device or image) everything comes from libext2fs.
 * Online (a directory) the flags come from FS_IOC_GETFLAGS.  The encoding
 * and its flags come from /sys/fs/ext4/DEV/encoding{,_flags} on kernels
 * with the gamepart series; otherwise (stock Linux 6.1 reports them
 * nowhere) they are read from the filesystem's block device when we may
 * read it, and are "unknown" if not.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#include "commands.h"
#include "convert/convert.h"
#include "lib/layout.h"
#include "lib/options.h"
#include "lib/prefixes.h"
#include "lib/target.h"
#include "lib/undo.h"
#include "lib/util.h"

#define KERNEL_CASEFOLD		"/sys/fs/ext4/features/casefold"

static void usage(FILE *out)
{
	fputs("Usage: gamepart status TARGET|PATH\n"
	      "\n"
	      "Show the filename encoding of a game-library filesystem, whether this\n"
	      "kernel supports casefold, which library directories and Proton prefixes\n"
	      "are casefolded (+F), and what to run for those that are not.  TARGET is\n"
	      "an unmounted device or image file (read offline); PATH is a library\n"
	      "directory on a mounted filesystem.\n"
	      "\n"
	      "Options:\n"
	      COMMON_OPTIONS_HELP
	      "\n"
	      "See gamepart(8).\n", out);
}

static void print_fs(const struct target *t, const struct fs_info *fi,
		     bool kernel_ok)
{
	const char *name;
	char flags[96];

	printf("target:     %s (%s)\n", t->arg,
	       t->kind == TARGET_ONLINE ? "mounted, online" : "unmounted, offline");
	if (!fi->known) {
		printf("casefold:   unknown (%s)\n", fi->why);
		printf("encoding:   unknown\n");
		printf("strict:     unknown\n");
	} else if (!fi->casefold_feature) {
		printf("casefold:   feature off\n");
		printf("encoding:   none\n");
		printf("strict:     no\n");
	} else {
		name = encoding_name(fi->encoding);
		printf("casefold:   feature on\n");
		if (name)
			printf("encoding:   %s\n", name);
		else if (fi->encoding < 0)
			printf("encoding:   unknown to gamepart (see %s/encoding)\n",
			       fi->source);
		else
			printf("encoding:   unknown (s_encoding %d)\n", fi->encoding);
		printf("strict:     %s\n",
		       fi->encoding_flags & EXT4_ENC_STRICT_MODE_FL ?
		       "yes (names that are not valid UTF-8 are refused)" : "no");
		encoding_flags_text(fi->encoding_flags, flags, sizeof(flags));
		printf("flags:      %s\n", flags);
	}
	if (fi->known && t->kind == TARGET_ONLINE)
		printf("read from:  %s\n", fi->source);
	printf("kernel:     %s\n", kernel_ok ?
	       "this kernel supports casefold (" KERNEL_CASEFOLD ")" :
	       "this kernel cannot mount a casefold filesystem (no " KERNEL_CASEFOLD ")");
}

/*
 * The Proton prefixes that are not +F, or whose conversion was
 * interrupted; how many, in *PENDING: those that convert --prefixes
 * would work on.
 */
static size_t print_prefixes(const struct target *t, const struct prefixes *px,
			     size_t *pending)
{
	size_t i, plain = 0, width = 0;

	if (!px->count)
		return 0;
	for (i = 0; i < px->count; i++) {
		plain += px->v[i].state == DIR_PLAIN;
		if (strlen(px->v[i].path) > width)
			width = strlen(px->v[i].path);
	}
	printf("proton prefixes (%s/*/%s): %zu, %zu casefolded\n",
	       PREFIXES_DIR, PREFIX_DRIVE_C, px->count, px->count - plain);
	for (i = 0; i < px->count; i++) {
		const struct prefix *p = &px->v[i];

		if (t->kind == TARGET_ONLINE &&
		    convert_interrupted_at(t->dirfd, p->path)) {
			printf("  %-*s  a conversion was interrupted\n",
			       (int)width, p->path);
			*pending += 1;
		} else if (p->state == DIR_PLAIN) {
			printf("  %-*s  not casefolded (%s)\n", (int)width,
			       p->path, p->empty ? "empty" : "holds files");
			*pending += 1;
		}
	}
	printf("\n");
	return plain;
}

/*
 * What to run for the PENDING prefixes (PLAIN of them not +F, the others
 * interrupted): one command.
 */
static void advise_prefixes(const struct target *t, const struct prefixes *px,
			    size_t plain, size_t pending, const char *shown)
{
	if (!pending)
		return;
	if (pending == plain)
		printf("%zu Proton prefix%s not casefolded: ", plain,
		       plain == 1 ? " is" : "es are");
	else
		printf("%zu Proton prefix%s not casefolded or interrupted: ",
		       pending, pending == 1 ? " is" : "es are");
	if (t->kind == TARGET_ONLINE) {
		printf("gamepart convert --prefixes %s\n", shown);
		return;
	}
	printf("gamepart convert --offline %s", t->arg);
	for (size_t i = 0; i < px->count; i++)
		if (px->v[i].state == DIR_PLAIN)
			printf(" %s", px->v[i].path);
	printf("\n");
}

static int status(const struct target *t, const struct fs_info *fi)
{
	struct prefixes px;
	size_t plain, pending = 0;
	struct layout l;
	enum dir_state *states;
	bool *empties;
	size_t i, width = 0;
	int rc = EXIT_NOTHING_FOUND;
	const char *prefix = t->kind == TARGET_ONLINE && strcmp(t->arg, ".") ? t->arg : NULL;
	bool advised = false;

	layout_default(&l);
	states = xcalloc(l.count, sizeof(*states));
	empties = xcalloc(l.count, sizeof(*empties));
	for (i = 0; i < l.count; i++) {
		if (strlen(l.dirs[i].path) > width)
			width = strlen(l.dirs[i].path);
		states[i] = target_dir_state(t, l.dirs[i].path, &empties[i]);
		if (states[i] == DIR_ERROR)
			rc = EXIT_TROUBLE;
	}
	printf("\nlibrary directories:\n");
	for (i = 0; i < l.count; i++) {
		static const char *const what[] = {
			[DIR_MISSING] = "missing",
			[DIR_NOT_DIR] = "not a directory",
			[DIR_PLAIN] = "not casefolded",
			[DIR_CASEFOLD] = "casefolded (+F)",
			[DIR_ERROR] = "unreadable",
		};
		printf("  %-*s  %s\n", (int)width, l.dirs[i].path, what[states[i]]);
	}
	printf("\n");
	if (prefixes_find(t, &px) < 0)
		rc = EXIT_TROUBLE;
	plain = print_prefixes(t, &px, &pending);
	if (t->kind == TARGET_OFFLINE) {
		char *undo = undo_interrupted(t->arg);

		if (undo) {
			printf("an offline conversion was interrupted (undo file %s): gamepart convert --offline --resume %s\n",
			       undo, t->arg);
			advised = true;
		}
		free(undo);
	}
	if (!advised && fi->known && !fi->casefold_feature) {
		printf("the filesystem has no casefold feature: unmount it and run tune2fs -O casefold on its device\n");
		advised = true;
	}
	for (i = 0; i < l.count && !advised; i++) {
		const char *p = l.dirs[i].path;
		char *shown = prefix ? xasprintf("%s/%s", prefix, p) : xstrdup(p);

		if (t->kind == TARGET_ONLINE && convert_interrupted_at(t->dirfd, p)) {
			printf("%s: a conversion was interrupted: gamepart convert --resume %s\n",
			       p, shown);
		} else if (states[i] == DIR_PLAIN && l.dirs[i].casefold) {
			if (t->kind == TARGET_OFFLINE)
				printf("%s is not casefolded: gamepart convert --offline %s %s\n",
				       p, t->arg, p);
			else if (empties[i])
				printf("%s is not casefolded: gamepart casefold %s\n",
				       p, shown);
			else
				printf("%s is not casefolded: gamepart convert %s\n",
				       p, shown);
		} else if (states[i] == DIR_MISSING) {
			const char *slash = strrchr(p, '/');
			size_t j;
			bool parent_missing = false;

			for (j = 0; slash && j < i; j++)
				if (strlen(l.dirs[j].path) == (size_t)(slash - p) &&
				    !strncmp(l.dirs[j].path, p, (size_t)(slash - p)))
					parent_missing = states[j] == DIR_MISSING;
			if (!parent_missing)
				printf("%s is missing: create it in a casefolded parent, or mkdir it and run gamepart casefold on it\n",
				       p);
		} else if (states[i] == DIR_NOT_DIR) {
			printf("%s is not a directory: move it away and create the directory\n",
			       p);
		}
		free(shown);
	}
	advise_prefixes(t, &px, plain, pending, prefix ? prefix : ".");
	prefixes_free(&px);
	free(states);
	free(empties);
	layout_free(&l);
	return rc;
}

int cmd_status(int argc, char **argv)
{
	static const struct option longopts[] = { COMMON_LONGOPTS };
	const struct fs_info *fi;
	struct target t;
	bool kernel_ok;
	int c, rc;

	while ((c = getopt_long(argc, argv, ":hV", longopts, NULL)) != -1)
		return common_option(c, argv, usage);
	if (optind != argc - 1)
		return usage_error(optind < argc ? "one TARGET|PATH expected" :
				   "no TARGET|PATH given");
	/* Online, the target layer refuses a directory not on ext4. */
	if (target_open(&t, argv[optind], NULL, TARGET_READ))
		return EXIT_TROUBLE;
	fi = &t.info;
	kernel_ok = access(KERNEL_CASEFOLD, F_OK) == 0;
	print_fs(&t, fi, kernel_ok);
	rc = status(&t, fi);
	target_close(&t);
	return rc;
}
