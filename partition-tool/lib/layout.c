// SPDX-License-Identifier: GPL-2.0
/*
 * Library layouts.  A layout file has one directory per line:
 *
 *	# comment
 *	steamapps casefold
 *	steamapps/common casefold
 *	tools
 *
 * A path is relative to the filesystem root, written with '/' between
 * components and without whitespace; its parent must be the root or a
 * directory listed on an earlier line.  The optional keyword "casefold"
 * asks for +F.  Blank lines and text after '#' are ignored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "layout.h"
#include "util.h"

static const char *const steam_dirs[] = {
	"steamapps",
	"steamapps/common",
	"steamapps/compatdata",
	"steamapps/shadercache",
	"steamapps/downloading",
	"steamapps/temp",
};

static void add_dir(struct layout *l, const char *path, bool casefold,
		    unsigned long line)
{
	l->dirs = xrealloc(l->dirs, (l->count + 1) * sizeof(*l->dirs));
	l->dirs[l->count].path = xstrdup(path);
	l->dirs[l->count].casefold = casefold;
	l->dirs[l->count].line = line;
	l->count++;
}

void layout_default(struct layout *l)
{
	size_t i;

	l->dirs = NULL;
	l->count = 0;
	for (i = 0; i < sizeof(steam_dirs) / sizeof(steam_dirs[0]); i++)
		add_dir(l, steam_dirs[i], true, 0);
}

void layout_free(struct layout *l)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		free(l->dirs[i].path);
	free(l->dirs);
	l->dirs = NULL;
	l->count = 0;
}

/* The directory listed as PATH (LEN bytes), or NULL. */
static const struct layout_dir *listed(const struct layout *l,
				       const char *path, size_t len)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		if (strlen(l->dirs[i].path) == len &&
		    !memcmp(l->dirs[i].path, path, len))
			return &l->dirs[i];
	return NULL;
}

/*
 * In a casefolded parent, the kernel would take the second of two names
 * that fold alike for the first: the sibling listed before PATH whose
 * name folds to PATH's last component, or NULL.  PLEN is the parent's
 * length (0 at the root).
 */
static const struct layout_dir *folded_twin(const struct layout *l,
					    const struct folder *f,
					    const char *path, size_t plen)
{
	const char *name = path + (plen ? plen + 1 : 0);

	for (size_t i = 0; i < l->count; i++) {
		const char *other = l->dirs[i].path;
		const char *slash = strrchr(other, '/');
		size_t olen = slash ? (size_t)(slash - other) : 0;

		if (olen != plen || memcmp(other, path, plen))
			continue;
		other += plen ? plen + 1 : 0;
		if (fold_equal(f, other, strlen(other), name, strlen(name)))
			return &l->dirs[i];
	}
	return NULL;
}

/* NULL when PATH (trailing '/' already removed) is acceptable, else why not. */
static const char *bad_path(const char *path)
{
	const char *p = path, *slash;

	if (*path == '/')
		return "absolute path (paths are relative to the filesystem root)";
	for (;;) {
		slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		if (len == 0)
			return "empty path component";
		if ((len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.'))
			return "'.' and '..' are not allowed";
		if (len > EXT2_NAME_LEN)
			return "path component longer than 255 bytes";
		if (!slash)
			return NULL;
		p = slash + 1;
	}
}

/*
 * Parse line LINENO (comment already cut); returns NULL or the error text.
 * F folds names as the filesystem create makes will.
 */
static char *parse_line(struct layout *l, const struct folder *f, char *line,
			unsigned long lineno)
{
	const struct layout_dir *parent = NULL, *twin;
	static const char ws[] = " \t\n\r\v\f";
	char *path, *word, *save = NULL, *slash;
	const char *why;
	bool casefold = false;
	size_t len;

	path = strtok_r(line, ws, &save);
	if (!path)
		return NULL;
	while ((word = strtok_r(NULL, ws, &save))) {
		if (strcmp(word, "casefold"))
			return xasprintf("unknown keyword '%s' (expected 'casefold')",
					 word);
		if (casefold)
			return xstrdup("'casefold' given twice");
		casefold = true;
	}
	len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		path[--len] = '\0';
	why = bad_path(path);
	if (why)
		return xasprintf("%s: %s", path, why);
	if (listed(l, path, len))
		return xasprintf("%s: listed twice", path);
	slash = strrchr(path, '/');
	if (slash) {
		parent = listed(l, path, (size_t)(slash - path));
		if (!parent)
			return xasprintf("%s: parent %.*s is not listed on an earlier line",
					 path, (int)(slash - path), path);
	}
	/* The root is never casefolded: create refuses it. */
	twin = parent && parent->casefold ?
	       folded_twin(l, f, path, (size_t)(slash - path)) : NULL;
	if (twin)
		return xasprintf("%s: folds to %s (line %lu) in its casefolded parent",
				 path, twin->path, twin->line);
	add_dir(l, path, casefold, lineno);
	return NULL;
}

int layout_read(struct layout *l, const char *file, const struct folder *f)
{
	FILE *in;
	char *line = NULL, *why = NULL;
	size_t size = 0;
	ssize_t n;
	unsigned long lineno = 0;

	l->dirs = NULL;
	l->count = 0;
	in = fopen(file, "r");
	if (!in) {
		gp_warn("%s: %s", file, strerror(errno));
		return -1;
	}
	while (!why && (n = getline(&line, &size, in)) >= 0) {
		lineno++;
		if (strlen(line) != (size_t)n) {
			why = xstrdup("NUL byte in line");
			break;
		}
		char *hash = strchr(line, '#');

		if (hash)
			*hash = '\0';
		why = parse_line(l, f, line, lineno);
	}
	free(line);
	if (why) {
		gp_warn("%s:%lu: %s", file, lineno, why);
		free(why);
		fclose(in);
		layout_free(l);
		return -1;
	}
	if (ferror(in)) {
		gp_warn("%s: %s", file, strerror(errno));
		fclose(in);
		layout_free(l);
		return -1;
	}
	fclose(in);
	if (l->count == 0) {
		gp_warn("%s: no directories in the layout", file);
		return -1;
	}
	return 0;
}
