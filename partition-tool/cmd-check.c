// SPDX-License-Identifier: GPL-2.0
/*
 * gamepart check: which names of a tree are one name once folded as the
 * filesystem folds them in a casefolded (+F) directory, which are not
 * valid UTF-8, which contain ignorable code points.  Directories that are
 * not +F are judged as if they were (what converting them would meet).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ext2fs/ext2_fs.h>

#include "gamepart.h"
#include "convert.h"
#include "fold.h"
#include "report.h"
#include "target.h"
#include "walk.h"

static void usage(FILE *out)
{
	fputs("Usage: gamepart check [--json] TARGET|PATH...\n"
	      "\n"
	      "Report the names that collide once folded as the filesystem folds\n"
	      "them in a casefolded directory (for a directory that is not, the\n"
	      "names that would), names that are not valid UTF-8, and names that\n"
	      "contain ignorable code points.  A directory is checked online,\n"
	      "on its mounted filesystem; an unmounted block device or image\n"
	      "file offline.\n"
	      "\n"
	      "Options:\n"
	      "  -j, --json     print the report as JSON\n"
	      "  -h, --help     show this help and exit\n"
	      "  -V, --version  show the version and exit\n"
	      "\n"
	      "Exit status: 0 nothing collides, 1 collisions found, 2 errors.\n",
	      out);
}

struct check {
	struct folder *folder;
	struct report *report;
	struct target target;	/* the one being checked */
	bool prefix;		/* several targets: name the target in dirs */
	/* Progress on a terminal. */
	bool progress;
	time_t last;
	unsigned long long dirs, names;
	int opened;		/* targets opened, to print a report at all */
};

static void on_group(void *ctx, const struct walk_entry *const *group,
		     size_t n)
{
	struct check *c = ctx;

	report_collision(c->report, group, n);
}

static void show_progress(struct check *c, bool done)
{
	time_t now;

	if (!c->progress)
		return;
	if (done) {
		fputs("\r\033[K", stderr);
		return;
	}
	now = time(NULL);
	if (now == c->last)
		return;
	c->last = now;
	fprintf(stderr, "\r\033[Kgamepart: check: %s: %llu directories, %llu names",
		c->target.arg, c->dirs, c->names);
}

static int visit(void *ctx, const struct walk_dir *d)
{
	struct check *c = ctx;
	uint32_t cp;
	size_t i;

	if (c->prefix) {
		char *dir;

		if (c->target.kind == TARGET_ONLINE)
			dir = strcmp(d->path, ".") ?
			      xasprintf("%s/%s", c->target.arg, d->path) :
			      xstrdup(c->target.arg);
		else
			dir = xasprintf("%s:%s", c->target.arg, d->path);
		report_dir(c->report, dir, d->casefolded);
		free(dir);
	} else {
		report_dir(c->report, d->path, d->casefolded);
	}
	report_scanned(c->report, d->count);
	for (i = 0; i < d->count; i++) {
		const struct walk_entry *e = &d->entries[i];

		if (e->is_dir && e->len > strlen(CONVERT_WORK_PREFIX) &&
		    !memcmp(e->name, CONVERT_WORK_PREFIX,
			    strlen(CONVERT_WORK_PREFIX)))
			gp_warn("%s/%.*s: note: the work directory of an interrupted gamepart convert",
				d->path, (int)e->len, e->name);

		switch (fold_examine(c->folder, e->name, e->len, &cp)) {
		case FOLD_INVALID:
			report_invalid(c->report, e->name, e->len,
				       folder_strict(c->folder));
			break;
		case FOLD_IGNORABLE:
			report_ignorable(c->report, e->name, e->len, cp);
			break;
		case FOLD_PLAIN:
			break;
		}
	}
	fold_groups(c->folder, d->entries, d->count, on_group, c);
	c->dirs++;
	c->names += d->count;
	show_progress(c, false);
	return 0;
}

/* The folding rules for T, saying so when they are assumed. */
static struct folder *target_folder(const struct target *t)
{
	const struct walk_fs *fs = &t->fsinfo;

	if (fs->known && fs->casefold_feature) {
		struct folder *f = folder_new(fs->encoding, fs->encoding_flags);
		if (!f)
			gp_warn("%s: unknown filename encoding %d", t->arg,
				fs->encoding);
		return f;
	}
	if (!fs->known)
		gp_warn("%s: note: cannot read the filesystem's superblock; assuming utf8-12.1, not strict",
			t->arg);
	else
		gp_warn("%s: note: the filesystem has no casefold feature; folding as utf8-12.1, not strict, would",
			t->arg);
	return folder_new(EXT4_ENC_UTF8_12_1, 0);
}

/* Check one target into C->report; -1 on an error. */
static int check_one(struct check *c, const char *arg)
{
	struct target *t = &c->target;
	struct walk_result res;

	if (target_open(t, arg, NULL, false) < 0)
		return -1;
	c->opened++;
	if (t->kind == TARGET_ONLINE && convert_interrupted(t->dirfd))
		gp_warn("%s: note: a conversion of it was interrupted; finish it with: gamepart convert --resume %s",
			arg, arg);
	if (t->kind == TARGET_OFFLINE) {
		char *undo = offline_interrupted(arg);

		if (undo)
			gp_warn("%s: note: an offline conversion of it was interrupted (undo file %s); finish it with: gamepart convert --offline --resume %s",
				arg, undo, arg);
		free(undo);
	}
	c->folder = target_folder(t);
	if (!c->folder) {
		target_close(t);
		return -1;
	}
	walk_target(t, visit, c, &res);
	show_progress(c, true);
	folder_free(c->folder);
	c->folder = NULL;
	target_close(t);
	return res.errors ? -1 : 0;
}

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct check c = { 0 };
	bool json = false, failed = false;
	int opt, i, ret;

	while ((opt = getopt_long(argc, argv, "jhV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_NOTHING_FOUND;
		case 'V':
			printf("gamepart %s\n", GAMEPART_VERSION);
			return EXIT_NOTHING_FOUND;
		default:
			usage(stderr);
			return EXIT_TROUBLE;
		}
	}
	if (optind == argc) {
		gp_warn("no TARGET or PATH given");
		usage(stderr);
		return EXIT_TROUBLE;
	}

	c.report = report_new();
	c.prefix = argc - optind > 1;
	c.progress = isatty(STDERR_FILENO);
	for (i = optind; i < argc; i++)
		if (check_one(&c, argv[i]) < 0)
			failed = true;

	if (!c.opened)
		ret = 0;
	else if (json)
		ret = report_print_json(c.report, stdout);
	else
		ret = report_print_human(c.report, stdout);
	if (ret < 0)
		failed = true;
	ret = failed ? EXIT_TROUBLE :
	      report_collisions(c.report) ? EXIT_FINDINGS : EXIT_NOTHING_FOUND;
	report_free(c.report);
	return ret;
}
