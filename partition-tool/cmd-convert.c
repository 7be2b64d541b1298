// SPDX-License-Identifier: GPL-2.0
/*
 * gamepart convert: make every directory of a tree casefolded (+F) in
 * place.  The command parses its options; the engine in convert/ does
 * the work, online (a mounted tree) or offline (an unmounted device or
 * image).
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "convert/convert.h"
#include "lib/options.h"
#include "lib/util.h"

static void usage(FILE *out)
{
	fputs("Usage: gamepart convert [--dry-run] [--on-collision=fail|rename|merge]\n"
	      "                        [--directories=keep|replace] [--resume]\n"
	      "                        [--force] [--json] PATH\n"
	      "       gamepart convert --prefixes [--dry-run]\n"
	      "                        [--on-collision=fail|rename|merge]\n"
	      "                        [--directories=keep|replace] [--force] LIBRARY\n"
	      "       gamepart convert --offline [--undo-file=FILE] [--dry-run]\n"
	      "                        [--on-collision=fail|rename] [--resume] [--json]\n"
	      "                        TARGET [DIR...]\n"
	      "\n"
	      "Make every directory under PATH (on a mounted ext4 filesystem with\n"
	      "the casefold feature) case-insensitive, in place.  The tree is\n"
	      "checked first; entries are moved, never copied, and keep their\n"
	      "inodes.  A journal beside PATH lets an interrupted conversion be\n"
	      "finished with --resume.\n"
	      "\n"
	      "With --prefixes, every Proton prefix of the Steam library LIBRARY\n"
	      "(steamapps/compatdata/*/pfx/drive_c) that is not case-insensitive is\n"
	      "converted so, one after the other; an interrupted one is resumed.\n"
	      "\n"
	      "With --offline, TARGET is an unmounted device or image: the casefold\n"
	      "feature is turned on if it is off, and every directory under each DIR\n"
	      "(a path inside the filesystem; if none, each directory at its root\n"
	      "but lost+found) is made case-insensitive\n"
	      "and its hash index rebuilt, every write saved first to an undo file\n"
	      "that e2undo replays.\n"
	      "\n"
	      "Options:\n"
	      "  -n, --dry-run          print the plan and the report, change nothing\n"
	      "      --on-collision=fail|rename|merge\n"
	      "                         on names that would collide: change nothing\n"
	      "                         (fail, the default), or keep the name that\n"
	      "                         sorts first and rename the others to\n"
	      "                         'STEM (case conflict N).EXT', or (merge, not\n"
	      "                         offline) merge directories into the first\n"
	      "                         and rename the files\n"
	      "      --directories=keep|replace\n"
	      "                         keep each directory's inode, moving its\n"
	      "                         entries out and back (keep, the default),\n"
	      "                         or replace each one under PATH by a new\n"
	      "                         one with its attributes (moving them once)\n"
	      "      --resume           finish an interrupted conversion of PATH\n"
	      "                         (offline: roll it back with e2undo, then\n"
	      "                         convert again)\n"
	      "      --prefixes         convert the Proton prefixes of LIBRARY\n"
	      "      --force            convert even while processes (Steam, a game)\n"
	      "                         hold files under PATH\n"
	      "      --offline          convert an unmounted TARGET through libext2fs\n"
	      "      --undo-file=FILE   offline: the undo file (default\n"
	      "                         gamepart-convert-NAME.e2undo in\n"
	      "                         $E2FSPROGS_UNDO_DIR or /var/lib/e2fsprogs)\n"
	      "  -j, --json             print the report as JSON\n"
	      "  -h, --help             show this help and exit\n"
	      "  -V, --version          show the version and exit\n"
	      "\n"
	      "Exit status: 0 converted (or nothing to do), 1 collisions stopped\n"
	      "the conversion (or directories made meanwhile were left), 2 refusals\n"
	      "and errors.\n",
	      out);
}

int cmd_convert(int argc, char **argv)
{
	enum { OPT_ON_COLLISION = 256, OPT_RESUME, OPT_OFFLINE, OPT_UNDO_FILE,
	       OPT_DIRECTORIES, OPT_PREFIXES, OPT_FORCE };
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "on-collision", required_argument, NULL, OPT_ON_COLLISION },
		{ "directories", required_argument, NULL, OPT_DIRECTORIES },
		{ "resume", no_argument, NULL, OPT_RESUME },
		{ "offline", no_argument, NULL, OPT_OFFLINE },
		{ "prefixes", no_argument, NULL, OPT_PREFIXES },
		{ "undo-file", required_argument, NULL, OPT_UNDO_FILE },
		{ "json", no_argument, NULL, 'j' },
		{ "force", no_argument, NULL, OPT_FORCE },
		COMMON_LONGOPTS,
	};
	struct convert_options c = { 0 };
	struct stat st;
	int opt;

	while ((opt = getopt_long(argc, argv, ":njhV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			c.dry_run = true;
			break;
		case OPT_ON_COLLISION:
			if (!collision_policy_named(optarg, &c.policy))
				return usage_error("--on-collision: '%s' is not fail, rename or merge",
						   optarg);
			c.policy_given = true;
			break;
		case OPT_DIRECTORIES:
			if (strcmp(optarg, "keep") && strcmp(optarg, "replace"))
				return usage_error("--directories: '%s' is neither keep nor replace",
						   optarg);
			c.replace = !strcmp(optarg, "replace");
			c.replace_given = true;
			break;
		case OPT_RESUME:
			c.resume = true;
			break;
		case OPT_OFFLINE:
			c.offline = true;
			break;
		case OPT_PREFIXES:
			c.prefixes = true;
			break;
		case OPT_UNDO_FILE:
			c.undo_file = optarg;
			break;
		case 'j':
			c.json = true;
			break;
		case OPT_FORCE:
			c.force = true;
			break;
		default:
			return common_option(opt, argv, usage);
		}
	}
	if (optind == argc)
		return usage_error("no %s given", c.offline ? "TARGET" :
				   c.prefixes ? "LIBRARY" : "PATH");
	if (!c.offline && argc - optind != 1)
		return usage_error("one %s at a time", c.prefixes ? "LIBRARY" : "PATH");
	c.arg = argv[optind];
	if (c.dry_run && c.resume)
		return usage_error("--dry-run and --resume do not go together");
	if (c.replace && c.offline)
		return usage_error("--directories=replace goes with a mounted PATH: offline, every directory keeps its inode");
	if (c.prefixes && c.offline)
		return usage_error("--prefixes goes with a mounted LIBRARY (offline, give the prefixes as DIRs)");
	if (c.prefixes && (c.json || c.resume))
		return usage_error("--prefixes does not take --%s (it resumes interrupted prefixes itself; run convert on one prefix for JSON)",
				   c.json ? "json" : "resume");
	if (c.policy == ON_COLLISION_MERGE && c.offline)
		return usage_error("--on-collision=merge goes with a mounted PATH: merging directories needs the kernel's moves");
	if (c.undo_file && !c.offline)
		return usage_error("--undo-file goes with --offline");
	if (c.force && c.offline)
		return usage_error("--force goes with a mounted PATH: an unmounted TARGET is used by nobody");
	if (!c.offline && stat(c.arg, &st) == 0 && !S_ISDIR(st.st_mode)) {
		gp_warn("%s: not a directory (an unmounted device or image is converted with --offline)",
			c.arg);
		return EXIT_TROUBLE;
	}
	if (c.prefixes)
		return convert_prefixes(&c);
	if (!c.offline)
		return convert_online(&c);
	/* No DIR: every directory at the root but lost+found (plan.c). */
	c.roots = argv + optind + 1;
	c.nroots = (size_t)(argc - optind - 1);
	return convert_offline(&c);
}
