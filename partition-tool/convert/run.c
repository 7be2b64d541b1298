// SPDX-License-Identifier: GPL-2.0
/*
 * Converting a mounted tree: make every directory of it casefolded (+F)
 * in place, moving entries and never copying data.
 *
 * The kernel sets +F only on an empty directory.  Each directory that is
 * not +F is converted on its own, children before parents, either
 * keeping its inode (keep.c, the default) or, for those below PATH with
 * --directories=replace, replaced by a new one (replace.c).
 *
 * The temporary directories and the journal live in a work directory
 * beside the tree (workspace.h), on the same filesystem and outside the
 * tree, so the tree never contains them.  The journal records, before
 * anything moves, which directory is being converted and the renames
 * planned for it; everything else is read back from the filesystem, so
 * after a crash --resume finishes the directory the journal names and
 * converts the rest.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "directory.h"
#include "lib/crash.h"
#include "lib/fold.h"
#include "lib/holders.h"
#include "lib/progress.h"
#include "lib/report.h"
#include "lib/target.h"
#include "lib/util.h"

/* Walks for directories made during the conversion, at most. */
#define LATE_ROUNDS	5

/* An online run: what it works with, what it planned and what it did. */
struct online_run {
	const struct convert_options *o;
	struct convert_mode mode;
	struct target target;
	struct folder *folder;
	struct report *report;
	struct plan plan;
	struct workspace ws;
	struct outcome out;
	struct crash_hook crash;
	char *record;		/* where the record of the changes went */
};

static int result(struct online_run *r, const char *outcome_text)
{
	struct convert_result res = {
		.o = r->o, .mode = r->mode, .report = r->report,
		.plan = &r->plan, .out = &r->out, .record = r->record,
	};

	return print_result(&res, outcome_text);
}

/*
 * The journal goes when the conversion ends, and with it the list of
 * what was renamed and merged: keep that beside PATH, as
 * gamepart-convert-NAME-DATE-TIME.json, when anything was.  A failure
 * to write it is said, and the conversion stands.
 */
static void keep_record(struct online_run *r, const char *outcome_text)
{
	struct convert_result res = {
		.o = r->o, .mode = r->mode, .report = r->report,
		.plan = &r->plan, .out = &r->out,
	};
	/* Named from the real path: PATH may be ".", or end in a link. */
	char *real = realpath(r->o->arg, NULL), *slash, *name;
	char stamp[32];
	time_t now = time(NULL);

	if (!r->out.nchanges)
		goto out;
	if (!real || !(slash = strrchr(real, '/')) || !slash[1]) {
		gp_warn("%s: cannot name its record (%s); the renames and merges are in this output only",
			r->o->arg, real ? "the root" : strerror(errno));
		goto out;
	}
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	name = xasprintf("gamepart-convert-%s-%s.json", slash + 1, stamp);
	if (write_record(&res, outcome_text, r->ws.parentfd, name) < 0)
		gp_warn("%s/../%s: %s; the renames and merges are in this output only",
			r->o->arg, name, strerror(errno));
	else
		r->record = xasprintf("%.*s/%s", (int)(slash - real), real, name);
	free(name);
out:
	free(real);
}

static int refuse_unconvertible(const struct online_run *r)
{
	const struct fs_info *fs = &r->target.info;
	const char *arg = r->o->arg;
	struct statvfs sv;

	if (!fs->known) {
		gp_warn("%s: cannot read the filesystem's features (%s); run as root",
			arg, fs->why);
		return -1;
	}
	if (!fs->casefold_feature) {
		gp_warn("%s: the filesystem has no casefold feature; unmount it, then convert it offline, which turns the feature on: gamepart convert --offline %s DIR (DIR: this directory's path inside the filesystem)",
			arg, fs->device[0] ? fs->device : "DEVICE");
		return -1;
	}
	if (fstatvfs(r->target.dirfd, &sv) < 0) {
		gp_warn("%s: %s", arg, strerror(errno));
		return -1;
	}
	if (sv.f_flag & ST_RDONLY) {
		gp_warn("%s: the filesystem is mounted read-only", arg);
		return -1;
	}
	/* The work directory, its journal and one temporary directory. */
	if (sv.f_favail < 3) {
		gp_warn("%s: %llu free inode%s, 3 needed for the temporary directories",
			arg, (unsigned long long)sv.f_favail,
			sv.f_favail == 1 ? "" : "s");
		return -1;
	}
	return 0;
}

/*
 * While a directory converts, its entries are away for a moment: a game
 * or Steam holding files under PATH may find one missing.  Refused unless
 * forced; a dry run only says so.
 */
static int refuse_held(const struct convert_options *o)
{
	char *dir = realpath(o->arg, NULL), *names;
	struct holders h;

	if (!dir)
		return 0;	/* the target layer has opened it: let it say */
	holders_find(dir, &h);
	free(dir);
	if (!h.count)
		return 0;
	names = holders_text(&h, 5);
	if (o->dry_run || o->force)
		gp_warn("%s: note: in use by %s; their files are away for a moment while each directory converts",
			o->arg, names);
	else
		gp_warn("%s: in use by %s, whose files would be away for a moment while each directory converts; close %s, or give --force",
			o->arg, names, h.count == 1 ? "it" : "them");
	free(names);
	holders_free(&h);
	return o->dry_run || o->force ? 0 : -1;
}

/*
 * Finish the directory the journal names.  PATH itself always keeps its
 * inode: its work directory is named after it, and bind mounts of a
 * library's root, the likeliest, keep working.
 */
static int finish_dir(struct online_run *r)
{
	if (r->ws.journal.replace && strcmp(r->ws.journal.path, "."))
		return replace_dir(&r->ws, &r->out);
	return keep_dir(&r->ws, &r->out);
}

/*
 * The atime and mtime of PATH beneath the root; 1 if it is gone, -1
 * after a message.
 */
static int times_of(struct online_run *r, const char *path,
		    struct timespec times[2])
{
	int fd = open_beneath(r->target.dirfd, path);
	struct stat st;

	if (fd < 0 && errno == ENOENT)
		return 1;
	if (fd < 0 || fstat(fd, &st) < 0) {
		gp_warn("%s/%s: %s", r->o->arg, path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	return 0;
}

/*
 * A directory to rename may have been replaced since the plan
 * (--directories=replace): the journal and the report give the inode it
 * has now.
 */
static int refresh_rename_inodes(struct online_run *r, struct plan_dir *pd)
{
	int fd = open_beneath(r->target.dirfd, pd->path);
	struct stat est;

	if (fd < 0) {
		if (errno == ENOENT)
			return 1;
		gp_warn("%s/%s: %s", r->o->arg, pd->path, strerror(errno));
		return -1;
	}
	for (size_t k = 0; k < pd->nchanges; k++) {
		struct change *c = &pd->changes[k];

		/* A merge names the directory kept, by its path. */
		if (c->merge) {
			int kfd = open_beneath(r->target.dirfd, c->new);

			if (kfd >= 0 && fstat(kfd, &est) == 0)
				c->ino = est.st_ino;
			if (kfd >= 0)
				close(kfd);
		} else if (!c->dir &&
			 fstatat(fd, c->old, &est, AT_SYMLINK_NOFOLLOW) == 0)
			c->ino = est.st_ino;
	}
	close(fd);
	return 0;
}

/* Convert the directory PD of the plan; -1 when the conversion must stop. */
static int run_one(struct online_run *r, struct plan_dir *pd)
{
	struct journal *j = &r->ws.journal;
	struct timespec times[2], parent_times[2] = { { 0 } };
	bool replacing;
	int ret = refresh_rename_inodes(r, pd);

	if (ret == 0)
		ret = times_of(r, pd->path, times);
	/*
	 * Removed or renamed since the plan (by a writer): nothing of it
	 * moved; if it is elsewhere, the next walk finds it.
	 */
	if (ret != 0)
		return ret < 0 ? -1 : 0;
	/*
	 * Replacing it changes its parent's entry, and so its parent's
	 * times, which the journal keeps to restore.
	 */
	replacing = j->replace && strcmp(pd->path, ".");
	if (replacing) {
		char *parent = parent_path(pd->path);

		ret = times_of(r, parent, parent_times);
		free(parent);
		if (ret != 0)
			return ret < 0 ? -1 : 0;
	}
	if (journal_begin(j, pd->path, pd->ino, times,
			  replacing ? parent_times : NULL,
			  pd->changes, pd->nchanges) < 0) {
		gp_warn("%s/../%s/" CONVERT_JOURNAL ": %s", r->o->arg,
			r->ws.workname, strerror(errno));
		return -1;
	}
	crash_point(&r->crash, "directory's plan recorded");
	return finish_dir(r);
}

/* Convert every directory of PLAN, children first. */
static int run_plan(struct online_run *r, struct plan *plan)
{
	char *label = xasprintf("gamepart: convert: %s", r->o->arg);
	int ret = 0;

	progress_begin(label);
	for (size_t i = plan->ndirs; i-- > 0 && ret >= 0;) {
		progress_show("converting: %zu of %zu directories",
			      plan->ndirs - i, plan->ndirs);
		ret = run_one(r, &plan->dirs[i]);
	}
	progress_end();
	free(label);
	return ret;
}

/*
 * Plan; the exit status if the conversion stops before its first change,
 * or -1 to go on.  With nothing to convert it stops, unless MORE (work
 * besides the directories) is to be done.
 */
static int plan_verdict(struct online_run *r, bool more)
{
	struct convert_result res = {
		.o = r->o, .mode = r->mode, .report = r->report,
		.plan = &r->plan, .out = &r->out,
	};
	int ret;

	report_free(r->report);
	r->report = res.report = report_new();
	if (plan_tree(r->o, r->mode.policy, &r->target, r->folder, r->report,
		      &r->plan) < 0)
		return EXIT_TROUBLE;
	ret = plan_stops(&res);
	if (ret >= 0)
		return ret;
	if (!r->plan.ndirs && !more) {
		result(r, "nothing to do, every directory is casefolded");
		return EXIT_NOTHING_FOUND;
	}
	return -1;
}

/*
 * Directories that a writer made during the conversion inside one not
 * converted yet are not +F (those made in a converted one inherit it),
 * nor are those it moved in from elsewhere: the tree is walked again and
 * they are converted the same way, until a walk finds none.  A round that cannot convert them (their names
 * collide under the fail policy, a writer keeps making them) leaves
 * them, named in *LEFT.  -1 if the conversion of one failed.
 */
static int convert_late_dirs(struct online_run *r, size_t *left)
{
	struct plan late = { 0 };
	int round, ret = 0;

	*left = 0;
	for (round = 0; ret == 0; round++) {
		struct report *report = report_new();

		if (plan_tree(r->o, r->mode.policy, &r->target, r->folder,
			      report, &late) < 0) {
			ret = -1;
		} else if (late.ndirs && (round == LATE_ROUNDS ||
					  late.refused || late.unnamed ||
					  (late.groups &&
					   r->mode.policy == ON_COLLISION_FAIL))) {
			r->out.unconverted = xcalloc(late.ndirs,
						     sizeof(*r->out.unconverted));
			for (size_t i = 0; i < late.ndirs; i++) {
				r->out.unconverted[i] = xstrdup(late.dirs[i].path);
				gp_warn("%s/%s: made during the conversion and not converted: %s",
					r->o->arg, late.dirs[i].path,
					round == LATE_ROUNDS ?
					"directories keep appearing" :
					"its names collide or cannot be kept (gamepart check says which)");
			}
			*left = r->out.nunconverted = late.ndirs;
		} else if (late.ndirs) {
			r->out.late_dirs += late.ndirs;
			ret = run_plan(r, &late);
			report_free(report);
			continue;
		}
		report_free(report);
		break;
	}
	plan_free(&late);
	return ret;
}

/* Check, then convert; the exit status. */
static int convert_tree(struct online_run *r)
{
	int ret = plan_verdict(r, r->o->resume);
	size_t left = 0;

	if (ret >= 0)
		return ret;
	if (r->ws.journal.fd < 0 && workspace_make(&r->ws, &r->mode) < 0)
		return EXIT_TROUBLE;
	if (run_plan(r, &r->plan) < 0 || convert_late_dirs(r, &left) < 0 ||
	    workspace_remove(&r->ws) < 0) {
		result(r, "interrupted");
		gp_warn("%s: the conversion stopped; once the cause is gone: gamepart convert --resume %s",
			r->o->arg, r->o->arg);
		return EXIT_TROUBLE;
	}
	if (left) {
		keep_record(r, "converted, but for directories made meanwhile");
		result(r, "converted, but for directories made meanwhile");
		gp_warn("%s: %zu director%s made during the conversion %s not casefolded; convert again to finish",
			r->o->arg, left, left == 1 ? "y" : "ies",
			left == 1 ? "is" : "are");
		return EXIT_FINDINGS;
	}
	keep_record(r, "converted");
	return result(r, "converted") < 0 ? EXIT_TROUBLE : EXIT_NOTHING_FOUND;
}

static int resume(struct online_run *r)
{
	struct journal *j = &r->ws.journal;
	const struct convert_options *o = r->o;
	int ret = workspace_open(&r->ws);

	if (ret == 1) {
		gp_warn("%s: no interrupted conversion to resume", o->arg);
		return EXIT_TROUBLE;
	}
	if (ret < 0)
		return EXIT_TROUBLE;
	/* Only the work directory was left: the tree is converted. */
	if (ret == 2)
		return workspace_remove_dir(&r->ws) < 0 ? EXIT_TROUBLE :
		       convert_tree(r);
	if (journal_read(j) < 0) {
		if (j->version)
			gp_warn("%s/../%s/" CONVERT_JOURNAL ": written by another gamepart (journal version %s), whose plans follow other rules: finish the conversion with it",
				o->arg, r->ws.workname, j->version);
		else
			gp_warn("%s/../%s/" CONVERT_JOURNAL ": unreadable: %s",
				o->arg, r->ws.workname, strerror(errno));
		return EXIT_TROUBLE;
	}
	r->mode.policy = j->policy;
	/* A directory in flight is finished the way it was started. */
	if (o->replace_given && o->replace != j->replace) {
		gp_warn("%s: the interrupted conversion %s directories: resume it without --directories",
			o->arg, j->replace ? "replaces" : "keeps");
		return EXIT_TROUBLE;
	}
	r->mode.replace = j->replace;
	/* What the interrupted run did is part of this one's report. */
	for (size_t i = 0; i < j->nhistory; i++)
		outcome_note(&r->out, NULL, &j->history[i]);
	/* The directory in flight, if its plan was complete. */
	r->ws.resuming = true;
	ret = j->in_flight ? finish_dir(r) : 0;
	r->ws.resuming = false;
	if (ret < 0) {
		result(r, "interrupted");
		return EXIT_TROUBLE;
	}
	/*
	 * A policy given now applies to what is left (the directory in
	 * flight was planned under the journal's); journalled, so that a
	 * second interruption resumes under it too.
	 */
	if (o->policy_given && o->policy != j->policy) {
		if (journal_policy(j, o->policy) < 0) {
			gp_warn("%s/../%s/" CONVERT_JOURNAL ": %s", o->arg,
				r->ws.workname, strerror(errno));
			return EXIT_TROUBLE;
		}
		r->mode.policy = o->policy;
	}
	return convert_tree(r);
}

static int start(struct online_run *r)
{
	const struct convert_options *o = r->o;
	int ret;

	if (o->resume)
		return resume(r);
	/* A pending conversion must be resumed, not started over. */
	ret = workspace_open(&r->ws);
	if (ret == 0) {
		gp_warn("%s: an interrupted conversion is pending; finish it with: gamepart convert --resume %s",
			o->arg, o->arg);
		return EXIT_TROUBLE;
	}
	/* --dry-run changes nothing, not even that leftover. */
	if (ret < 0 ||
	    (ret == 2 && !o->dry_run && workspace_remove_dir(&r->ws) < 0))
		return EXIT_TROUBLE;
	return convert_tree(r);
}

int convert_online(const struct convert_options *o)
{
	struct online_run r = {
		.o = o,
		.mode = { .policy = o->policy, .replace = o->replace },
	};
	int ret = EXIT_TROUBLE;

	crash_hook_init(&r.crash);
	journal_init(&r.ws.journal);
	r.ws.workfd = r.ws.parentfd = -1;
	if (target_open(&r.target, o->library ? o->library : o->arg,
			o->library ? o->subdir : NULL, TARGET_READ) < 0)
		return EXIT_TROUBLE;
	if (refuse_unconvertible(&r) < 0 || refuse_held(o) < 0 ||
	    workspace_init(&r.ws, o->arg, r.target.dirfd, &r.crash) < 0)
		goto out;
	r.folder = r.ws.folder = target_folder(&r.target, false);
	if (r.folder)
		ret = start(&r);
out:
	plan_free(&r.plan);
	free(r.record);
	outcome_free(&r.out);
	report_free(r.report);
	folder_free(r.folder);
	workspace_close(&r.ws);
	target_close(&r.target);
	return ret;
}
