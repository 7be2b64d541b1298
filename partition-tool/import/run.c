// SPDX-License-Identifier: GPL-2.0
/*
 * Running an import: check what SRC and LIBRARY are, plan, write the
 * journal, then take the steps in order (steps.c).
 *
 * Every step can be taken again after a crash.  Every so often the
 * filesystem is synced and the journal records how many steps are on
 * disk; a resumed run takes again the steps after that, replacing what
 * they find at their own names (those names were free when planned, so
 * what is there is the interrupted run's work).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"
#include "lib/fold.h"
#include "lib/holders.h"
#include "lib/online.h"
#include "lib/progress.h"
#include "lib/report.h"
#include "lib/target.h"
#include "lib/util.h"

/* Steps between two syncs of the filesystem, at most. */
#define CHECKPOINT_STEPS	4096

/* Everything on disk, then the journal says so. */
static int checkpoint(struct runner *r, size_t n)
{
	if (syncfs(r->libfd) < 0 || import_journal_checkpoint(&r->j, n) < 0) {
		progress_clear();
		gp_warn("%s: cannot sync it: %s", r->library, strerror(errno));
		return -1;
	}
	return 0;
}

static int take_steps(struct runner *r)
{
	struct timespec last, now;
	size_t i, since = 0;

	find_links(r);
	clock_gettime(CLOCK_MONOTONIC, &last);
	for (i = r->j.done; i < r->plan.nsteps; i++) {
		if (take_step(r, &r->plan.steps[i], i < r->replay_until) < 0)
			return -1;
		crash_point(&r->crash, "import");
		progress_show("%zu of %zu steps", i + 1, r->plan.nsteps);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (++since >= CHECKPOINT_STEPS || now.tv_sec - last.tv_sec >= 2) {
			if (checkpoint(r, i + 1) < 0)
				return -1;
			since = 0;
			last = now;
		}
	}
	return checkpoint(r, i);
}

/* Whether the directory LIBFD is SRCFD or lies beneath it. */
static bool inside(int libfd, int srcfd)
{
	struct stat s, d, up;
	int fd = dup(libfd);
	bool found = false;

	if (fd < 0 || fstat(srcfd, &s) < 0) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	while (fstat(fd, &d) == 0) {
		int next;

		if (d.st_dev == s.st_dev && d.st_ino == s.st_ino) {
			found = true;
			break;
		}
		next = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (next < 0 || fstat(next, &up) < 0 ||
		    (up.st_dev == d.st_dev && up.st_ino == d.st_ino)) {
			if (next >= 0)
				close(next);
			break;
		}
		close(fd);
		fd = next;
	}
	close(fd);
	return found;
}

/* Moving from under a running game would pull its files away. */
static int refuse_held(const struct runner *r, const char *src)
{
	char *real = realpath(src, NULL), *text;
	struct holders h;

	if (!real || r->o->force)
		goto ok;
	holders_find(real, &h);
	if (!h.count) {
		holders_free(&h);
		goto ok;
	}
	text = holders_text(&h, 5);
	gp_warn("%s: in use by %s; quit them first (or --force: they may find files gone)",
		src, text);
	free(text);
	holders_free(&h);
	free(real);
	return -1;
ok:
	free(real);
	return 0;
}

/*
 * Whether A and B are on one mount: rename(2) works only within one, and
 * two mounts of one filesystem (a bind mount) have the same st_dev.
 */
static bool same_mount(int a, int b)
{
	struct statx x, y;

	if (statx(a, "", AT_EMPTY_PATH, STATX_MNT_ID, &x) < 0 ||
	    statx(b, "", AT_EMPTY_PATH, STATX_MNT_ID, &y) < 0)
		return false;
	if (!(x.stx_mask & y.stx_mask & STATX_MNT_ID))
		return x.stx_dev_major == y.stx_dev_major &&
		       x.stx_dev_minor == y.stx_dev_minor;
	return x.stx_mnt_id == y.stx_mnt_id;
}

static int check_space(const struct runner *r)
{
	struct statvfs sv;
	uint64_t avail;

	if (r->move || fstatvfs(r->libfd, &sv) < 0)
		return 0;
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (r->plan.bytes <= avail)
		return 0;
	gp_warn("%s: %llu MiB of files would not fit in the %llu MiB free, nothing changed",
		r->library, (unsigned long long)(r->plan.bytes >> 20),
		(unsigned long long)(avail >> 20));
	return -1;
}

/* The exit status if the plan stops here, having said why; -1 to go on. */
static int plan_stops(struct runner *r, struct import_result *res)
{
	const struct import_plan *p = &r->plan;
	const char *why = NULL;
	size_t n = 0;

	bool trouble = p->unimportable > 0;

	if (p->unimportable) {
		n = p->unimportable;
		why = "cannot be imported";
	} else if (p->refused) {
		n = p->refused;
		why = "a strict library refuses";
	} else if (p->unnamed) {
		n = p->unnamed;
		why = "cannot be renamed";
	} else if (p->groups && r->o->policy == ON_COLLISION_FAIL) {
		res->outcome = "stopped";
		import_print(res);
		gp_warn("%s: %zu group%s of names would collide in %s, nothing changed (--on-collision=merge merges directories and renames files, =rename renames both)",
			r->o->src, p->groups, p->groups == 1 ? "" : "s",
			r->library);
		return EXIT_FINDINGS;
	}
	if (why) {
		res->outcome = "stopped";
		import_print(res);
		gp_warn("%s: %zu name%s %s, nothing changed", r->o->src, n,
			n == 1 ? "" : "s", why);
		return trouble ? EXIT_TROUBLE : EXIT_FINDINGS;
	}
	if (r->o->dry_run) {
		res->outcome = "dry run";
		return import_print(res) < 0 ? EXIT_TROUBLE : EXIT_NOTHING_FOUND;
	}
	return -1;
}

/* The record of the renames and merges, kept in LIBRARY. */
static char *keep_record(struct runner *r, struct import_result *res)
{
	char *real = realpath(r->j.src, NULL), *name, *base, *path = NULL;
	char stamp[32];
	time_t now = time(NULL);

	if (!r->plan.nchanges)
		goto out;
	base = real ? strrchr(real, '/') : NULL;
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	name = xasprintf("gamepart-import-%s-%s.json",
			 base && base[1] ? base + 1 : "root", stamp);
	if (import_write_record(res, r->libfd, name) < 0)
		gp_warn("%s/%s: %s; the renames and merges are in this output only",
			r->library, name, strerror(errno));
	else
		path = xasprintf("%s/%s", r->library, name);
	free(name);
out:
	free(real);
	return path;
}

static int open_source(struct runner *r, const char *src)
{
	r->srcfd = open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->srcfd < 0) {
		gp_warn("%s: %s", src, strerror(errno));
		return -1;
	}
	return 0;
}

static int prepare_new(struct runner *r, struct folder *f,
		       struct report *report, struct import_result *res)
{
	const struct import_options *o = r->o;
	int stop;

	if (open_source(r, o->src) < 0)
		return EXIT_TROUBLE;
	if (inside(r->libfd, r->srcfd)) {
		gp_warn("%s: the library %s is inside it, and would be copied into itself",
			o->src, r->library);
		return EXIT_TROUBLE;
	}
	if (o->move && !same_mount(r->srcfd, r->libfd)) {
		gp_warn("%s: on another filesystem (or mount) than %s; --move renames within one, copy it instead",
			o->src, r->library);
		return EXIT_TROUBLE;
	}
	if (o->move && refuse_held(r, o->src) < 0)
		return EXIT_TROUBLE;
	progress_begin(r->label);
	if (import_plan(r->srcfd, r->libfd, f, o->policy, o->move, report,
			&r->plan) < 0) {
		progress_end();
		return EXIT_TROUBLE;
	}
	progress_end();
	stop = plan_stops(r, res);
	if (stop >= 0)
		return stop;
	if (check_space(r) < 0)
		return EXIT_TROUBLE;
	r->j.src = NULL;
	{
		char *real = realpath(o->src, NULL);
		int ret;

		if (!real) {
			gp_warn("%s: %s", o->src, strerror(errno));
			return EXIT_TROUBLE;
		}
		ret = import_journal_create(&r->j, r->libfd, r->library, real, o->move,
				     o->policy, &r->plan);
		free(real);
		if (ret < 0)
			return EXIT_TROUBLE;
	}
	return -1;
}

static int prepare_resume(struct runner *r, struct import_result *res)
{
	const struct import_options *o = r->o;

	if (o->src) {
		char *real = realpath(o->src, NULL);

		if (!real || strcmp(real, r->j.src)) {
			gp_warn("%s: the interrupted import into %s came from %s",
				o->src, r->library, r->j.src);
			free(real);
			return EXIT_TROUBLE;
		}
		free(real);
	}
	if (open_source(r, r->j.src) < 0)
		return EXIT_TROUBLE;
	if (r->j.move && refuse_held(r, r->j.src) < 0)
		return EXIT_TROUBLE;
	r->move = r->j.move;
	res->move = r->j.move;
	res->policy = r->j.policy;
	r->src_name = xstrdup(r->j.src);
	res->resumed = true;
	res->src = r->src_name;
	/* The steps after the last sync may have left their work. */
	r->replay_until = r->plan.nsteps;
	return -1;
}

int import_run(const struct import_options *o)
{
	struct runner r = {
		.o = o, .library = o->library, .srcfd = -1, .libfd = -1,
		.src = { .fd = -1 }, .dest = { .fd = -1 }, .move = o->move,
	};
	struct report *report = report_new();
	struct import_result res = {
		.o = o, .src = o->src, .move = o->move, .policy = o->policy,
		.report = report, .plan = &r.plan,
	};
	struct folder *f = NULL;
	struct target t;
	struct stat st;
	int ret = EXIT_TROUBLE, loaded;

	r.j.workfd = r.j.fd = r.j.donefd = -1;
	crash_hook_init(&r.crash);
	if (target_open(&t, o->library, NULL, TARGET_READ) < 0)
		goto out_report;
	if (t.kind != TARGET_ONLINE) {
		gp_warn("%s: not a directory: import into a mounted library",
			o->library);
		goto out_target;
	}
	if (!t.info.known || !t.info.casefold_feature) {
		gp_warn("%s: %s", o->library, !t.info.known ? t.info.why :
			"its filesystem has no casefold feature (gamepart create makes one; convert --offline turns it on)");
		goto out_target;
	}
	f = target_folder(&t, false);
	if (!f)
		goto out_target;
	r.libfd = t.dirfd;
	r.dest.rootfd = r.libfd;
	if (fstat(r.libfd, &st) < 0)
		goto out_target;
	r.owner = res.owner = st.st_uid;
	r.group = res.group = st.st_gid;
	r.chown = geteuid() == 0;

	loaded = o->dry_run ? 1 : import_journal_load(&r.j, r.libfd, o->library, &r.plan);
	if (loaded < 0)
		goto out_target;
	if (loaded == 0 && !o->resume) {
		gp_warn("%s: an import from %s into it was interrupted; finish it with: gamepart import --resume %s (or remove %s/%s to give it up, keeping what it copied)",
			o->library, r.j.src, o->library, o->library,
			IMPORT_WORK_DIR);
		goto out_journal;
	}
	if (o->dry_run && faccessat(r.libfd, IMPORT_WORK_DIR, F_OK,
				    AT_SYMLINK_NOFOLLOW) == 0)
		gp_warn("%s: note: an import into it was interrupted; an import would be refused until it is finished (--resume)",
			o->library);
	if (loaded == 1 && o->resume) {
		gp_warn("%s: no import into it was interrupted", o->library);
		goto out_target;
	}
	r.label = xasprintf("gamepart: import: %s", loaded == 0 ? r.j.src : o->src);
	ret = loaded == 0 ? prepare_resume(&r, &res) :
	      prepare_new(&r, f, report, &res);
	if (ret >= 0)
		goto out_journal;
	r.src.rootfd = r.srcfd;
	progress_begin(r.label);
	ret = take_steps(&r) < 0 ? -1 : 0;
	progress_end();
	if (ret < 0) {
		gp_warn("%s: the import stopped; once the cause is fixed, finish it with: gamepart import --resume %s (or remove %s/%s to give it up)",
			o->library, o->library, o->library, IMPORT_WORK_DIR);
		ret = EXIT_TROUBLE;
		goto out_journal;
	}
	unlinkat(r.j.workfd, IMPORT_TMP_NAME, 0);
	res.outcome = r.leftovers ? "imported, but for directories left" :
		      "imported";
	res.record = keep_record(&r, &res);
	if (import_journal_finish(&r.j, r.libfd) < 0)
		gp_warn("%s/%s: cannot remove it: %s", o->library,
			IMPORT_WORK_DIR, strerror(errno));
	ret = import_print(&res) < 0 ? EXIT_TROUBLE :
	      r.leftovers ? EXIT_FINDINGS : EXIT_NOTHING_FOUND;
	free((char *)res.record);
out_journal:
	import_journal_close(&r.j);
out_target:
	folder_free(f);
	target_close(&t);
out_report:
	runner_release(&r);
	if (r.srcfd >= 0)
		close(r.srcfd);
	free(r.src_name);
	free(r.label);
	import_plan_free(&r.plan);
	report_free(report);
	return ret;
}
