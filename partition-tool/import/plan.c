// SPDX-License-Identifier: GPL-2.0
/*
 * Planning an import.  Each directory of the library that receives names
 * is planned once, with every source directory that lands in it, as
 * lib/landing.h decides for convert too: the names it already holds keep
 * their place; the arriving names follow source by source (in the order
 * their directories merged), under the merge policy directories first,
 * then by their bytes; one that folds like a name taken meets the
 * policy: fail counts it, merge puts a directory into the directory it
 * meets, and anything else gets the first free ' (case conflict N)'
 * name.  Two directories with the very same name are one directory, as
 * with cp -a, and are not a collision.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ext2fs/ext2_fs.h>

#include "import.h"
#include "lib/dirread.h"
#include "lib/fold.h"
#include "lib/landing.h"
#include "lib/online.h"
#include "lib/progress.h"
#include "lib/report.h"
#include "lib/util.h"

/* A name of the library directory being planned. */
struct slot {
	char *name;
	size_t len;
	bool existing;		/* the library held it before */
	bool renamed;		/* a ' (case conflict N)' name */
	bool is_dir;
	char *src;		/* arriving: its path in SRC */
	char **merged;		/* directories of SRC that land in it */
	size_t nmerged;
	/* The names that met it, for the report: slot name first. */
	struct dir_entry *met;
	size_t nmet;
};

struct arriving {
	const char *name;
	size_t len;
	bool is_dir;
	size_t from;		/* which of the merged directories */
	char *src;
};

struct planner {
	int srcfd, libfd;
	dev_t srcdev;
	struct folder *folder;
	enum collision_policy policy;
	struct report *report;
	struct import_plan *plan;
	bool move;		/* plan the removal of emptied directories */
	struct stat dest_st;	/* the library directory being planned */
	bool dest_exists;
	size_t names;
};

void plan_add_step(struct import_plan *p, enum step_kind kind,
		   const char *src, const char *dest)
{
	if (p->nsteps == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 256;
		p->steps = xrealloc(p->steps, p->cap * sizeof(*p->steps));
	}
	p->steps[p->nsteps++] = (struct step){
		.kind = kind,
		.src = src ? xstrdup(src) : NULL,
		.dest = dest ? xstrdup(dest) : NULL,
	};
}

void plan_add_change(struct import_plan *p, bool merge, const char *src,
		     const char *dest)
{
	if (p->nchanges == p->ccap) {
		p->ccap = p->ccap ? 2 * p->ccap : 16;
		p->changes = xrealloc(p->changes, p->ccap * sizeof(*p->changes));
	}
	p->changes[p->nchanges++] = (struct import_change){
		.merge = merge, .src = xstrdup(src), .dest = xstrdup(dest),
	};
}

void import_plan_free(struct import_plan *p)
{
	size_t i;

	for (i = 0; i < p->nsteps; i++) {
		free(p->steps[i].src);
		free(p->steps[i].dest);
	}
	for (i = 0; i < p->nchanges; i++) {
		free(p->changes[i].src);
		free(p->changes[i].dest);
	}
	for (i = 0; i < p->nplain; i++)
		free(p->plain_dirs[i]);
	free(p->steps);
	free(p->changes);
	free(p->plain_dirs);
	memset(p, 0, sizeof(*p));
}

static char *join(const char *dir, const char *name, size_t len)
{
	if (!strcmp(dir, "."))
		return xasprintf("%.*s", (int)len, name);
	return xasprintf("%s/%.*s", dir, (int)len, name);
}

static void say_path(const char *what, const char *path, const char *why)
{
	char *q = report_escape(path, strlen(path), true);

	progress_clear();
	gp_warn("%s/%s: %s", what, q, why);
	free(q);
}

static struct slot *slot_add(struct slot **slots, size_t *n, size_t *cap,
			     const char *name, size_t len)
{
	struct slot *s;

	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*slots = xrealloc(*slots, *cap * sizeof(**slots));
	}
	s = &(*slots)[(*n)++];
	memset(s, 0, sizeof(*s));
	s->name = xmalloc(len + 1);
	memcpy(s->name, name, len);
	s->name[len] = '\0';
	s->len = len;
	return s;
}

static void slot_met(struct slot *s, const char *name, size_t len)
{
	if (!s->nmet) {
		s->met = xmalloc(2 * sizeof(*s->met));
		s->met[s->nmet++] = (struct dir_entry){ .name = s->name,
							.len = s->len };
	} else {
		s->met = xrealloc(s->met, (s->nmet + 1) * sizeof(*s->met));
	}
	s->met[s->nmet++] = (struct dir_entry){ .name = name, .len = len };
}

static void slot_merge(struct slot *s, const char *src)
{
	s->merged = xrealloc(s->merged, (s->nmerged + 1) * sizeof(*s->merged));
	s->merged[s->nmerged++] = xstrdup(src);
}

/* S is A's place: a directory lists its source first among those
   merged into it. */
static void slot_arrive(struct slot *s, struct arriving *a)
{
	s->is_dir = a->is_dir;
	if (a->is_dir) {
		slot_merge(s, a->src);
	} else {
		s->src = a->src;
		a->src = NULL;
	}
}

/*
 * The bytes a copy of the regular file NAME of the directory FD writes:
 * its size, or, when it has fewer blocks than that (holes, which the
 * copy keeps, or data compressed), the size of its data.
 */
static uint64_t data_bytes(int fd, const char *name, const struct stat *st)
{
	off_t start, end = 0, sum = 0;
	int in, found;

	if ((uint64_t)st->st_blocks * 512 >= (uint64_t)st->st_size)
		return (uint64_t)st->st_size;
	in = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (in < 0)
		return (uint64_t)st->st_size;
	while ((found = online_data_extent(in, end, st->st_size, &start,
					   &end)) > 0)
		sum += end - start;
	close(in);
	/* On an error, all of it. */
	return found < 0 ? (uint64_t)st->st_size : (uint64_t)sum;
}

/*
 * Read the source directory SRC (a path in SRC) into ARR, as one of the
 * directories landing in the library directory being planned.  Entries
 * that cannot be imported are said and counted.
 */
static int read_source(struct planner *pl, const char *src, size_t from,
		       struct dir_entries *ents, struct arriving **arr,
		       size_t *narr)
{
	int fd = online_open_dir_beneath(pl->srcfd, src, false);
	size_t i;

	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0 ||
	    dirread_online(fd, true, ents) < 0) {
		say_path("SRC", src, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (pl->dest_exists && st.st_dev == pl->dest_st.st_dev &&
	    st.st_ino == pl->dest_st.st_ino) {
		say_path("SRC", src, "it is the library directory it would go into");
		close(fd);
		return -1;
	}
	*arr = xrealloc(*arr, (*narr + ents->count) * sizeof(**arr));
	for (i = 0; i < ents->count; i++) {
		const struct dir_entry *e = &ents->v[i];
		char *path = join(src, e->name, e->len);

		if (fstatat(fd, e->name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			say_path("SRC", path, strerror(errno));
			free(path);
			close(fd);
			return -1;
		}
		if (e->len > EXT2_NAME_LEN) {
			say_path("SRC", path, "a name longer than ext4's 255 bytes; shorten it");
			pl->plan->unimportable++;
			free(path);
			continue;
		}
		if (S_ISDIR(st.st_mode) && st.st_dev != pl->srcdev) {
			say_path("SRC", path, "another filesystem (or btrfs subvolume) is mounted here; import it on its own");
			pl->plan->unimportable++;
			free(path);
			continue;
		}
		if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode) &&
		    !S_ISLNK(st.st_mode)) {
			say_path("SRC", path, "neither a file, a directory nor a symbolic link; a library has no use for it, move it away");
			pl->plan->unimportable++;
			free(path);
			continue;
		}
		/* A filesystem's own, which would land in the card's. */
		if (!strcmp(src, ".") && S_ISDIR(st.st_mode) &&
		    e->len == strlen("lost+found") &&
		    !memcmp(e->name, "lost+found", e->len)) {
			say_path("SRC", path, "note: not imported: the source filesystem's own (e2fsck puts what it recovers there); copy what you need from it by hand");
			free(path);
			continue;
		}
		/* An old library's journal would land on this run's own. */
		if (!strcmp(src, ".") &&
		    fold_equal(pl->folder, e->name, e->len, IMPORT_WORK_DIR,
			       strlen(IMPORT_WORK_DIR))) {
			say_path("SRC", path, "the journal of an interrupted import into SRC; finish it (gamepart import --resume) or remove it first");
			pl->plan->unimportable++;
			free(path);
			continue;
		}
		if (!strcmp(src, ".") && convert_is_work_dir(e->name, e->len)) {
			say_path("SRC", path, "a conversion was interrupted here; finish it (gamepart convert --resume) first");
			pl->plan->unimportable++;
			free(path);
			continue;
		}
		if (S_ISREG(st.st_mode)) {
			pl->plan->files++;
			pl->plan->bytes += data_bytes(fd, e->name, &st);
		} else if (S_ISLNK(st.st_mode)) {
			pl->plan->symlinks++;
		} else {
			pl->plan->dirs++;
		}
		(*arr)[(*narr)++] = (struct arriving){
			.name = e->name, .len = e->len,
			.is_dir = S_ISDIR(st.st_mode), .from = from, .src = path,
		};
	}
	close(fd);
	return 0;
}

/* Judge an arriving name by itself: invalid or with ignorables. */
static void examine_name(struct planner *pl, const struct arriving *a)
{
	uint32_t cp;

	switch (fold_examine(pl->folder, a->name, a->len, &cp)) {
	case FOLD_INVALID:
		report_invalid(pl->report, a->name, a->len,
			       folder_strict(pl->folder));
		pl->plan->refused += folder_strict(pl->folder);
		break;
	case FOLD_IGNORABLE:
		report_ignorable(pl->report, a->name, a->len, cp);
		break;
	case FOLD_PLAIN:
		break;
	}
}

static int plan_dir(struct planner *pl, const char *dest, bool exists,
		    char *const *srcs, size_t nsrcs);

/* Plan the slots, once decided, and the directories below them. */
static int plan_slots(struct planner *pl, const char *dest,
		      struct slot *slots, size_t n)
{
	struct import_plan *p = pl->plan;
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		struct slot *s = &slots[i];
		char *path = join(dest, s->name, s->len);

		if (!s->existing && !s->is_dir) {
			plan_add_step(p, STEP_ENTRY, s->src, path);
		} else if (!s->existing) {
			/* merged[0] is its own source, whose attributes it
			   takes. */
			plan_add_step(p, STEP_MKDIR, s->merged[0], path);
			ret = plan_dir(pl, path, false, s->merged, s->nmerged);
			plan_add_step(p, STEP_DIR_ATTRS, s->merged[0], path);
		} else if (s->nmerged) {
			ret = plan_dir(pl, path, true, s->merged, s->nmerged);
		}
		if (s->is_dir && pl->move)
			for (size_t k = 0; k < s->nmerged; k++)
				plan_add_step(p, STEP_RMDIR, s->merged[k], path);
		free(path);
	}
	return ret;
}

static void report_groups(struct planner *pl, const char *dest, bool casefolded,
			  struct slot *slots, size_t n, size_t scanned)
{
	bool reported = false;

	for (size_t i = 0; i < n; i++) {
		const struct dir_entry **names;

		if (!slots[i].nmet)
			continue;
		if (!reported) {
			report_dir(pl->report, dest, casefolded);
			reported = true;
		}
		names = xmalloc(slots[i].nmet * sizeof(*names));
		for (size_t k = 0; k < slots[i].nmet; k++)
			names[k] = &slots[i].met[k];
		report_collision(pl->report, names, slots[i].nmet);
		free(names);
	}
	if (!reported)
		report_dir(pl->report, dest, casefolded);
	report_scanned(pl->report, scanned);
}

/* The names of a library directory being planned, held and arriving. */
struct slots {
	struct slot *v;
	size_t count, cap;
};

/*
 * Read the library directory DEST into ENTS, a held slot for each name
 * (but the import's own work directory), and whether it is casefolded.
 */
static int read_library(struct planner *pl, const char *dest,
			struct dir_entries *ents, struct slots *sl,
			bool *casefolded)
{
	int fd = online_open_dir_beneath(pl->libfd, dest, true);

	if (fd < 0 || fstat(fd, &pl->dest_st) < 0 ||
	    dirread_online(fd, true, ents) < 0 ||
	    online_casefolded(fd, casefolded) < 0) {
		say_path("LIBRARY", dest, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	for (size_t i = 0; i < ents->count; i++) {
		const struct dir_entry *e = &ents->v[i];
		struct slot *s;

		if (!strcmp(dest, ".") && e->len == strlen(IMPORT_WORK_DIR) &&
		    !memcmp(e->name, IMPORT_WORK_DIR, e->len))
			continue;
		s = slot_add(&sl->v, &sl->count, &sl->cap, e->name, e->len);
		s->existing = true;
		s->is_dir = e->is_dir;
	}
	return 0;
}

/*
 * The arrivals ARR land beside the slots of DEST as lib/landing.h
 * decides: each takes a slot of its own, or joins or merges into one,
 * or only meets one (a collision, for the report).
 */
static void land(struct planner *pl, const char *dest, struct slots *sl,
		 struct arriving *arr, size_t narr)
{
	struct landing *landing = landing_new(pl->folder, pl->policy);
	const struct landing_decision *dec;
	/* The slot each arrival took, by its index in ARR. */
	size_t *slot_of = xcalloc(narr + 1, sizeof(*slot_of));
	size_t ndec, i;

	for (i = 0; i < sl->count; i++)
		landing_hold(landing, sl->v[i].name, sl->v[i].len,
			     sl->v[i].is_dir, i);
	for (i = 0; i < narr; i++)
		landing_arrive(landing, arr[i].name, arr[i].len,
			       arr[i].is_dir, arr[i].from, i);
	dec = landing_decide(landing, &ndec);
	for (i = 0; i < ndec; i++) {
		const struct landing_decision *d = &dec[i];
		struct arriving *a = &arr[d->entry->ref];
		struct slot *met = !d->met ? NULL :
				   &sl->v[d->met->held ? d->met->ref :
					  slot_of[d->met->ref]];
		char *to;

		examine_name(pl, a);
		if (met && d->fate != LANDING_JOINED)
			slot_met(met, a->name, a->len);
		switch (d->fate) {
		case LANDING_RENAMED:
			to = join(dest, d->name, d->len);
			plan_add_change(pl->plan, false, a->src, to);
			free(to);
			/* fall through */
		case LANDING_TAKEN:
			slot_of[d->entry->ref] = sl->count;
			slot_add(&sl->v, &sl->count, &sl->cap, d->name, d->len);
			sl->v[sl->count - 1].renamed = d->fate == LANDING_RENAMED;
			slot_arrive(&sl->v[sl->count - 1], a);
			break;
		case LANDING_JOINED:	/* one directory, as with cp -a */
			slot_merge(met, a->src);
			break;
		case LANDING_MERGED:
			slot_merge(met, a->src);
			to = join(dest, met->name, met->len);
			plan_add_change(pl->plan, true, a->src, to);
			free(to);
			break;
		case LANDING_COLLIDED:
			break;
		case LANDING_UNNAMED:
			say_path("SRC", a->src, "no room for a ' (case conflict N)' name");
			pl->plan->unnamed++;
			break;
		}
	}
	free(slot_of);
	landing_free(landing);
}

/*
 * Plan the library directory DEST (made by the import unless EXISTS)
 * receiving the entries of the source directories SRCS.
 */
static int plan_dir(struct planner *pl, const char *dest, bool exists,
		    char *const *srcs, size_t nsrcs)
{
	struct import_plan *p = pl->plan;
	struct dir_entries *ents = xcalloc(nsrcs + 1, sizeof(*ents));
	struct arriving *arr = NULL;
	struct slots sl = { 0 };
	size_t narr = 0, i;
	bool casefolded = true;
	int ret = -1;

	if (exists && read_library(pl, dest, &ents[nsrcs], &sl, &casefolded) < 0)
		goto out;
	pl->dest_exists = exists;
	for (i = 0; i < nsrcs; i++)
		if (read_source(pl, srcs[i], i, &ents[i], &arr, &narr) < 0)
			goto out;
	if (!casefolded && narr) {
		p->plain_dirs = xrealloc(p->plain_dirs,
					 (p->nplain + 1) * sizeof(*p->plain_dirs));
		p->plain_dirs[p->nplain++] = xstrdup(dest);
	}
	land(pl, dest, &sl, arr, narr);
	/* Counted per group, not per name that met one. */
	for (i = 0; i < sl.count; i++)
		p->groups += sl.v[i].nmet > 0;
	report_groups(pl, dest, casefolded, sl.v, sl.count, narr);
	pl->names += narr;
	progress_show("planning: %zu names", pl->names);
	ret = plan_slots(pl, dest, sl.v, sl.count);
out:
	for (i = 0; i < narr; i++)
		free(arr[i].src);
	for (i = 0; i < sl.count; i++) {
		free(sl.v[i].name);
		free(sl.v[i].src);
		for (size_t k = 0; k < sl.v[i].nmerged; k++)
			free(sl.v[i].merged[k]);
		free(sl.v[i].merged);
		free(sl.v[i].met);
	}
	for (i = 0; i <= nsrcs; i++)
		dir_entries_free(&ents[i]);
	free(ents);
	free(arr);
	free(sl.v);
	return ret;
}

int import_plan(int srcfd, int libfd, struct folder *f,
		enum collision_policy policy, bool move, struct report *report,
		struct import_plan *p)
{
	struct planner pl = {
		.srcfd = srcfd, .libfd = libfd, .folder = f, .policy = policy,
		.report = report, .plan = p, .move = move,
	};
	char *top = xstrdup(".");
	struct stat st;
	int ret;

	if (fstat(srcfd, &st) < 0)
		return -1;
	pl.srcdev = st.st_dev;
	ret = plan_dir(&pl, ".", true, &top, 1);
	free(top);
	return ret;
}
