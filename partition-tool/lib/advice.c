// SPDX-License-Identifier: GPL-2.0
/*
 * The next command for a library (see advice.h).
 *
 * One command, not one per directory: a conversion of a directory
 * converts everything below it, so only the top-most directories are
 * named.  Online, convert takes one PATH, so it is given the deepest
 * directory that holds them all (never the library's root, which may be
 * the mount root, which convert refuses); offline it takes them all.
 * The policy follows from the names below: none collide, none is needed;
 * otherwise merge online (directories are merged, files renamed) and
 * rename offline, where merge is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "advice.h"
#include "examine.h"
#include "online.h"
#include "report.h"
#include "util.h"
#include "walk.h"

void todo_add(struct todo *td, const char *path, bool empty,
	      enum todo_kind kind)
{
	td->v = xrealloc(td->v, (td->count + 1) * sizeof(*td->v));
	td->v[td->count].path = xstrdup(path);
	td->v[td->count].empty = empty;
	td->v[td->count].kind = kind;
	td->count++;
	td->kinds[kind]++;
}

void todo_free(struct todo *td)
{
	for (size_t i = 0; i < td->count; i++)
		free(td->v[i].path);
	free(td->v);
	memset(td, 0, sizeof(*td));
}

/* Whether A is B or one of B's ancestors. */
static bool at_or_above(const char *a, const char *b)
{
	size_t n = strlen(a);

	return !strncmp(a, b, n) && (b[n] == '\0' || b[n] == '/');
}

/* Whether entry I has an ancestor among the others (a duplicate counts once). */
static bool covered(const struct todo *td, size_t i)
{
	for (size_t j = 0; j < td->count; j++) {
		if (j == i || !at_or_above(td->v[j].path, td->v[i].path))
			continue;
		if (strcmp(td->v[j].path, td->v[i].path) || j < i)
			return true;
	}
	return false;
}

/* The deepest directory holding every top-most entry; "" for the root. */
static char *common_ancestor(const struct todo *td)
{
	char *common = NULL;

	for (size_t i = 0; i < td->count; i++) {
		size_t n = 0;

		if (covered(td, i))
			continue;
		if (!common) {
			common = xstrdup(td->v[i].path);
			continue;
		}
		while (common[n] && common[n] == td->v[i].path[n])
			n++;
		/* Back to a whole component of both. */
		if (!(common[n] == '\0' && (td->v[i].path[n] == '/' ||
					    td->v[i].path[n] == '\0'))) {
			while (n && common[n] != '/')
				n--;
		}
		common[n] = '\0';
	}
	return common ? common : xstrdup("");
}

struct below {
	struct folder *folder;
	struct report *report;
};

static int visit(void *ctx, const struct walk_dir *d)
{
	struct below *b = ctx;
	struct examined counts = { 0 };

	/* As convert's planner: a casefolded directory is not converted. */
	if (!d->casefolded)
		examine_dir(b->folder, b->report, d->path, d, NULL, NULL,
			    &counts);
	return 0;
}

/*
 * Add to *GROUPS the groups of names that would collide once the tree at
 * PATH of T is casefolded.  -1 when it could not all be read.
 */
static int collisions_below(const struct target *t, const char *path,
			    size_t *groups)
{
	struct below b = { .report = report_new() };
	struct walk_result res = { 0 };
	struct target sub;
	int ret = -1;

	if (target_open(&sub, t->arg, path, TARGET_READ) < 0)
		goto out;
	b.folder = target_folder(&sub, false);
	if (b.folder) {
		walk_target(&sub, visit, &b, &res);
		*groups += report_collisions(b.report);
		ret = res.errors ? -1 : 0;
		folder_free(b.folder);
	}
	target_close(&sub);
out:
	report_free(b.report);
	return ret;
}

/* "steamapps, steamapps/common, 3 game folders, 1 Proton prefix" */
static void print_summary(FILE *out, const struct todo *td)
{
	const char *sep = "";

	for (size_t i = 0; i < td->count; i++) {
		if (td->v[i].kind != TODO_LAYOUT)
			continue;
		fprintf(out, "%s%s", sep, td->v[i].path);
		sep = ", ";
	}
	if (td->kinds[TODO_GAME]) {
		fprintf(out, "%s%zu game folder%s", sep, td->kinds[TODO_GAME],
			td->kinds[TODO_GAME] == 1 ? "" : "s");
		sep = ", ";
	}
	if (td->kinds[TODO_PREFIX])
		fprintf(out, "%s%zu Proton prefix%s", sep, td->kinds[TODO_PREFIX],
			td->kinds[TODO_PREFIX] == 1 ? "" : "es");
	fputc('\n', out);
}

static void print_shown(FILE *out, const char *shown, const char *path)
{
	if (!*path)
		fputs(shown, out);
	else if (!strcmp(shown, "."))
		fputs(path, out);
	else
		fprintf(out, "%s/%s", shown, path);
}

int todo_advise(FILE *out, const struct target *t, const struct fs_info *fi,
		const char *shown, struct todo *td)
{
	bool online = t->kind == TARGET_ONLINE;
	bool feature_off = fi->known && !fi->casefold_feature;
	bool all_empty = true, only_prefixes = true;
	char *ancestor = common_ancestor(td);
	const char *policy = "";
	size_t groups = 0;
	int ret = 0;

	if (!td->count) {
		if (feature_off)
			fprintf(out, "the filesystem has no casefold feature: gamepart convert --offline %s DIR turns it on and casefolds DIR%s\n",
				online ? (*fi->device ? fi->device : "DEVICE") : t->arg,
				online ? ", once it is unmounted" : "");
		free(ancestor);
		return 0;
	}
	fputs("not casefolded: ", out);
	print_summary(out, td);

	for (size_t i = 0; i < td->count; i++) {
		all_empty &= td->v[i].empty;
		only_prefixes &= td->v[i].kind == TODO_PREFIX;
	}
	/*
	 * What the command will convert: online the ancestor, but for
	 * convert --prefixes, which takes each prefix alone; offline each.
	 */
	if (online && !feature_off && *ancestor && !only_prefixes) {
		ret = collisions_below(t, ancestor, &groups);
	} else {
		for (size_t i = 0; i < td->count; i++)
			if (!covered(td, i) &&
			    collisions_below(t, td->v[i].path, &groups) < 0)
				ret = -1;
	}
	if (groups) {
		policy = online && !feature_off ? "--on-collision=merge " :
			 "--on-collision=rename ";
		fprintf(out, "names that would collide once casefolded: %zu group%s; gamepart check ",
			groups, groups == 1 ? "" : "s");
		print_shown(out, online ? shown : t->arg, online ? ancestor : "");
		fprintf(out, " lists them, and %s", online && !feature_off ?
			"merge joins colliding directories and renames colliding files (rename renames both)\n" :
			"rename renames them (merge, which joins colliding directories, needs the filesystem mounted)\n");
	}

	fputs("next: ", out);
	if (feature_off && online) {
		fprintf(out, "unmount %s, then: gamepart convert --offline %s%s",
			*fi->device ? fi->device : "the filesystem", policy,
			*fi->device ? fi->device : "DEVICE");
	} else if (!online) {
		fprintf(out, "gamepart convert --offline %s%s", policy, t->arg);
	}
	if (!online || feature_off) {
		/* Offline, paths are inside the filesystem, not the mount. */
		char *in_fs = online ? online_path_in_fs(t->dirfd) : NULL;
		const char *base = !online ? "" : !in_fs ? "LIBRARY" :
				   strcmp(in_fs, "/") ? in_fs + 1 : "";

		for (size_t i = 0; i < td->count; i++)
			if (!covered(td, i))
				fprintf(out, " %s%s%s", base, *base ? "/" : "",
					td->v[i].path);
		fputs(feature_off ? "  (it turns the casefold feature on)" : "",
		      out);
		fputs(online && !in_fs ?
		      " (LIBRARY: the library's path inside the filesystem)\n" :
		      "\n", out);
		free(in_fs);
	} else if (all_empty) {
		fputs("gamepart casefold", out);
		for (size_t i = 0; i < td->count; i++) {
			if (covered(td, i))
				continue;
			fputc(' ', out);
			print_shown(out, shown, td->v[i].path);
		}
		fputc('\n', out);
	} else if (only_prefixes) {
		fprintf(out, "gamepart convert --prefixes %s%s\n", policy, shown);
	} else {
		fprintf(out, "gamepart convert %s", policy);
		print_shown(out, shown, ancestor);
		fputc('\n', out);
	}
	free(ancestor);
	return ret;
}
