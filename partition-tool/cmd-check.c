// SPDX-License-Identifier: GPL-2.0
/*
 * gamepart check: which names of a tree are one name once folded as the
 * filesystem folds them in a casefolded (+F) directory, which are not
 * valid UTF-8, which contain ignorable code points.  Directories that are
 * not +F are judged as if they were (what converting them would meet).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "convert/convert.h"
#include "lib/examine.h"
#include "lib/options.h"
#include "lib/progress.h"
#include "lib/report.h"
#include "lib/target.h"
#include "lib/undo.h"
#include "lib/util.h"
#include "lib/walk.h"

static void usage(FILE *out)
{
	fputs("Usage: gamepart check [--json] [--encoding NAME] TARGET|PATH...\n"
	      "\n"
	      "Report the names that collide once folded as the filesystem folds\n"
	      "them in a casefolded directory (for a directory that is not, the\n"
	      "names that would), names that are not valid UTF-8, and names that\n"
	      "contain ignorable code points.  A directory is checked online,\n"
	      "on its mounted filesystem, which may be any (a tree on btrfs,\n"
	      "NTFS or overlayfs is judged as a gamepart card would fold it);\n"
	      "an unmounted ext4 block device or image file offline.\n"
	      "\n"
	      "Options:\n"
	      "  -j, --json     print the report as JSON\n"
	      "  -e, --encoding NAME\n"
	      "                 fold as a card made with that encoding would, whatever\n"
	      "                 the filesystem's: " ENCODING_NAMES "\n"
	      COMMON_OPTIONS_HELP
	      "\n"
	      "Exit status: 0 nothing collides, 1 collisions found, 2 errors.\n",
	      out);
}

struct check {
	int encoding;		/* --encoding, or -1: the filesystem's */
	struct folder *chosen;	/* --encoding's rules, for every target */
	struct folder *folder;	/* the rules of the target being checked */
	struct report *report;
	struct target target;	/* the one being checked */
	bool prefix;		/* several targets: name the target in dirs */
	unsigned long long dirs, names;	/* for the progress line */
	int opened;		/* targets opened, to print a report at all */
};

static int visit(void *ctx, const struct walk_dir *d)
{
	struct check *c = ctx;
	struct examined counts = { 0 };
	char *shown;
	size_t i;

	if (!c->prefix)
		shown = xstrdup(d->path);
	else if (c->target.kind == TARGET_OFFLINE)
		shown = xasprintf("%s:%s", c->target.arg, d->path);
	else if (strcmp(d->path, "."))
		shown = xasprintf("%s/%s", c->target.arg, d->path);
	else
		shown = xstrdup(c->target.arg);
	for (i = 0; i < d->count; i++) {
		const struct dir_entry *e = &d->entries[i];

		if (e->is_dir && convert_is_work_dir(e->name, e->len))
			gp_warn("%s/%.*s: note: the work directory of an interrupted gamepart convert",
				d->path, (int)e->len, e->name);
		if (e->is_dir && e->len == strlen(IMPORT_WORK_DIR) &&
		    !memcmp(e->name, IMPORT_WORK_DIR, e->len))
			gp_warn("%s/%.*s: note: the journal of an interrupted gamepart import; finish it with: gamepart import --resume %s/%s",
				d->path, (int)e->len, e->name, c->target.arg,
				d->path);
	}
	examine_dir(c->folder, c->report, shown, d, NULL, NULL, &counts);
	free(shown);
	c->dirs++;
	c->names += d->count;
	progress_show("%llu directories, %llu names", c->dirs, c->names);
	return 0;
}

/* Check one target into C->report; -1 on an error. */
static int check_one(struct check *c, const char *arg)
{
	struct target *t = &c->target;
	struct walk_result res;
	char *label;

	if (target_open(t, arg, NULL, TARGET_READ_ANY_FS) < 0)
		return -1;
	c->opened++;
	if (t->kind == TARGET_ONLINE && convert_interrupted(t->dirfd))
		gp_warn("%s: note: a conversion of it was interrupted; finish it with: gamepart convert --resume %s",
			arg, arg);
	if (t->kind == TARGET_OFFLINE) {
		char *undo = undo_interrupted(arg);

		if (undo)
			gp_warn("%s: note: an offline conversion of it was interrupted (undo file %s); finish it with: gamepart convert --offline --resume %s",
				arg, undo, arg);
		free(undo);
	}
	if (!c->chosen) {
		c->folder = target_folder(t, true);
	} else {
		c->folder = c->chosen;
		if (t->info.known && t->info.casefold_feature &&
		    t->info.encoding != c->encoding)
			gp_warn("%s: note: its filesystem folds as %s; checked as %s folds",
				arg, encoding_name(t->info.encoding) ?
				encoding_name(t->info.encoding) : "an unknown encoding",
				encoding_name(c->encoding));
	}
	if (!c->folder) {
		target_close(t);
		return -1;
	}
	label = xasprintf("gamepart: check: %s", arg);
	progress_begin(label);
	walk_target(t, visit, c, &res);
	progress_end();
	free(label);
	if (c->folder != c->chosen)
		folder_free(c->folder);
	c->folder = NULL;
	target_close(t);
	return res.errors ? -1 : 0;
}

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "encoding", required_argument, NULL, 'e' },
		COMMON_LONGOPTS,
	};
	struct check c = { .encoding = -1 };
	bool json = false, failed = false;
	int opt, i, ret;

	while ((opt = getopt_long(argc, argv, ":je:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'e':
			c.encoding = encoding_option(optarg);
			if (c.encoding < 0)
				return EXIT_TROUBLE;
			break;
		default:
			return common_option(opt, argv, usage);
		}
	}
	if (optind == argc)
		return usage_error("no TARGET or PATH given");
	/* Before any target: an encoding gamepart cannot fold stops here. */
	if (c.encoding >= 0) {
		c.chosen = encoding_folder(c.encoding, NULL);
		if (!c.chosen)
			return EXIT_TROUBLE;
	}

	c.report = report_new();
	c.prefix = argc - optind > 1;
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
	folder_free(c.chosen);
	return ret;
}
