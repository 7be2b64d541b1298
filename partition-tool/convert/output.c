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

static void print_rename(const char *dir, const struct rename *r, bool done)
{
	char *d = report_escape(dir, strlen(dir), true);
	char *o = report_escape(r->old, r->oldlen, true);
	char *n = report_escape(r->new, r->newlen, true);

	printf("%s: %s '%s' -> '%s' (inode %llu)%s\n", d,
	       done ? "renamed" : "would rename", o, n,
	       (unsigned long long)r->ino,
	       r->planned ? "" : ", a name that appeared during the conversion");
	free(d);
	free(o);
	free(n);
}

static json_object *jrename(const char *dir, const struct rename *r)
{
	json_object *o = json_object_new_object();
	char *d = report_escape(dir, strlen(dir), false);
	char *old = report_escape(r->old, r->oldlen, false);
	char *new = report_escape(r->new, r->newlen, false);

	if (!o)
		gp_die("out of memory");
	json_object_object_add(o, "dir", json_object_new_string(d));
	json_object_object_add(o, "old", json_object_new_string(old));
	json_object_object_add(o, "new", json_object_new_string(new));
	json_object_object_add(o, "inode", json_object_new_int64((int64_t)r->ino));
	json_object_object_add(o, "planned", json_object_new_boolean(r->planned));
	free(d);
	free(old);
	free(new);
	return o;
}

int print_result(const struct convert_result *r, const char *outcome)
{
	const struct convert_options *o = r->o;
	const struct plan *plan = r->plan;
	const struct outcome *out = r->out;
	size_t i, j;

	if (o->json) {
		json_object *root = report_json(r->report);
		json_object *conv = json_object_new_object();
		json_object *arr = json_object_new_array();

		if (!root || !conv || !arr)
			gp_die("out of memory");
		json_object_object_add(conv, "outcome",
				       json_object_new_string(outcome));
		json_object_object_add(conv, "dry_run",
				       json_object_new_boolean(o->dry_run));
		json_object_object_add(conv, "on_collision",
				       json_object_new_string(r->mode.policy == ON_COLLISION_RENAME ?
							      "rename" : "fail"));
		json_object_object_add(conv, "directories_to_convert",
				       json_object_new_int64((int64_t)plan->ndirs));
		json_object_object_add(conv, "directories_converted",
				       json_object_new_int64((int64_t)out->converted));
		if (!o->offline)
			json_object_object_add(conv, "directories",
					       json_object_new_string(r->mode.replace ?
								      "replace" : "keep"));
		json_object_object_add(conv, o->offline ? "entries_relinked" :
				       "entries_moved",
				       json_object_new_int64((int64_t)out->moved));
		if (o->offline && out->undo_written)
			json_object_object_add(conv, "undo_file",
					       json_object_new_string(r->undo_file));
		if (o->dry_run) {
			for (i = 0; i < plan->ndirs; i++)
				for (j = 0; j < plan->dirs[i].nrenames; j++)
					json_object_array_add(arr,
						jrename(plan->dirs[i].path,
							&plan->dirs[i].renames[j]));
		} else {
			for (i = 0; i < out->nrenames; i++)
				json_object_array_add(arr,
					jrename(out->rename_dirs[i],
						&out->renames[i]));
		}
		json_object_object_add(conv, "renames", arr);
		json_object_object_add(root, "convert", conv);
		fputs(json_object_to_json_string_ext(root,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE), stdout);
		fputc('\n', stdout);
		json_object_put(root);
		return ferror(stdout) ? -1 : 0;
	}

	if (report_print_human(r->report, stdout) < 0)
		return -1;
	if (o->dry_run) {
		for (i = 0; i < plan->ndirs; i++)
			for (j = 0; j < plan->dirs[i].nrenames; j++)
				print_rename(plan->dirs[i].path,
					     &plan->dirs[i].renames[j], false);
		printf("would convert %zu director%s (%zu already casefolded), renaming %zu name%s\n",
		       plan->ndirs, plan->ndirs == 1 ? "y" : "ies", plan->casefolded,
		       plan_renames(plan), plan_renames(plan) == 1 ? "" : "s");
	} else {
		for (i = 0; i < out->nrenames; i++)
			print_rename(out->rename_dirs[i], &out->renames[i], true);
		printf("%s: %zu director%s converted, %zu entr%s %s, %zu renamed\n",
		       outcome, out->converted, out->converted == 1 ? "y" : "ies",
		       out->moved, out->moved == 1 ? "y" : "ies",
		       o->offline ? "relinked" : "moved", out->nrenames);
	}
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
		gp_warn("%s: %zu group%s of names collide, nothing changed (--on-collision=rename renames them)",
			o->arg, plan->groups, plan->groups == 1 ? "" : "s");
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

