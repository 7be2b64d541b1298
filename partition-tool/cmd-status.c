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
#include "lib/advice.h"
#include "lib/library.h"
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
 * The game folders or Proton prefixes (WHAT, found below PATTERN) that are
 * not +F, or whose conversion was interrupted, each added to TD unless
 * interrupted; how many were interrupted goes to *INTERRUPTED.  LIST
 * false prints the count alone.
 */
static void print_below(const struct target *t, const struct below_dirs *b,
			const char *what, const char *pattern, bool list,
			enum todo_kind kind, struct todo *td,
			size_t *interrupted)
{
	size_t i, plain = 0, width = 0;

	if (!b->count)
		return;
	for (i = 0; i < b->count; i++) {
		plain += b->v[i].state == DIR_PLAIN;
		if (strlen(b->v[i].path) > width)
			width = strlen(b->v[i].path);
	}
	printf("%s (%s): %zu, %zu casefolded\n", what, pattern, b->count,
	       b->count - plain);
	for (i = 0; i < b->count; i++) {
		const struct below_dir *p = &b->v[i];

		if (t->kind == TARGET_ONLINE &&
		    convert_interrupted_at(t->dirfd, p->path)) {
			printf("  %-*s  a conversion was interrupted\n",
			       (int)width, p->path);
			*interrupted += 1;
			continue;
		}
		if (p->state != DIR_PLAIN)
			continue;
		todo_add(td, p->path, p->empty, kind);
		if (list)
			printf("  %-*s  not casefolded (%s)\n", (int)width,
			       p->path, p->empty ? "empty" : "holds files");
	}
	printf("\n");
}

/* The layout's directories: listed, and those not +F added to TD. */
static int print_layout(const struct target *t, const struct layout *l,
			enum dir_state *states, struct todo *td)
{
	static const char *const what[] = {
		[DIR_MISSING] = "missing",
		[DIR_NOT_DIR] = "not a directory",
		[DIR_PLAIN] = "not casefolded",
		[DIR_CASEFOLD] = "casefolded (+F)",
		[DIR_ERROR] = "unreadable",
	};
	size_t i, width = 0;
	int rc = EXIT_NOTHING_FOUND;

	for (i = 0; i < l->count; i++) {
		bool empty = false;

		if (strlen(l->dirs[i].path) > width)
			width = strlen(l->dirs[i].path);
		states[i] = target_dir_state(t, l->dirs[i].path, &empty);
		if (states[i] == DIR_ERROR)
			rc = EXIT_TROUBLE;
		if (states[i] == DIR_PLAIN && l->dirs[i].casefold)
			todo_add(td, l->dirs[i].path, empty, TODO_LAYOUT);
	}
	printf("\nlibrary directories:\n");
	for (i = 0; i < l->count; i++)
		printf("  %-*s  %s\n", (int)width, l->dirs[i].path,
		       what[states[i]]);
	printf("\n");
	return rc;
}

/* Layout directories that are missing or not directories: what to do. */
static void advise_missing(const struct layout *l, const enum dir_state *states)
{
	for (size_t i = 0; i < l->count; i++) {
		const char *p = l->dirs[i].path;
		const char *slash = strrchr(p, '/');
		bool parent_missing = false;

		for (size_t j = 0; slash && j < i; j++)
			if (strlen(l->dirs[j].path) == (size_t)(slash - p) &&
			    !strncmp(l->dirs[j].path, p, (size_t)(slash - p)))
				parent_missing = states[j] == DIR_MISSING;
		if (states[i] == DIR_MISSING && !parent_missing)
			printf("%s is missing: create it in a casefolded parent, or mkdir it and run gamepart casefold on it\n",
			       p);
		else if (states[i] == DIR_NOT_DIR)
			printf("%s is not a directory: move it away and create the directory\n",
			       p);
	}
}

/*
 * An interrupted conversion comes first: its journal says what it was
 * doing.  True when one was found and the way to finish it printed.
 */
static bool advise_interrupted(const struct target *t, const struct layout *l,
			       const struct below_dirs *games,
			       size_t interrupted_prefixes, const char *shown)
{
	if (t->kind == TARGET_OFFLINE) {
		char *undo = undo_interrupted(t->arg);

		if (undo)
			printf("an offline conversion was interrupted (undo file %s)\nnext: gamepart convert --offline --resume %s\n",
			       undo, t->arg);
		free(undo);
		return undo != NULL;
	}
	for (size_t i = 0; i < l->count + games->count; i++) {
		const char *p = i < l->count ? l->dirs[i].path :
				games->v[i - l->count].path;

		if (!convert_interrupted_at(t->dirfd, p))
			continue;
		printf("%s: a conversion was interrupted\nnext: gamepart convert --resume ", p);
		if (strcmp(shown, "."))
			printf("%s/", shown);
		printf("%s\n", p);
		return true;
	}
	if (interrupted_prefixes) {
		printf("%zu Proton prefix conversion%s interrupted\nnext: gamepart convert --prefixes %s\n",
		       interrupted_prefixes,
		       interrupted_prefixes == 1 ? " was" : "s were", shown);
		return true;
	}
	return false;
}

static int status(const struct target *t, const struct fs_info *fi)
{
	struct below_dirs games, px;
	struct todo td = { 0 };
	struct layout l;
	enum dir_state *states;
	size_t interrupted_games = 0, interrupted_prefixes = 0;
	char *shown = xstrdup(t->kind == TARGET_ONLINE ? t->arg : ".");
	size_t n = strlen(shown);
	int rc;

	while (n > 1 && shown[n - 1] == '/')
		shown[--n] = '\0';
	layout_default(&l);
	states = xcalloc(l.count, sizeof(*states));
	rc = print_layout(t, &l, states, &td);
	if (games_find(t, &games) < 0)
		rc = EXIT_TROUBLE;
	/* In a common/ that is not +F, every game is: only count them. */
	print_below(t, &games, "game folders", GAMES_DIR "/*",
		    target_dir_state(t, GAMES_DIR, &(bool){ false }) == DIR_CASEFOLD,
		    TODO_GAME, &td, &interrupted_games);
	if (prefixes_find(t, &px) < 0)
		rc = EXIT_TROUBLE;
	print_below(t, &px, "proton prefixes", PREFIXES_DIR "/*/" PREFIX_DRIVE_C,
		    true, TODO_PREFIX, &td, &interrupted_prefixes);
	if (!advise_interrupted(t, &l, &games, interrupted_prefixes, shown) &&
	    todo_advise(stdout, t, fi, shown, &td) < 0)
		rc = EXIT_TROUBLE;
	advise_missing(&l, states);
	todo_free(&td);
	below_dirs_free(&games);
	below_dirs_free(&px);
	free(states);
	free(shown);
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
