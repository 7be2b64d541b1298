// SPDX-License-Identifier: GPL-2.0
/*
 * gamepart casefold: set +F (EXT4_CASEFOLD_FL) on empty directories of a
 * mounted ext4 filesystem, as chattr +F does, with a message that says
 * what to do when the kernel refuses.  A non-empty directory needs
 * gamepart convert: the kernel sets the flag on empty directories only.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "gamepart.h"

#define CASEFOLD_FL	0x40000000	/* EXT4_CASEFOLD_FL */
#define EXT4_MAGIC	0xEF53

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
	      "  -h, --help   show this help\n"
	      "\n"
	      "See gamepart(8).\n", out);
}

/* The cause of a failed FS_IOC_SETFLAGS, in words a user can act on. */
static const char *setflags_cause(int err)
{
	switch (err) {
	case EOPNOTSUPP:
		return "the filesystem has no casefold feature (or it is encrypted); "
		       "add it with tune2fs -O casefold while it is unmounted";
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
	struct statfs sfs;
	struct stat st;
	int fd, flags = 0;

	fd = open(dir, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		gp_warn("%s: %s", dir, errno == EACCES ?
			"permission denied" : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || fstatfs(fd, &sfs) < 0) {
		gp_warn("%s: %s", dir, strerror(errno));
		goto fail;
	}
	if (!S_ISDIR(st.st_mode)) {
		gp_warn("%s: not a directory", dir);
		goto fail;
	}
	if (sfs.f_type != EXT4_MAGIC) {
		gp_warn("%s: not on an ext4 filesystem", dir);
		goto fail;
	}
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0) {
		gp_warn("%s: reading its flags: %s", dir, strerror(errno));
		goto fail;
	}
	if ((unsigned int)flags & CASEFOLD_FL) {
		close(fd);
		return 0;
	}
	flags = (int)((unsigned int)flags | CASEFOLD_FL);
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0) {
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
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, i, rc = EXIT_NOTHING_FOUND;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_NOTHING_FOUND;
		}
		gp_warn("%s: unknown option; see 'gamepart casefold --help'",
			argv[optind - 1]);
		return EXIT_TROUBLE;
	}
	if (optind == argc) {
		gp_warn("no DIR given; see 'gamepart casefold --help'");
		return EXIT_TROUBLE;
	}
	for (i = optind; i < argc; i++)
		if (casefold_one(argv[i]))
			rc = EXIT_TROUBLE;
	return rc;
}
