// SPDX-License-Identifier: GPL-2.0
/*
 * gamepart fold: which names the filesystem treats as one name in a
 * casefolded directory, answered by the same code that check and convert
 * use, so that test generators and scripts never keep a folding rule of
 * their own.
 *
 * libext2fs keeps the folded string private, so a name is answered with
 * the first name of the run that folds like it: two names are one name
 * exactly when their answers are equal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <ext2fs/ext2_fs.h>

#include "commands.h"
#include "lib/fold.h"
#include "lib/options.h"
#include "lib/target.h"
#include "lib/util.h"

static void usage(FILE *out)
{
	fputs("Usage: gamepart fold [-z] [--encoding NAME] [NAME...]\n"
	      "\n"
	      "For each NAME (none: each line of standard input), print the first\n"
	      "name of this run that a casefolded directory treats as the same name\n"
	      "(as the kernel and e2fsck fold), or the name itself.  Two names\n"
	      "collide exactly when their lines are equal.\n"
	      "\n"
	      "Options:\n"
	      "  -z, --null     records end with NUL, not newline, in and out\n"
	      "  -e, --encoding NAME\n"
	      "                 " ENCODING_NAMES "\n"
	      "                 (default utf8-12.1)\n"
	      COMMON_OPTIONS_HELP,
	      out);
}

static void answer(struct fold_classes *classes, const char *name, size_t len,
		   char end)
{
	size_t leader_len;
	const char *leader = fold_classes_add(classes, name, len, &leader_len);

	fwrite(leader, 1, leader_len, stdout);
	putchar(end);
}

int cmd_fold(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "null", no_argument, NULL, 'z' },
		{ "encoding", required_argument, NULL, 'e' },
		COMMON_LONGOPTS,
	};
	struct fold_classes *classes;
	struct folder *folder;
	char end = '\n', *line = NULL;
	int opt, encoding = EXT4_ENC_UTF8_12_1;
	size_t cap = 0;

	while ((opt = getopt_long(argc, argv, ":ze:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'z':
			end = '\0';
			break;
		case 'e':
			encoding = encoding_option(optarg);
			if (encoding < 0)
				return EXIT_TROUBLE;
			break;
		default:
			return common_option(opt, argv, usage);
		}
	}
	folder = encoding_folder(encoding, NULL);
	if (!folder)
		return EXIT_TROUBLE;
	classes = fold_classes_new(folder);
	if (optind < argc) {
		for (int i = optind; i < argc; i++)
			answer(classes, argv[i], strlen(argv[i]), end);
	} else {
		ssize_t len;

		while ((len = getdelim(&line, &cap, end, stdin)) >= 0) {
			if (len > 0 && line[len - 1] == end)
				len--;
			answer(classes, line, (size_t)len, end);
			/* One answer per question, for a program that asks. */
			fflush(stdout);
		}
		free(line);
		if (ferror(stdin))
			gp_die("standard input: read error");
	}
	fold_classes_free(classes);
	folder_free(folder);
	return EXIT_NOTHING_FOUND;
}
