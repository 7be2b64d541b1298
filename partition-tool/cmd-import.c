// SPDX-License-Identifier: GPL-2.0
/*
 * gamepart import: bring a library from any filesystem into a
 * case-insensitive one, copying (or moving, within one filesystem) every
 * entry into casefolded directories.  The command parses its options;
 * the engine in import/ does the work.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "import/import.h"
#include "lib/options.h"
#include "lib/util.h"

static void usage(FILE *out)
{
	fputs("Usage: gamepart import [--dry-run] [--on-collision=fail|rename|merge]\n"
	      "                       [--move [--force]] [--json] SRC LIBRARY\n"
	      "       gamepart import --resume [--force] [--json] [SRC] LIBRARY\n"
	      "\n"
	      "Bring the tree SRC, on any filesystem (ext4, btrfs, NTFS, exFAT,\n"
	      "overlay, ...), into the directory LIBRARY on a mounted ext4\n"
	      "filesystem with the casefold feature, as cp -a would merge it, but\n"
	      "into case-insensitive directories and with nothing skipped: names\n"
	      "that fold alike are decided by the collision policy, and every\n"
	      "rename and merge is reported and kept in a record file in LIBRARY.\n"
	      "Names already in LIBRARY keep their place; a directory of SRC\n"
	      "with the very name of one there goes into it.  Copies belong to\n"
	      "LIBRARY's owner.  A journal in LIBRARY lets an interrupted import\n"
	      "be finished with --resume.\n"
	      "\n"
	      "Options:\n"
	      "  -n, --dry-run          print what would be done, change nothing\n"
	      "      --on-collision=fail|rename|merge\n"
	      "                         on names that would collide: change nothing\n"
	      "                         (fail, the default), or keep the name that\n"
	      "                         sorts first and rename the others to\n"
	      "                         'STEM (case conflict N).EXT', or (merge)\n"
	      "                         merge directories into the first and\n"
	      "                         rename the files\n"
	      "      --move             rename the entries instead of copying them\n"
	      "                         (SRC and LIBRARY on one filesystem); SRC is\n"
	      "                         left empty\n"
	      "      --force            move even while processes hold files in SRC\n"
	      "      --resume           finish an interrupted import into LIBRARY\n"
	      "  -j, --json             print the report as JSON\n"
	      "  -h, --help             show this help and exit\n"
	      "  -V, --version          show the version and exit\n"
	      "\n"
	      "Exit status: 0 imported (or a dry run), 1 collisions stopped the\n"
	      "import (or directories of SRC were left, holding new entries),\n"
	      "2 refusals and errors.\n",
	      out);
}

int cmd_import(int argc, char **argv)
{
	enum { OPT_ON_COLLISION = 256, OPT_MOVE, OPT_RESUME, OPT_FORCE };
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "on-collision", required_argument, NULL, OPT_ON_COLLISION },
		{ "move", no_argument, NULL, OPT_MOVE },
		{ "resume", no_argument, NULL, OPT_RESUME },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "json", no_argument, NULL, 'j' },
		COMMON_LONGOPTS,
	};
	struct import_options o = { 0 };
	bool policy_given = false;
	int opt, nargs;

	while ((opt = getopt_long(argc, argv, ":njhV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			o.dry_run = true;
			break;
		case OPT_ON_COLLISION:
			if (!collision_policy_named(optarg, &o.policy))
				return usage_error("--on-collision: '%s' is not fail, rename or merge",
						   optarg);
			policy_given = true;
			break;
		case OPT_MOVE:
			o.move = true;
			break;
		case OPT_RESUME:
			o.resume = true;
			break;
		case OPT_FORCE:
			o.force = true;
			break;
		case 'j':
			o.json = true;
			break;
		default:
			return common_option(opt, argv, usage);
		}
	}
	nargs = argc - optind;
	if (o.resume && (o.dry_run || policy_given || o.move))
		return usage_error("--resume goes on as the interrupted import did: it takes no --%s",
				   o.dry_run ? "dry-run" : o.move ? "move" : "on-collision");
	if (o.force && !o.move && !o.resume)
		return usage_error("--force goes with --move (or --resume of a move): a copy takes nothing away");
	if (nargs == 0 || (nargs == 1 && !o.resume))
		return usage_error("no %s given", nargs ? "LIBRARY" : o.resume ? "LIBRARY" : "SRC");
	if (nargs > 2)
		return usage_error("one SRC and one LIBRARY at a time");
	o.src = nargs == 2 ? argv[optind] : NULL;
	o.library = argv[argc - 1];
	return import_run(&o);
}
