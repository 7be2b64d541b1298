// SPDX-License-Identifier: GPL-2.0
/*
 * The report of an import, for people or as JSON:
 *   {"source": S, "library": L, "mode": "copy"|"move", "policy": P,
 *    "outcome": O, "files": N, "symlinks": N, "directories": N,
 *    "bytes": N, "owner": {"uid": U, "gid": G},
 *    "renames": [{"from": SRC-PATH, "to": LIBRARY-PATH}],
 *    "merges": [{"from": SRC-PATH, "into": LIBRARY-PATH}],
 *    "not_casefolded": [LIBRARY-PATH], "report": {as check gives it}}
 * A resumed run reports the whole import, not only its own part.
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "import.h"
#include "lib/report.h"
#include "lib/util.h"

static json_object *jpath(const char *s)
{
	char *e = report_escape(s, strlen(s), false);
	json_object *o = json_object_new_string(e);

	free(e);
	return o;
}

static json_object *result_json(const struct import_result *r)
{
	const struct import_plan *p = r->plan;
	json_object *root = json_object_new_object();
	json_object *renames = json_object_new_array();
	json_object *merges = json_object_new_array();
	json_object *plain = json_object_new_array();
	json_object *owner = json_object_new_object();
	size_t i;

	if (!root || !renames || !merges || !plain || !owner)
		gp_die("out of memory");
	json_object_object_add(root, "source", jpath(r->src));
	json_object_object_add(root, "library", jpath(r->o->library));
	json_object_object_add(root, "mode",
			       json_object_new_string(r->move ? "move" : "copy"));
	json_object_object_add(root, "policy", json_object_new_string(
				       collision_policy_name(r->policy)));
	json_object_object_add(root, "outcome",
			       json_object_new_string(r->outcome));
	json_object_object_add(root, "files", json_object_new_int64((int64_t)p->files));
	json_object_object_add(root, "symlinks",
			       json_object_new_int64((int64_t)p->symlinks));
	json_object_object_add(root, "directories",
			       json_object_new_int64((int64_t)p->dirs));
	json_object_object_add(root, "bytes", json_object_new_int64((int64_t)p->bytes));
	json_object_object_add(owner, "uid", json_object_new_int64(r->owner));
	json_object_object_add(owner, "gid", json_object_new_int64(r->group));
	json_object_object_add(root, "owner", owner);
	for (i = 0; i < p->nchanges; i++) {
		const struct import_change *c = &p->changes[i];
		json_object *o = json_object_new_object();

		if (!o)
			gp_die("out of memory");
		json_object_object_add(o, "from", jpath(c->src));
		json_object_object_add(o, c->merge ? "into" : "to", jpath(c->dest));
		json_object_array_add(c->merge ? merges : renames, o);
	}
	json_object_object_add(root, "renames", renames);
	json_object_object_add(root, "merges", merges);
	for (i = 0; i < p->nplain; i++)
		json_object_array_add(plain, jpath(p->plain_dirs[i]));
	json_object_object_add(root, "not_casefolded", plain);
	/* A resumed run did not plan, so it has no findings to give. */
	if (!r->resumed)
		json_object_object_add(root, "report", report_json(r->report));
	return root;
}

int import_write_record(const struct import_result *r, int dirfd,
			const char *name)
{
	json_object *root = result_json(r);
	/* The library's owner's, as the rest of it. */
	int ret = geteuid() == 0 ?
		  report_write_json(root, dirfd, name, r->owner, r->group) :
		  report_write_json(root, dirfd, name, (uid_t)-1, (gid_t)-1);

	json_object_put(root);
	return ret;
}

static void print_changes(const struct import_result *r, bool done)
{
	const struct import_plan *p = r->plan;

	for (size_t i = 0; i < p->nchanges; i++) {
		const struct import_change *c = &p->changes[i];
		char *from = report_escape(c->src, strlen(c->src), true);
		char *to = report_escape(c->dest, strlen(c->dest), true);

		const char *base = strrchr(c->src, '/');

		base = base ? base + 1 : c->src;
		if (c->merge)
			printf("%s '%s' into '%s'", done ? "merged" : "would merge",
			       from, to);
		else
			printf("%s '%s' -> '%s'", done ? "renamed" : "would rename",
			       from, to);
		/* NFC and NFD print alike: say which one this was. */
		for (const char *b = base; *b; b++)
			if ((unsigned char)*b >= 0x80) {
				char *sp = report_spelled(base, strlen(base));

				printf(" (spelled \"%s\")", sp);
				free(sp);
				break;
			}
		putchar('\n');
		free(from);
		free(to);
	}
}

int import_print(const struct import_result *r)
{
	const struct import_plan *p = r->plan;
	bool done = strcmp(r->outcome, "dry run") && strcmp(r->outcome, "stopped");
	struct passwd *pw = getpwuid(r->owner);
	size_t merges = 0, i;

	if (r->o->json) {
		json_object *root = result_json(r);

		fputs(report_json_text(root), stdout);
		fputc('\n', stdout);
		json_object_put(root);
		return ferror(stdout) ? -1 : 0;
	}
	if (!r->resumed && report_print_human(r->report, stdout) < 0)
		return -1;
	if (strcmp(r->outcome, "stopped"))
		print_changes(r, done);
	for (i = 0; i < p->nchanges; i++)
		merges += p->changes[i].merge;
	for (i = 0; i < p->nplain; i++) {
		char *q = report_escape(p->plain_dirs[i], strlen(p->plain_dirs[i]),
					true);

		printf("%s: note: not case-insensitive; what goes into it keeps its case (gamepart convert makes it so)\n",
		       q);
		free(q);
	}
	printf("%s: %zu file%s, %zu symbolic link%s, %zu director%s %s from %s into %s",
	       r->outcome, p->files, p->files == 1 ? "" : "s",
	       p->symlinks, p->symlinks == 1 ? "" : "s",
	       p->dirs, p->dirs == 1 ? "y" : "ies",
	       r->move ? (done ? "moved" : "to move") :
			 (done ? "copied" : "to copy"),
	       r->src, r->o->library);
	if (strcmp(r->outcome, "stopped"))
		printf(", %zu renamed, %zu merged", p->nchanges - merges, merges);
	putchar('\n');
	if (done && !r->move)
		printf("owner: the copies belong to %s (%u:%u), the library's owner\n",
		       pw ? pw->pw_name : "?", (unsigned int)r->owner,
		       (unsigned int)r->group);
	if (r->record)
		printf("record: %s (these renames and merges, as --json gives them)\n",
		       r->record);
	return ferror(stdout) ? -1 : 0;
}
