// SPDX-License-Identifier: GPL-2.0
/*
 * gamepart: provision, check and convert case-insensitive game-library
 * partitions.  main() only dispatches; each subcommand lives in its own
 * cmd-*.c file with its own usage().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <getopt.h>

#include <ext2fs/ext2fs.h>

#include "commands.h"
#include "lib/util.h"

static const struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} subcommands[] = {
	{ "create",   cmd_create,   "make a game-library filesystem on a device or image" },
	{ "status",   cmd_status,   "show encoding, flags and what should be converted" },
	{ "check",    cmd_check,    "report names that collide once case is folded" },
	{ "casefold", cmd_casefold, "make empty directories case-insensitive" },
	{ "convert",  cmd_convert,  "make a populated tree case-insensitive in place" },
	{ "import",   cmd_import,   "copy or move a library from any filesystem into one" },
	{ "fold",     cmd_fold,     "tell which names fold to one name" },
};

static void usage(FILE *out)
{
	size_t i;

	fputs("Usage: gamepart COMMAND [OPTIONS] ...\n"
	      "       gamepart --help | --version\n\n"
	      "Commands:\n", out);
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(out, "  %-9s %s\n", subcommands[i].name,
			subcommands[i].summary);
	fputs("\n'gamepart COMMAND --help' describes a command; see gamepart(8).\n",
	      out);
}

int main(int argc, char **argv)
{
	size_t i;

	atexit(close_stdout);
	/* Commands report option errors themselves (lib/options.h). */
	opterr = 0;
	/* libext2fs errors print as text (error_message) from any command. */
	initialize_ext2_error_table();
	if (argc < 2) {
		usage(stderr);
		return EXIT_TROUBLE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return EXIT_NOTHING_FOUND;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("gamepart %s\n", GAMEPART_VERSION);
		return EXIT_NOTHING_FOUND;
	}
	for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		if (!strcmp(argv[1], subcommands[i].name)) {
			gp_command = subcommands[i].name;
			return subcommands[i].run(argc - 1, argv + 1);
		}
	}
	fprintf(stderr, "gamepart: '%s' is not a command; see 'gamepart --help'\n",
		argv[1]);
	return EXIT_TROUBLE;
}
