// SPDX-License-Identifier: GPL-2.0
/*
 * What a conversion says: the check's report, then the plan (dry run) or
 * what was done, for people or as JSON: the report's object (report.h)
 * with a "convert" member (see JSON OUTPUT in gamepart.8).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "plan.h"
#include "lib/report.h"
#include "lib/util.h"

static void print_change(const struct change *c, const char *dir, bool done)
{
	char *o = report_escape(c->old, c->oldlen, true);
	char *n = report_escape(c->new, c->newlen, true);
	char *d = NULL;

	if (c->merge) {
		printf("%s '%s' into '%s' (inode %llu)", done ? "merged" :
		       "would merge", o, n, (unsigned long long)c->ino);
	} else {
		d = report_escape(dir, strlen(dir), true);
		printf("%s: %s '%s' -> '%s' (inode %llu)", d,
		       done ? "renamed" : "would rename", o, n,
		       (unsigned long long)c->ino);
	}
	printf("%s\n", c->planned ? "" :
	       c->merge ? ", a directory that appeared during the conversion" :
	       ", a name that appeared during the conversion");
	free(d);
	free(o);
	free(n);
}

static json_object *jstring(const char *s, size_t len)
{
	char *e = report_escape(s, len, false);
	json_object *o = json_object_new_string(e);

	free(e);
	return o;
}

/* Add C, the STEPth change, to RENAMES or MERGES. */
static void jchange(json_object *renames, json_object *merges,
		    const struct change *c, const char *dir, size_t step)
{
	json_object *o = json_object_new_object();

	if (!o)
		gp_die("out of memory");
	if (c->merge) {
		json_object_object_add(o, "from", jstring(c->old, c->oldlen));
		json_object_object_add(o, "into", jstring(c->new, c->newlen));
	} else {
		json_object_object_add(o, "dir", jstring(dir, strlen(dir)));
		json_object_object_add(o, "old", jstring(c->old, c->oldlen));
		json_object_object_add(o, "new", jstring(c->new, c->newlen));
	}
	json_object_object_add(o, "inode", json_object_new_int64((int64_t)c->ino));
	json_object_object_add(o, "planned", json_object_new_boolean(c->planned));
	json_object_object_add(o, "step", json_object_new_int64((int64_t)step));
	json_object_array_add(c->merge ? merges : renames, o);
}

/*
 * Each change the plan holds (dry run) or the run made, in order, with
 * the directory of a rename: FN(CTX, change, dir).  Planned, directories
 * are converted children first, as the run converts them.
 */
static void each_change(const struct convert_result *r,
			void (*fn)(void *, const struct change *,
				   const char *),
			void *ctx)
{
	size_t i;

	if (r->o->dry_run) {
		for (i = r->plan->ndirs; i-- > 0;) {
			const struct plan_dir *pd = &r->plan->dirs[i];

			for (size_t j = 0; j < pd->nchanges; j++)
				fn(ctx, &pd->changes[j], pd->changes[j].dir ?
				   pd->changes[j].dir : pd->path);
		}
		return;
	}
	for (i = 0; i < r->out->nchanges; i++)
		fn(ctx, &r->out->changes[i], r->out->changes[i].dir);
}

struct json_changes {
	json_object *renames, *merges;
	size_t steps;
};

static void add_json(void *ctx, const struct change *c, const char *dir)
{
	struct json_changes *jc = ctx;

	jchange(jc->renames, jc->merges, c, dir, ++jc->steps);
}

static void add_human(void *ctx, const struct change *c, const char *dir)
{
	const struct convert_result *r = ctx;

	print_change(c, dir, !r->o->dry_run);
}

static void count_merge(void *ctx, const struct change *c, const char *dir)
{
	(void)dir;
	*(size_t *)ctx += c->merge;
}

static size_t count_merges(const struct convert_result *r)
{
	size_t n = 0;

	each_change(r, count_merge, &n);
	return n;
}

/* The report and the outcome as one JSON object (gamepart.8, --json). */
static json_object *result_json(const struct convert_result *r,
				const char *outcome)
{
	const struct convert_options *o = r->o;
	const struct plan *plan = r->plan;
	const struct outcome *out = r->out;
	json_object *root = report_json(r->report);
	json_object *conv = json_object_new_object();
	json_object *arr = json_object_new_array();
	struct json_changes jc = { 0 };

	if (!root || !conv || !arr)
		gp_die("out of memory");
	json_object_object_add(conv, "outcome",
			       json_object_new_string(outcome));
	json_object_object_add(conv, "dry_run",
			       json_object_new_boolean(o->dry_run));
	json_object_object_add(conv, "on_collision",
			       json_object_new_string(collision_policy_name(r->mode.policy)));
	json_object_object_add(conv, "directories_to_convert",
			       json_object_new_int64((int64_t)plan->ndirs));
	json_object_object_add(conv, "directories_converted",
			       json_object_new_int64((int64_t)out->converted));
	if (!o->offline) {
		json_object *left = json_object_new_array();

		json_object_object_add(conv, "directories",
				       json_object_new_string(r->mode.replace ?
							      "replace" : "keep"));
		json_object_object_add(conv, "directories_made_meanwhile",
				       json_object_new_int64((int64_t)out->late_dirs));
		for (size_t i = 0; i < out->nunconverted; i++)
			json_object_array_add(left,
				jstring(out->unconverted[i],
					strlen(out->unconverted[i])));
		json_object_object_add(conv, "not_converted", left);
	}
	json_object_object_add(conv, o->offline ? "entries_relinked" :
			       "entries_moved",
			       json_object_new_int64((int64_t)out->moved));
	if (o->offline && out->undo_written)
		json_object_object_add(conv, "undo_file",
				       json_object_new_string(r->undo_file));
	if (r->record)
		json_object_object_add(conv, "record",
				       json_object_new_string(r->record));
	jc.renames = arr;
	jc.merges = json_object_new_array();
	if (!jc.merges)
		gp_die("out of memory");
	each_change(r, add_json, &jc);
	json_object_object_add(conv, "renames", jc.renames);
	json_object_object_add(conv, "merges", jc.merges);
	json_object_object_add(root, "convert", conv);
	return root;
}

int write_record(const struct convert_result *r, const char *outcome,
		 int dirfd, const char *name)
{
	json_object *root = result_json(r, outcome);
	int ret = report_write_json(root, dirfd, name, (uid_t)-1, (gid_t)-1);

	json_object_put(root);
	return ret;
}

int print_result(const struct convert_result *r, const char *outcome)
{
	const struct convert_options *o = r->o;
	const struct plan *plan = r->plan;
	const struct outcome *out = r->out;
	size_t merges;

	if (o->json) {
		json_object *root = result_json(r, outcome);

		fputs(report_json_text(root), stdout);
		fputc('\n', stdout);
		json_object_put(root);
		return ferror(stdout) ? -1 : 0;
	}

	if (report_print_human(r->report, stdout) < 0)
		return -1;
	each_change(r, add_human, (void *)r);
	merges = count_merges(r);
	if (o->dry_run)
		printf("would convert %zu director%s (%zu already casefolded), renaming %zu name%s",
		       plan->ndirs, plan->ndirs == 1 ? "y" : "ies", plan->casefolded,
		       plan_renames(plan), plan_renames(plan) == 1 ? "" : "s");
	else
		printf("%s: %zu director%s converted, %zu entr%s %s, %zu renamed",
		       outcome, out->converted, out->converted == 1 ? "y" : "ies",
		       out->moved, out->moved == 1 ? "y" : "ies",
		       o->offline ? "relinked" : "moved", out->nchanges - merges);
	if (r->mode.policy == ON_COLLISION_MERGE)
		printf(", %s %zu director%s", o->dry_run ? "merging" : "merged",
		       merges, merges == 1 ? "y" : "ies");
	if (out->late_dirs)
		printf(" (%zu made during the conversion)", out->late_dirs);
	putchar('\n');
	if (r->record)
		printf("record: %s (these renames and merges, as --json gives them, kept after the journal is gone)\n",
		       r->record);
	return ferror(stdout) ? -1 : 0;
}

int plan_stops(const struct convert_result *r)
{
	const struct convert_options *o = r->o;
	const struct plan *plan = r->plan;

	if (plan->refused) {
		print_result(r, "stopped");
		gp_warn("%s: %zu name%s that a strict casefolded directory refuses, nothing changed",
			o->arg, plan->refused, plan->refused == 1 ? "" : "s");
		return EXIT_FINDINGS;
	}
	if (plan->groups && r->mode.policy == ON_COLLISION_FAIL) {
		print_result(r, "stopped");
		gp_warn("%s: %zu group%s of names collide, nothing changed (%s)",
			o->arg, plan->groups, plan->groups == 1 ? "" : "s",
			o->offline ?
			"--on-collision=rename renames them; merging directories needs the filesystem mounted" :
			"--on-collision=merge merges directories and renames files, =rename renames both");
		return EXIT_FINDINGS;
	}
	if (plan->unnamed) {
		print_result(r, "stopped");
		gp_warn("%s: %zu name%s cannot be renamed, nothing changed",
			o->arg, plan->unnamed, plan->unnamed == 1 ? "" : "s");
		return EXIT_FINDINGS;
	}
	if (o->dry_run)
		return print_result(r, "dry run") < 0 ? EXIT_TROUBLE :
		       EXIT_NOTHING_FOUND;
	return -1;
}

