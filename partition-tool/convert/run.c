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
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "directory.h"
#include "lib/crash.h"
#include "lib/fold.h"
#include "lib/report.h"
#include "lib/target.h"
#include "lib/util.h"

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
};

static int result(struct online_run *r, const char *outcome_text)
{
	struct convert_result res = {
		.o = r->o, .mode = r->mode, .report = r->report,
		.plan = &r->plan, .out = &r->out,
	};

	return print_result(&res, outcome_text);
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
		gp_warn("%s: the filesystem has no casefold feature; unmount it, then: tune2fs -O casefold %s",
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

/* The atime and mtime of PATH beneath the root; -1 after a message. */
static int times_of(struct online_run *r, const char *path,
		    struct timespec times[2])
{
	int fd = open_beneath(r->target.dirfd, path);
	struct stat st;

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
		gp_warn("%s/%s: %s", r->o->arg, pd->path, strerror(errno));
		return -1;
	}
	for (size_t k = 0; k < pd->nrenames; k++)
		if (fstatat(fd, pd->renames[k].old, &est,
			    AT_SYMLINK_NOFOLLOW) == 0)
			pd->renames[k].ino = est.st_ino;
	close(fd);
	return 0;
}

/* Convert every directory of the plan, children first. */
static int run_plan(struct online_run *r)
{
	struct journal *j = &r->ws.journal;
	size_t i;

	for (i = r->plan.ndirs; i-- > 0;) {
		struct plan_dir *pd = &r->plan.dirs[i];
		struct timespec times[2], parent_times[2] = { { 0 } };
		bool replacing;

		if (refresh_rename_inodes(r, pd) < 0 ||
		    times_of(r, pd->path, times) < 0)
			return -1;
		/*
		 * Replacing it changes its parent's entry, and so its
		 * parent's times, which the journal keeps to restore.
		 */
		replacing = j->replace && strcmp(pd->path, ".");
		if (replacing) {
			char *parent = parent_path(pd->path);
			int ret = times_of(r, parent, parent_times);

			free(parent);
			if (ret < 0)
				return -1;
		}
		if (journal_begin(j, pd->path, pd->ino, times,
				  replacing ? parent_times : NULL,
				  pd->renames, pd->nrenames) < 0) {
			gp_warn("%s/../%s/" CONVERT_JOURNAL ": %s", r->o->arg,
				r->ws.workname, strerror(errno));
			return -1;
		}
		crash_point(&r->crash, "directory's plan recorded");
		if (finish_dir(r) < 0)
			return -1;
	}
	return 0;
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

/* Check, then convert; the exit status. */
static int convert_tree(struct online_run *r)
{
	int ret = plan_verdict(r, r->o->resume);

	if (ret >= 0)
		return ret;
	if (r->ws.journal.fd < 0 && workspace_make(&r->ws, &r->mode) < 0)
		return EXIT_TROUBLE;
	if (run_plan(r) < 0 || workspace_remove(&r->ws) < 0) {
		result(r, "interrupted");
		gp_warn("%s: the conversion stopped; once the cause is gone: gamepart convert --resume %s",
			r->o->arg, r->o->arg);
		return EXIT_TROUBLE;
	}
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
		gp_warn("%s/../%s/" CONVERT_JOURNAL ": unreadable: %s", o->arg,
			r->ws.workname, strerror(errno));
		return EXIT_TROUBLE;
	}
	/* A policy given now applies to what is left; else the journal's. */
	if (o->policy_given)
		j->policy = o->policy;
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
		outcome_note_rename(&r->out, j->history_dirs[i],
				    &j->history[i]);
	/* The directory in flight, if its plan was complete. */
	if (j->in_flight && finish_dir(r) < 0) {
		result(r, "interrupted");
		return EXIT_TROUBLE;
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
	if (target_open(&r.target, o->arg, NULL, TARGET_READ) < 0)
		return EXIT_TROUBLE;
	if (refuse_unconvertible(&r) < 0 ||
	    workspace_init(&r.ws, o->arg, r.target.dirfd, &r.crash) < 0)
		goto out;
	r.folder = target_folder(&r.target, false);
	if (r.folder)
		ret = start(&r);
out:
	plan_free(&r.plan);
	outcome_free(&r.out);
	report_free(r.report);
	folder_free(r.folder);
	workspace_close(&r.ws);
	target_close(&r.target);
	return ret;
}
