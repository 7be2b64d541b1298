// SPDX-License-Identifier: GPL-2.0
/*
 * gamepart casefold: set +F (EXT4_CASEFOLD_FL) on empty directories of a
 * mounted ext4 filesystem, as chattr +F does, with a message that says
 * what to do when the kernel refuses.  A non-empty directory needs
 * gamepart convert: the kernel sets the flag on empty directories only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "lib/online.h"
#include "lib/options.h"
#include "lib/util.h"

static void usage(FILE *out)
{
	fputs("Usage: gamepart casefold DIR...\n"
	      "\n"
	      "Make each DIR, an empty directory on a mounted ext4 filesystem with the\n"
	      "casefold feature, case-insensitive (+F).  A directory that already has\n"
	      "+F is left as it is.  For a directory that is not empty, use\n"
	      "gamepart convert.\n"
	      "\n"
	      "Options:\n"
	      COMMON_OPTIONS_HELP
	      "\n"
	      "See gamepart(8).\n", out);
}

/* The cause of a failed FS_IOC_SETFLAGS, in words a user can act on. */
static const char *setflags_cause(int err)
{
	switch (err) {
	case EOPNOTSUPP:
		return "the filesystem has no casefold feature (or it is encrypted); "
		       "add it with tune2fs -O casefold while it is unmounted, "
		       "then make the directories that have entries "
		       "case-insensitive with gamepart convert --offline";
	case EROFS:
		return "read-only file system";
	case EPERM:
	case EACCES:
		return "permission denied (only the owner or root may set +F)";
	case ENOTDIR:
		return "not a directory";
	default:
		return strerror(err);
	}
}

static int casefold_one(const char *dir)
{
	char what[96];
	struct stat st;
	bool ext4, casefolded;
	int fd;

	fd = open(dir, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		gp_warn("%s: %s", dir, errno == EACCES ?
			"permission denied" : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || online_is_ext4(fd, &ext4, what, sizeof(what)) < 0) {
		gp_warn("%s: %s", dir, strerror(errno));
		goto fail;
	}
	if (!S_ISDIR(st.st_mode)) {
		gp_warn("%s: not a directory", dir);
		goto fail;
	}
	if (!ext4) {
		gp_warn("%s: not on an ext4 filesystem (%s)", dir, what);
		goto fail;
	}
	if (online_casefolded(fd, &casefolded) < 0) {
		gp_warn("%s: reading its flags: %s", dir, strerror(errno));
		goto fail;
	}
	if (casefolded) {
		close(fd);
		return 0;
	}
	if (online_set_casefold(fd) < 0) {
		if (errno == ENOTEMPTY)
			gp_warn("%s: not empty; use gamepart convert %s", dir, dir);
		else
			gp_warn("%s: %s", dir, setflags_cause(errno));
		goto fail;
	}
	close(fd);
	return 0;
fail:
	close(fd);
	return -1;
}

int cmd_casefold(int argc, char **argv)
{
	static const struct option longopts[] = { COMMON_LONGOPTS };
	int c, i, rc = EXIT_NOTHING_FOUND;

	while ((c = getopt_long(argc, argv, ":hV", longopts, NULL)) != -1)
		return common_option(c, argv, usage);
	if (optind == argc)
		return usage_error("no DIR given");
	for (i = optind; i < argc; i++)
		if (casefold_one(argv[i]))
			rc = EXIT_TROUBLE;
	return rc;
}
