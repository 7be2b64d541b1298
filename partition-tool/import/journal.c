// SPDX-License-Identifier: GPL-2.0
/*
 * The journal of an import, in LIBRARY/.gamepart-import:
 *
 *   plan   written whole and synced before the first change, then only
 *          read; locked while a run uses it.  A text header, then each
 *          step and change as a line "KIND SRCLEN DESTLEN" followed by
 *          the two paths' bytes and a newline (names may hold any byte
 *          but '/' and NUL), then "end".
 *   done   how many steps are on disk: written after the filesystem was
 *          synced, so a resumed run repeats only the steps after it.
 *
 * The plan holds the changes too, so that a resumed run reports every
 * rename and merge, including those made before the interruption.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import.h"
#include "lib/util.h"

#define MAGIC		"gamepart-import 1\n"
#define PLAN		"plan"
#define PLAN_TMP	"plan.tmp"
#define DONE		"done"
/* One fixed-width record, rewritten in place. */
#define DONE_WIDTH	21

static void put_paths(FILE *f, int kind, const char *src, const char *dest)
{
	size_t sl = src ? strlen(src) : 0, dl = dest ? strlen(dest) : 0;

	fprintf(f, "%c %zu %zu\n", kind, sl, dl);
	if (sl)
		fwrite(src, 1, sl, f);
	if (dl)
		fwrite(dest, 1, dl, f);
	fputc('\n', f);
}

static void import_journal_reset(struct import_journal *j)
{
	memset(j, 0, sizeof(*j));
	j->workfd = j->fd = j->donefd = -1;
}

int import_journal_create(struct import_journal *j, int libfd, const char *library,
		   const char *src, bool move, enum collision_policy policy,
		   const struct import_plan *p)
{
	FILE *f = NULL;
	int fd;
	size_t i;

	import_journal_reset(j);
	if (mkdirat(libfd, IMPORT_WORK_DIR, 0700) < 0 ||
	    (j->workfd = openat(libfd, IMPORT_WORK_DIR,
				O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		goto fail;
	fd = openat(j->workfd, PLAN_TMP, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		    0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		goto fail;
	}
	fputs(MAGIC, f);
	put_paths(f, 's', src, NULL);
	fprintf(f, "mode %s\npolicy %s\ncounts %zu %zu %zu %" PRIu64 "\nsteps %zu\n",
		move ? "move" : "copy", collision_policy_name(policy),
		p->files, p->symlinks, p->dirs, p->bytes, p->nsteps);
	for (i = 0; i < p->nsteps; i++)
		put_paths(f, p->steps[i].kind, p->steps[i].src, p->steps[i].dest);
	fprintf(f, "changes %zu\n", p->nchanges);
	for (i = 0; i < p->nchanges; i++)
		put_paths(f, p->changes[i].merge ? 'm' : 'n', p->changes[i].src,
			  p->changes[i].dest);
	fputs("end\n", f);
	if (fflush(f) != 0 || fsync(fileno(f)) != 0) {
		fclose(f);
		goto fail;
	}
	if (fclose(f) != 0 ||
	    renameat(j->workfd, PLAN_TMP, j->workfd, PLAN) < 0 ||
	    (j->donefd = openat(j->workfd, DONE,
				O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0 ||
	    (j->fd = openat(j->workfd, PLAN, O_RDONLY | O_CLOEXEC)) < 0 ||
	    flock(j->fd, LOCK_EX | LOCK_NB) < 0 ||
	    import_journal_checkpoint(j, 0) < 0 || fsync(j->workfd) < 0 ||
	    fsync(libfd) < 0)
		goto fail;
	j->src = xstrdup(src);
	j->move = move;
	j->policy = policy;
	return 0;
fail:
	gp_warn("%s/%s: cannot write the journal: %s", library, IMPORT_WORK_DIR,
		strerror(errno));
	import_journal_close(j);
	return -1;
}

/* The two paths after a "KIND SRCLEN DESTLEN" line. */
static int get_paths(FILE *f, int *kind, char **src, char **dest)
{
	size_t sl, dl;
	char k;

	if (fscanf(f, "%c %zu %zu", &k, &sl, &dl) != 3 || fgetc(f) != '\n' ||
	    sl > 1 << 20 || dl > 1 << 20)
		return -1;
	*kind = k;
	*src = sl ? xmalloc(sl + 1) : NULL;
	*dest = dl ? xmalloc(dl + 1) : NULL;
	if ((sl && fread(*src, 1, sl, f) != sl) ||
	    (dl && fread(*dest, 1, dl, f) != dl) || fgetc(f) != '\n') {
		free(*src);
		free(*dest);
		return -1;
	}
	if (sl)
		(*src)[sl] = '\0';
	if (dl)
		(*dest)[dl] = '\0';
	return 0;
}

static bool known_step(int kind)
{
	return kind == STEP_MKDIR || kind == STEP_ENTRY ||
	       kind == STEP_DIR_ATTRS || kind == STEP_RMDIR;
}

static int read_plan(struct import_journal *j, FILE *f, struct import_plan *p)
{
	char mode[8], policy[8], magic[sizeof(MAGIC)];
	size_t n, i;
	char *a, *b;
	int kind;

	if (!fgets(magic, sizeof(magic), f) || strcmp(magic, MAGIC) ||
	    get_paths(f, &kind, &j->src, &a) < 0 || kind != 's' || !j->src ||
	    fscanf(f, "mode %7s\npolicy %7s\ncounts %zu %zu %zu %" SCNu64 "\nsteps %zu\n",
		   mode, policy, &p->files, &p->symlinks, &p->dirs, &p->bytes,
		   &n) != 7 ||
	    (strcmp(mode, "move") && strcmp(mode, "copy")) ||
	    !collision_policy_named(policy, &j->policy))
		return -1;
	j->move = !strcmp(mode, "move");
	for (i = 0; i < n; i++) {
		if (get_paths(f, &kind, &a, &b) < 0)
			return -1;
		if (!known_step(kind) || !a || !b) {
			free(a);
			free(b);
			return -1;
		}
		plan_add_step(p, (enum step_kind)kind, a, b);
		free(a);
		free(b);
	}
	if (fscanf(f, "changes %zu\n", &n) != 1)
		return -1;
	for (i = 0; i < n; i++) {
		if (get_paths(f, &kind, &a, &b) < 0)
			return -1;
		if ((kind != 'm' && kind != 'n') || !a || !b) {
			free(a);
			free(b);
			return -1;
		}
		plan_add_change(p, kind == 'm', a, b);
		free(a);
		free(b);
	}
	return fscanf(f, "end%c", magic) == 1 && magic[0] == '\n' ? 0 : -1;
}

int import_journal_load(struct import_journal *j, int libfd, const char *library,
		 struct import_plan *p)
{
	char buf[DONE_WIDTH + 1] = "";
	FILE *f = NULL;
	int fd;

	import_journal_reset(j);
	j->workfd = openat(libfd, IMPORT_WORK_DIR,
			   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (j->workfd < 0 && errno == ENOENT)
		return 1;
	if (j->workfd < 0)
		goto fail;
	j->fd = openat(j->workfd, PLAN, O_RDONLY | O_CLOEXEC);
	if (j->fd < 0 && errno == ENOENT) {
		/* Stopped while writing the plan: nothing changed yet. */
		unlinkat(j->workfd, PLAN_TMP, 0);
		unlinkat(j->workfd, DONE, 0);
		import_journal_close(j);
		if (unlinkat(libfd, IMPORT_WORK_DIR, AT_REMOVEDIR) < 0)
			goto fail;
		return 1;
	}
	if (j->fd < 0)
		goto fail;
	if (flock(j->fd, LOCK_EX | LOCK_NB) < 0) {
		gp_warn("%s: another import into it is running", library);
		import_journal_close(j);
		return -1;
	}
	fd = dup(j->fd);
	if (fd < 0 || !(f = fdopen(fd, "r"))) {
		if (fd >= 0)
			close(fd);
		goto fail;
	}
	if (read_plan(j, f, p) < 0) {
		fclose(f);
		gp_warn("%s/%s/%s: not a journal gamepart can read; move it away to start over",
			library, IMPORT_WORK_DIR, PLAN);
		import_journal_close(j);
		return -1;
	}
	fclose(f);
	/* Made after the plan: a stop between the two leaves none. */
	j->donefd = openat(j->workfd, DONE, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (j->donefd < 0 || pread(j->donefd, buf, DONE_WIDTH, 0) < 0)
		goto fail;
	j->done = strtoul(buf, NULL, 10);
	if (j->done > p->nsteps)
		j->done = 0;
	return 0;
fail:
	gp_warn("%s/%s: cannot read the journal: %s", library, IMPORT_WORK_DIR,
		strerror(errno));
	import_journal_close(j);
	return -1;
}

int import_journal_checkpoint(struct import_journal *j, size_t n)
{
	char buf[DONE_WIDTH + 1];

	snprintf(buf, sizeof(buf), "%-20zu\n", n);
	if (pwrite(j->donefd, buf, DONE_WIDTH, 0) != DONE_WIDTH ||
	    fdatasync(j->donefd) < 0)
		return -1;
	j->done = n;
	return 0;
}

int import_journal_finish(struct import_journal *j, int libfd)
{
	/* The plan first: without it, what is left is no journal. */
	if (unlinkat(j->workfd, PLAN, 0) < 0 ||
	    unlinkat(j->workfd, DONE, 0) < 0)
		return -1;
	import_journal_close(j);
	if (unlinkat(libfd, IMPORT_WORK_DIR, AT_REMOVEDIR) < 0)
		return -1;
	return fsync(libfd);
}

void import_journal_close(struct import_journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	if (j->donefd >= 0)
		close(j->donefd);
	if (j->workfd >= 0)
		close(j->workfd);
	free(j->src);
	import_journal_reset(j);
}
