// SPDX-License-Identifier: GPL-2.0
/*
 * Converting an unmounted filesystem (--offline): each planned directory
 * is rebuilt casefolded in place through libext2fs (lib/offline.h),
 * keeping its inode, with every overwritten block saved first to an undo
 * file (lib/undo.h).  libext2fs has no journal: an interrupted run is
 * rolled back with e2undo, then the conversion is made again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <et/com_err.h>
#include <ext2fs/ext2fs.h>

#include "plan.h"
#include "lib/crash.h"
#include "lib/fold.h"
#include "lib/offline.h"
#include "lib/progress.h"
#include "lib/report.h"
#include "lib/target.h"
#include "lib/undo.h"
#include "lib/util.h"

struct offline_run {
	const struct convert_options *o;
	const char *undo_file;
	struct target target;
	struct folder *folder;
	struct report *report;
	struct plan plan;
	bool enable_casefold;	/* the feature is off: turn it on */
	struct outcome out;
	struct crash_hook crash;
	char *label;		/* of the progress line */
};

static int result(struct offline_run *r, const char *outcome_text)
{
	struct convert_result res = {
		.o = r->o, .mode = { .policy = r->o->policy },
		.report = r->report, .plan = &r->plan, .out = &r->out,
		.undo_file = r->undo_file,
	};

	return print_result(&res, outcome_text);
}

/* Run an e2fsprogs program, its output on stderr; its exit status, or -1. */
static int run_tool(const char *const argv[])
{
	int status = run_e2fsprogs(argv, true);

	if (status < 0)
		return -1;
	if (!WIFEXITED(status)) {
		gp_warn("%s: killed by signal %d", argv[0], WTERMSIG(status));
		return -1;
	}
	return WEXITSTATUS(status);
}

/* Roll an interrupted offline conversion back through its undo file. */
static int roll_back(struct offline_run *r)
{
	const char *arg = r->o->arg;
	const char *undo[] = { "e2undo", r->undo_file, arg, NULL };
	const char *fsck[] = { "e2fsck", "-fp", arg, NULL };
	int st;

	gp_warn("%s: rolling the interrupted conversion back: e2undo %s %s",
		arg, r->undo_file, arg);
	st = run_tool(undo);
	if (st) {
		if (st > 0)
			gp_warn("%s: e2undo failed (exit status %d); nothing more changed (if it found the superblock changed, the run was stopped right after writing it: e2undo -f %s %s replays the file anyway)",
				arg, st, r->undo_file, arg);
		return -1;
	}
	/*
	 * e2undo marks a filesystem rolled back from an unfinished undo file
	 * as needing a check; after a whole roll-back it finds it clean.
	 */
	st = run_tool(fsck);
	if (st < 0 || st > 1) {
		if (st > 1)
			gp_warn("%s: e2fsck -fp after the roll-back: exit status %d; check it by hand: e2fsck -f %s",
				arg, st, arg);
		return -1;
	}
	if (unlink(r->undo_file) < 0) {
		gp_warn("%s: %s", r->undo_file, strerror(errno));
		return -1;
	}
	return 0;
}

/* Before the filesystem is opened for writing: the undo file's story. */
static int check_undo_file(struct offline_run *r)
{
	const struct convert_options *o = r->o;
	int state = undo_file_state(r->undo_file);

	if (state < 0) {
		gp_warn("%s: %s", r->undo_file, errno == EINVAL ?
			"exists and is not an undo file, nothing changed" :
			strerror(errno));
		return -1;
	}
	if (state == UNDO_EMPTY && !o->dry_run) {
		/* The interrupted run changed nothing: nothing to roll back. */
		if (unlink(r->undo_file) < 0) {
			gp_warn("%s: %s", r->undo_file, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (o->dry_run) {
		if (state == UNDO_UNFINISHED)
			gp_warn("%s: note: an interrupted conversion left %s; what is read may be half converted",
				o->arg, r->undo_file);
		return 0;
	}
	if (state == UNDO_UNFINISHED && !o->resume) {
		gp_warn("%s: an interrupted conversion left %s; finish it with: gamepart convert --offline --resume %s (or roll it back with: e2undo %s %s)",
			o->arg, r->undo_file, o->arg, r->undo_file, o->arg);
		return -1;
	}
	if ((state == UNDO_NONE || state == UNDO_FINISHED) && o->resume) {
		gp_warn("%s: no interrupted conversion to resume (no unfinished %s)",
			o->arg, r->undo_file);
		return -1;
	}
	return state == UNDO_UNFINISHED ? roll_back(r) : 0;
}

/* Refusals that need the open filesystem. */
static int refuse_offline(struct offline_run *r)
{
	ext2_filsys fs = r->target.fs;
	const char *arg = r->o->arg;

	if (r->o->dry_run)
		return 0;
	if (offline_needs_fsck(fs)) {
		gp_warn("%s: not cleanly unmounted, or has errors; run e2fsck -f %s first",
			arg, arg);
		return -1;
	}
	/* Rebuilt directories change their owners' block counts. */
	if (ext2fs_has_feature_quota(fs->super)) {
		gp_warn("%s: the quota feature is on, and offline conversion does not update quota usage; convert the mounted tree instead",
			arg);
		return -1;
	}
	if (ext2fs_has_feature_inline_data(fs->super)) {
		gp_warn("%s: the inline_data feature is on, and offline conversion does not rebuild inline directories; convert the mounted tree instead",
			arg);
		return -1;
	}
	return 0;
}

/* The new name the plan gives an entry of the directory being rebuilt. */
static const char *planned_name(void *ctx, const struct dir_entry *e)
{
	const struct plan_dir *pd = ctx;

	for (size_t i = 0; i < pd->nchanges; i++) {
		const struct change *r = &pd->changes[i];

		if (r->ino == e->ino && r->oldlen == e->len &&
		    !memcmp(r->old, e->name, e->len))
			return r->new;
	}
	return NULL;
}

/*
 * Convert the planned directories.  A failure leaves the undo file
 * unfinished, for --resume; the filesystem stays marked not clean.
 */
static int run_offline(struct offline_run *r)
{
	ext2_filsys fs = r->target.fs;
	errcode_t err;
	size_t i, j;

	/* Until the end, fsck must look at it before anything mounts it. */
	r->out.undo_written = true;
	err = r->enable_casefold ? offline_enable_casefold(fs) : 0;
	if (!err)
		err = offline_changes_begin(fs);
	if (err) {
		gp_warn("%s: %s", r->o->arg, error_message(err));
		return -1;
	}
	/*
	 * No crash point here: until the next block's undo record, the undo
	 * file's copy of the superblock is the one before this flush, and
	 * e2undo refuses to replay it onto the new one without -f.
	 */
	progress_begin(r->label);
	for (i = 0; i < r->plan.ndirs; i++) {
		struct plan_dir *pd = &r->plan.dirs[i];

		progress_show("converting: %zu of %zu directories", i + 1,
			      r->plan.ndirs);
		err = offline_rebuild_casefolded(fs, (ext2_ino_t)pd->ino,
						 planned_name, pd,
						 &r->out.moved, &r->crash);
		if (err) {
			progress_end();
			gp_warn("%s: %s: %s", r->o->arg, pd->path,
				error_message(err));
			return -1;
		}
		r->out.converted++;
		for (j = 0; j < pd->nchanges; j++)
			outcome_note(&r->out, pd->path, &pd->changes[j]);
	}
	progress_end();
	offline_changes_end(fs);
	err = ext2fs_close_free(&r->target.fs);
	if (err) {
		gp_warn("%s: %s", r->o->arg, error_message(err));
		return -1;
	}
	return 0;
}

/*
 * Open TARGET (ACCESS: read-only, or through the undo file) and plan;
 * the exit status if the conversion stops here, or -1 to go on.
 */
static int offline_plan(struct offline_run *r, enum target_access access)
{
	struct convert_result res = {
		.o = r->o, .mode = { .policy = r->o->policy },
		.plan = &r->plan, .out = &r->out,
	};
	errcode_t err;
	int ret;

	if (target_open(&r->target, r->o->arg, NULL, access) < 0)
		return EXIT_TROUBLE;
	if (r->target.kind != TARGET_OFFLINE) {
		gp_warn("%s: a directory; --offline takes an unmounted device or image",
			r->o->arg);
		return EXIT_TROUBLE;
	}
	if (refuse_offline(r) < 0)
		return EXIT_TROUBLE;
	r->enable_casefold = !r->target.info.casefold_feature;
	folder_free(r->folder);
	r->folder = target_folder(&r->target, false);
	if (!r->folder)
		return EXIT_TROUBLE;
	err = access != TARGET_READ ? ext2fs_read_bitmaps(r->target.fs) : 0;
	if (err) {
		gp_warn("%s: %s", r->o->arg, error_message(err));
		return EXIT_TROUBLE;
	}
	report_free(r->report);
	r->report = res.report = report_new();
	if (plan_tree(r->o, r->o->policy, &r->target, r->folder, r->report,
		      &r->plan) < 0)
		return EXIT_TROUBLE;
	ret = plan_stops(&res);
	if (ret >= 0)
		return ret;
	if (!r->plan.ndirs && !r->enable_casefold) {
		result(r, "nothing to do, every directory is casefolded");
		return EXIT_NOTHING_FOUND;
	}
	return -1;
}

static int convert(struct offline_run *r)
{
	const struct convert_options *o = r->o;
	int ret;

	if (check_undo_file(r) < 0)
		return EXIT_TROUBLE;
	/* Read-only first: refusals, collisions and no-ops write nothing. */
	ret = offline_plan(r, TARGET_READ);
	if (ret >= 0)
		return ret;
	target_close(&r->target);

	if (undo_file_state(r->undo_file) == UNDO_FINISHED) {
		/* As tune2fs does with its own: one undo file per target. */
		gp_warn("%s: note: replacing %s, the undo file of an earlier run",
			o->arg, r->undo_file);
		if (unlink(r->undo_file) < 0) {
			gp_warn("%s: %s", r->undo_file, strerror(errno));
			return EXIT_TROUBLE;
		}
	}
	/* The default directory is made on first use, private to root. */
	if (!o->undo_file && mkdir(undo_default_dir(), 0700) < 0 &&
	    errno != EEXIST) {
		gp_warn("%s: %s (give the undo file a place with --undo-file=FILE)",
			undo_default_dir(), strerror(errno));
		return EXIT_TROUBLE;
	}
	if (undo_prepare(r->undo_file) < 0)
		return EXIT_TROUBLE;
	if (!o->json)
		printf("undo file: %s: every block the conversion overwrites is saved there first\n",
		       r->undo_file);
	ret = offline_plan(r, TARGET_WRITE_UNDO);
	if (ret >= 0) {
		/* Nothing was written: the undo file holds nothing to keep. */
		target_close(&r->target);
		if (unlink(r->undo_file) < 0 && errno != ENOENT)
			gp_warn("%s: %s", r->undo_file, strerror(errno));
		return ret;
	}
	if (run_offline(r) < 0) {
		if (r->target.fs)
			undo_abandon(r->target.fs, r->undo_file);
		r->target.fs = NULL;
		result(r, "interrupted");
		gp_warn("%s: the conversion stopped; roll it back and convert again with: gamepart convert --offline --resume%s %s (or only roll it back with: e2undo %s %s)",
			o->arg, o->policy == ON_COLLISION_RENAME ?
			" --on-collision=rename" : "", o->arg, r->undo_file,
			o->arg);
		return EXIT_TROUBLE;
	}
	if (result(r, "converted") < 0)
		return EXIT_TROUBLE;
	if (!o->json)
		printf("undo file: %s (to roll the conversion back: e2undo %s %s)\n",
		       r->undo_file, r->undo_file, o->arg);
	return EXIT_NOTHING_FOUND;
}

int convert_offline(const struct convert_options *o)
{
	struct offline_run r = { .o = o, .target = { .dirfd = -1 } };
	char *undo_default = NULL;
	int ret;

	crash_hook_init(&r.crash);
	r.label = xasprintf("gamepart: convert: %s", o->arg);
	r.undo_file = o->undo_file;
	if (!r.undo_file)
		r.undo_file = undo_default = undo_default_path(o->arg);
	ret = convert(&r);
	plan_free(&r.plan);
	outcome_free(&r.out);
	report_free(r.report);
	folder_free(r.folder);
	target_close(&r.target);
	free(undo_default);
	free(r.label);
	return ret;
}
