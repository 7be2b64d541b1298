// SPDX-License-Identifier: GPL-2.0
/*
 * gamepart create: make a casefold ext4 filesystem on a device, a partition
 * or an image file, and lay out the library on it (lib/provision.c).
 */
#include <grp.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "lib/layout.h"
#include "lib/options.h"
#include "lib/provision.h"
#include "lib/util.h"

#define LABEL_MAX		16		/* s_volume_name */
#define DEFAULT_LABEL		"gamedata"

static void usage(FILE *out)
{
	fputs("Usage: gamepart create [--label L] [--owner USER[:GROUP]] [--strict] [--layout FILE] [--size SIZE] [--force] TARGET\n"
	      "\n"
	      "Make an ext4 filesystem with the casefold feature (utf8) on TARGET, a\n"
	      "block device, a partition or an image file, and lay out a game library\n"
	      "on it whose library directories are case-insensitive (+F).\n"
	      "\n"
	      "Options:\n"
	      "  -L, --label L          filesystem label (default " DEFAULT_LABEL ", at most 16 bytes)\n"
	      "  -o, --owner USER[:GROUP]  owner of the root and the library directories\n"
	      "                         (names or numbers; USER alone: its login group)\n"
	      "  -s, --strict           strict encoding: refuse names that are not valid UTF-8\n"
	      "  -l, --layout FILE      directories to create (default: the Steam layout)\n"
	      "  -S, --size SIZE        create or resize the image file TARGET, sparse;\n"
	      "                         SIZE in bytes, or with a K, M, G or T suffix\n"
	      "  -f, --force            overwrite a filesystem or partition table on TARGET\n"
	      "  -h, --help             show this help and exit\n"
	      "  -V, --version          show the version and exit\n"
	      "\n"
	      "A mounted TARGET is always refused.  See gamepart(8).\n", out);
}

/* A decimal id that fits in 32 bits and is not (uid_t)-1. */
static bool parse_id(const char *s, size_t len, uint32_t *id)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0 || len > 10)
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v >= UINT32_MAX)
		return false;
	*id = (uint32_t)v;
	return true;
}

/*
 * USER[:GROUP], each a name or a number, as chown(1) takes them; a USER
 * alone brings its login group.  On failure *WHY says what was wrong.
 */
static bool parse_owner(const char *s, uint32_t *uid, uint32_t *gid,
			const char **why)
{
	const char *colon = strchr(s, ':');
	size_t ulen = colon ? (size_t)(colon - s) : strlen(s);
	char *user = xasprintf("%.*s", (int)ulen, s);
	const struct passwd *pw = NULL;
	bool ok = false;

	*why = strspn(user, "0123456789") == ulen && ulen ?
	       "not a valid user id" : "no such user";
	if (!parse_id(user, ulen, uid)) {
		pw = ulen ? getpwnam(user) : NULL;
		if (!pw)
			goto out;
		*uid = (uint32_t)pw->pw_uid;
	}
	if (!colon) {
		if (!pw)
			pw = getpwuid((uid_t)*uid);
		*why = "a number without :GROUP has no login group to take";
		if (!pw)
			goto out;
		*gid = (uint32_t)pw->pw_gid;
		ok = true;
	} else if (parse_id(colon + 1, strlen(colon + 1), gid)) {
		ok = true;
	} else {
		const struct group *gr = colon[1] ? getgrnam(colon + 1) : NULL;

		*why = "no such group";
		if (gr) {
			*gid = (uint32_t)gr->gr_gid;
			ok = true;
		}
	}
out:
	free(user);
	return ok;
}

/* "64M", "1G", "1048576", "2GiB": powers of 1024. */
static bool parse_size(const char *s, uint64_t *size)
{
	static const char units[] = "KMGT";
	const char *p = s;
	uint64_t v = 0;
	int shift = 0;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p) {
		/* *p & ~0x20 may be NUL, which strchr() would find. */
		const char *u = strchr(units, *p & ~0x20);

		if (!u || !*u)
			return false;
		shift = 10 * (int)(u - units + 1);
		p++;
		if (!strcmp(p, "iB") || !strcmp(p, "B"))
			p += strlen(p);
		if (*p)
			return false;
	}
	if (v == 0 || v > (UINT64_MAX >> shift))
		return false;
	*size = v << shift;
	return true;
}

int cmd_create(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "label", required_argument, NULL, 'L' },
		{ "owner", required_argument, NULL, 'o' },
		{ "strict", no_argument, NULL, 's' },
		{ "layout", required_argument, NULL, 'l' },
		{ "size", required_argument, NULL, 'S' },
		{ "force", no_argument, NULL, 'f' },
		COMMON_LONGOPTS,
	};
	struct provision_opts o = { .label = DEFAULT_LABEL };
	const char *why, *layout_file = NULL;
	struct layout l;
	size_t i, ncf = 0;
	int c;

	while ((c = getopt_long(argc, argv, ":L:o:sl:S:fhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!parse_owner(optarg, &o.uid, &o.gid, &why))
				return usage_error("--owner %s: %s", optarg, why);
			o.have_owner = true;
			break;
		case 'L':
			o.label = optarg;
			break;
		case 's':
			o.strict = true;
			break;
		case 'l':
			layout_file = optarg;
			break;
		case 'f':
			o.force = true;
			break;
		case 'S':
			if (!parse_size(optarg, &o.size))
				return usage_error("--size: invalid size '%s' (a number with an optional K, M, G or T suffix)",
						   optarg);
			o.have_size = true;
			break;
		default:
			return common_option(c, argv, usage);
		}
	}
	if (optind != argc - 1)
		return usage_error(optind < argc ? "one TARGET expected" :
				   "no TARGET given");
	o.target = argv[optind];
	if (!*o.label || strlen(o.label) > LABEL_MAX)
		return usage_error("--label: '%s' must be 1 to 16 bytes", o.label);
	o.progress = isatty(STDERR_FILENO);

	if (layout_file) {
		if (layout_read(&l, layout_file))
			return EXIT_TROUBLE;
	} else {
		layout_default(&l);
	}
	if (provision(&o, &l)) {
		layout_free(&l);
		return EXIT_TROUBLE;
	}
	for (i = 0; i < l.count; i++)
		ncf += l.dirs[i].casefold;
	printf("%s: ext4, casefold utf8-12.1%s, label '%s', %zu director%s (%zu casefolded)\n",
	       o.target, o.strict ? " strict" : "", o.label, l.count,
	       l.count == 1 ? "y" : "ies", ncf);
	layout_free(&l);
	return EXIT_NOTHING_FOUND;
}
