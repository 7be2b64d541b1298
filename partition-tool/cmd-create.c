// SPDX-License-Identifier: GPL-2.0
/*
 * gamepart create: make a casefold ext4 filesystem on a device, a partition
 * or an image file, and lay out the library on it (lib/provision.c).
 */
#include <grp.h>
#include <inttypes.h>
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
#include "lib/fold.h"
#include "lib/provision.h"
#include "lib/target.h"
#include "lib/util.h"

#define LABEL_MAX		16		/* s_volume_name */
#define DEFAULT_LABEL		"gamedata"

static void usage(FILE *out)
{
	fputs("Usage: gamepart create [--label L] [--owner USER[:GROUP]] [--encoding NAME] [--strict] [--layout FILE] [--size SIZE] [--force] TARGET\n"
	      "\n"
	      "Make an ext4 filesystem with the casefold feature on TARGET, a block\n"
	      "device, a partition or an image file, and lay out a game library on it\n"
	      "whose library directories are case-insensitive (+F).\n"
	      "\n"
	      "Options:\n"
	      "  -L, --label L          filesystem label (default " DEFAULT_LABEL ", at most 16 bytes)\n"
	      "  -o, --owner USER[:GROUP]  owner of the root and the library directories\n"
	      "                         (names or numbers; USER alone: its login group;\n"
	      "                         default: whoever ran sudo or pkexec, else you)\n"
	      "  -e, --encoding NAME    how names are compared: utf8-12.1 (default),\n"
	      "                         utf8-nfkd-12.1 or utf8-windows-12.1\n"
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

/*
 * Without --owner, the library belongs to whoever asked for it: someone who
 * became root through sudo or pkexec is the one whose Steam will write
 * there, not root.  *FROM says how the owner was found, for the terminal.
 */
static void default_owner(uint32_t *uid, uint32_t *gid, const char **from)
{
	const char *sudo_uid = getenv("SUDO_UID"), *sudo_gid = getenv("SUDO_GID");
	const char *pkexec_uid = getenv("PKEXEC_UID");
	const char *asker = NULL;
	const struct passwd *pw;

	*uid = (uint32_t)getuid();
	*gid = (uint32_t)getgid();
	*from = "the user running gamepart";
	if (*uid != 0)
		return;
	if (sudo_uid && parse_id(sudo_uid, strlen(sudo_uid), uid)) {
		asker = "the user who ran sudo";
		if (sudo_gid && parse_id(sudo_gid, strlen(sudo_gid), gid)) {
			*from = asker;
			return;
		}
	} else if (pkexec_uid && parse_id(pkexec_uid, strlen(pkexec_uid), uid)) {
		asker = "the user who ran pkexec";
	} else {
		return;
	}
	/* pkexec names no group: the user's login group, as --owner USER. */
	pw = getpwuid((uid_t)*uid);
	*gid = pw ? (uint32_t)pw->pw_gid : *uid;
	*from = asker;
}

/* "deck (1000:1000)", or "1000:1000" for an id with no name here. */
static char *describe_owner(uint32_t uid, uint32_t gid)
{
	const struct passwd *pw = getpwuid((uid_t)uid);

	if (pw)
		return xasprintf("%s (%" PRIu32 ":%" PRIu32 ")", pw->pw_name,
				 uid, gid);
	return xasprintf("%" PRIu32 ":%" PRIu32, uid, gid);
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
		{ "encoding", required_argument, NULL, 'e' },
		{ "strict", no_argument, NULL, 's' },
		{ "layout", required_argument, NULL, 'l' },
		{ "size", required_argument, NULL, 'S' },
		{ "force", no_argument, NULL, 'f' },
		COMMON_LONGOPTS,
	};
	struct provision_opts o = { .label = DEFAULT_LABEL,
				    .encoding = EXT4_ENC_UTF8_12_1 };
	struct folder *folder;
	static const char by_option[] = "as --owner asked";
	const char *why, *layout_file = NULL, *owner_from = by_option;
	char *owner;
	struct layout l;
	size_t i, ncf = 0;
	int c;

	while ((c = getopt_long(argc, argv, ":L:o:e:sl:S:fhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!parse_owner(optarg, &o.uid, &o.gid, &why))
				return usage_error("--owner %s: %s", optarg, why);
			o.have_owner = true;
			break;
		case 'L':
			o.label = optarg;
			break;
		case 'e':
			o.encoding = encoding_option(optarg);
			if (o.encoding < 0)
				return EXIT_TROUBLE;
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
	/* Before TARGET is touched: names gamepart could not fold stop here. */
	folder = encoding_folder(o.encoding, o.target);
	if (!folder)
		return EXIT_TROUBLE;
	o.progress = isatty(STDERR_FILENO);
	if (!o.have_owner) {
		default_owner(&o.uid, &o.gid, &owner_from);
		o.have_owner = true;
	}

	if (layout_file) {
		if (layout_read(&l, layout_file, folder)) {
			folder_free(folder);
			return EXIT_TROUBLE;
		}
	} else {
		layout_default(&l);
	}
	folder_free(folder);
	if (provision(&o, &l)) {
		layout_free(&l);
		return EXIT_TROUBLE;
	}
	for (i = 0; i < l.count; i++)
		ncf += l.dirs[i].casefold;
	printf("%s: ext4, casefold %s%s, label '%s', %zu director%s (%zu casefolded)\n",
	       o.target, encoding_name(o.encoding), o.strict ? " strict" : "", o.label, l.count,
	       l.count == 1 ? "y" : "ies", ncf);
	owner = describe_owner(o.uid, o.gid);
	printf("%s: the library belongs to %s, %s\n", o.target, owner,
	       owner_from);
	if (o.uid == 0 && owner_from != by_option)
		printf("%s: Steam, running as a user, cannot write to it; --owner USER gives it to that user\n",
		       o.target);
	free(owner);
	layout_free(&l);
	return EXIT_NOTHING_FOUND;
}
