// SPDX-License-Identifier: GPL-2.0
/*
 * gamepart convert: make every directory of a tree casefolded (+F) in
 * place, on its mounted filesystem, moving entries and never copying data.
 *
 * The kernel sets +F only on an empty directory.  Each directory that is
 * not +F is converted on its own, children before parents, keeping its
 * inode: its entries are moved into a temporary directory, +F is set on
 * it, and they are moved back, under a new name where two would collide.
 * Processes working inside it, bind mounts and inotify watches on it keep
 * working; each entry moves twice.  With --directories=replace, each
 * directory below PATH is instead replaced by a new +F one that takes its
 * attributes and its entries, each moving once (replace_dir()).
 *
 * The temporary directories and the journal live in a work directory
 * beside the tree (PARENT/.gamepart-convert.INO), on the same filesystem
 * and outside the tree, so the tree never contains them.  The journal
 * records, before anything moves, which directory is being converted and
 * the renames planned for it; everything else is read back from the
 * filesystem.  Every entry is at each instant either in its directory or
 * in that directory's temporary one, so after a crash --resume finishes
 * the directory the journal names and converts the rest.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include <et/com_err.h>
#include <json-c/json.h>
#include <linux/fs.h>
#include <linux/openat2.h>

#include <e2p/e2p.h>

#include "gamepart.h"
#include "convert.h"
#include "fold.h"
#include "report.h"
#include "target.h"
#include "walk.h"

#define NAME_MAX_BYTES	255
/* Attempts at emptying a directory that a writer keeps filling. */
#define EMPTY_TRIES	10

static void usage(FILE *out)
{
	fputs("Usage: gamepart convert [--dry-run] [--on-collision=fail|rename]\n"
	      "                        [--directories=keep|replace] [--resume]\n"
	      "                        [--json] PATH\n"
	      "       gamepart convert --offline [--undo-file=FILE] [--dry-run]\n"
	      "                        [--on-collision=fail|rename] [--resume] [--json]\n"
	      "                        TARGET [DIR...]\n"
	      "\n"
	      "Make every directory under PATH (on a mounted ext4 filesystem with\n"
	      "the casefold feature) case-insensitive, in place.  The tree is\n"
	      "checked first; entries are moved, never copied, and keep their\n"
	      "inodes.  A journal beside PATH lets an interrupted conversion be\n"
	      "finished with --resume.\n"
	      "\n"
	      "With --offline, TARGET is an unmounted device or image: the casefold\n"
	      "feature is turned on if it is off, and every directory under each DIR\n"
	      "(a path inside the filesystem, / if none) is made case-insensitive\n"
	      "and its hash index rebuilt, every write saved first to an undo file\n"
	      "that e2undo replays.\n"
	      "\n"
	      "Options:\n"
	      "  -n, --dry-run          print the plan and the report, change nothing\n"
	      "      --on-collision=fail|rename\n"
	      "                         on names that would collide: change nothing\n"
	      "                         (fail, the default), or keep the name that\n"
	      "                         sorts first and rename the others to\n"
	      "                         'STEM (case conflict N).EXT'\n"
	      "      --directories=keep|replace\n"
	      "                         keep each directory's inode, moving its\n"
	      "                         entries out and back (keep, the default),\n"
	      "                         or replace each one under PATH by a new\n"
	      "                         one with its attributes (moving them once)\n"
	      "      --resume           finish an interrupted conversion of PATH\n"
	      "                         (offline: roll it back with e2undo, then\n"
	      "                         convert again)\n"
	      "      --offline          convert an unmounted TARGET through libext2fs\n"
	      "      --undo-file=FILE   offline: the undo file (default\n"
	      "                         gamepart-convert-NAME.e2undo in\n"
	      "                         $E2FSPROGS_UNDO_DIR or the current directory)\n"
	      "  -j, --json             print the report as JSON\n"
	      "  -h, --help             show this help and exit\n"
	      "  -V, --version          show the version and exit\n"
	      "\n"
	      "Exit status: 0 converted (or nothing to do), 1 collisions stopped\n"
	      "the conversion, 2 refusals and errors.\n",
	      out);
}

enum policy { ON_COLLISION_FAIL, ON_COLLISION_RENAME };

/* A directory to convert, in the order the walk met it (parents first). */
struct plan_dir {
	char *path;		/* relative to PATH; "." for PATH itself */
	uint64_t ino;
	struct rename *renames;
	size_t nrenames;
};

struct convert {
	const char *arg;
	struct target target;
	struct folder *folder;
	struct report *report;
	enum policy policy;
	bool policy_given, dry_run, json, resume;
	bool replace, replace_given;	/* --directories=replace */

	/* Offline: the directories named (paths inside the filesystem), the
	   one being walked, and the directories already planned. */
	bool offline;
	const char *undo_file;
	char *undo_default;
	char **roots;
	size_t nroots;
	const char *root_path;
	ext2fs_inode_bitmap planned;
	bool enable_casefold;	/* the feature is off: turn it on */
	bool undo_written;	/* the run changed the filesystem */

	struct plan_dir *dirs;
	size_t ndirs, capdirs;
	size_t casefolded;	/* directories already +F */
	size_t groups;		/* collision groups in directories to convert */
	size_t refused;		/* names a strict +F directory would refuse */
	size_t unnamed;		/* names the rename policy could not rename */
	const struct walk_dir *walking;	/* the directory being visited */

	int parentfd, workfd;
	char workname[64];
	struct journal journal;

	/* What was done, for the report. */
	size_t converted, moved;
	struct rename *done_renames;
	size_t ndone, capdone;
	const char **done_dirs;	/* the directory of each done rename */

	/* GAMEPART_TEST_CRASH_AFTER: see crash_point(). */
	long crash_after;
	const char *crash_phase;	/* or at the first change of this phase */
	char crash_phase_buf[64];
	enum { CRASH_KILL, CRASH_POWEROFF, CRASH_STOP } crash_mode;
	long changes;
};

/*
 * Test hook: GAMEPART_TEST_CRASH_AFTER=N stops the program dead right
 * after its Nth change to the filesystem (a rename, mkdir, rmdir, flag or
 * journal record), or, given a phase's name instead of N, after the
 * first change of that phase.  A ":poweroff" suffix powers the machine
 * off instead, without syncing (sysrq 'o', for the guest tests), and
 * ":stop" stops the process (SIGSTOP) so that a test can change the
 * filesystem under it and let it go on.  The crash tests spread N over
 * the changes a conversion makes;
 * the phase is named on stderr first.
 */
static void crash_point(struct convert *c, const char *phase)
{
	++c->changes;
	if (c->crash_phase) {
		if (strcmp(phase, c->crash_phase))
			return;
		c->crash_phase = NULL;
	} else if (!c->crash_after || c->changes != c->crash_after) {
		return;
	}
	/* For the test's account of which phases its stops hit. */
	fprintf(stderr, "gamepart: convert: test crash after change %ld (%s)\n",
		c->changes, phase);
	if (c->crash_mode == CRASH_STOP) {
		raise(SIGSTOP);
		return;
	}
	if (c->crash_mode == CRASH_POWEROFF) {
		int fd = open("/proc/sysrq-trigger", O_WRONLY | O_CLOEXEC);

		if (fd >= 0 && write(fd, "o", 1) == 1)
			pause();
	}
	raise(SIGKILL);
}

static void crash_setup(struct convert *c)
{
	const char *v = getenv("GAMEPART_TEST_CRASH_AFTER");
	char *end;

	if (!v || !*v)
		return;
	c->crash_after = strtol(v, &end, 10);
	if (end == v) {
		/* A phase: the first change of that phase. */
		c->crash_phase = c->crash_phase_buf;
		snprintf(c->crash_phase_buf, sizeof(c->crash_phase_buf), "%s", v);
		end = strrchr(c->crash_phase_buf, ':');
		if (end)
			*end++ = '\0';
		else
			end = "";
	}
	c->crash_mode = !strcmp(end, "poweroff") || !strcmp(end, ":poweroff") ?
			CRASH_POWEROFF :
			!strcmp(end, "stop") || !strcmp(end, ":stop") ?
			CRASH_STOP : CRASH_KILL;
}

/* ---- planning ---- */

static bool is_continuation(unsigned char b)
{
	return (b & 0xc0) == 0x80;
}

/*
 * NAME with " (case conflict N)" before its last ".suffix" (none when the
 * only dot leads, as in ".bashrc"), the stem shortened at a character
 * boundary to stay within 255 bytes.  NULL if the suffix leaves no room.
 */
static char *conflict_name(const char *name, size_t len, unsigned int n,
			   size_t *outlen)
{
	const char *dot = memrchr(name, '.', len);
	size_t stem = dot && dot != name ? (size_t)(dot - name) : len;
	size_t ext = len - stem;
	char tag[40];
	size_t taglen = (size_t)snprintf(tag, sizeof(tag),
					 " (case conflict %u)", n);
	char *out;

	if (ext + taglen >= NAME_MAX_BYTES)
		return NULL;
	if (stem + taglen + ext > NAME_MAX_BYTES) {
		stem = NAME_MAX_BYTES - taglen - ext;
		while (stem > 0 && is_continuation((unsigned char)name[stem]))
			stem--;
	}
	out = xmalloc(stem + taglen + ext + 1);
	memcpy(out, name, stem);
	memcpy(out + stem, tag, taglen);
	memcpy(out + stem + taglen, name + len - ext, ext);
	*outlen = stem + taglen + ext;
	out[*outlen] = '\0';
	return out;
}

/* Whether NAME folds like an entry of DIR or a name already chosen. */
static bool name_taken(const struct convert *c, const struct walk_dir *dir,
		       const struct plan_dir *pd, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < dir->count; i++)
		if (fold_equal(c->folder, name, len, dir->entries[i].name,
			       dir->entries[i].len))
			return true;
	for (i = 0; i < pd->nrenames; i++)
		if (fold_equal(c->folder, name, len, pd->renames[i].new,
			       pd->renames[i].newlen))
			return true;
	return false;
}

static int by_bytes(const void *a, const void *b)
{
	const struct walk_entry *x = *(const struct walk_entry *const *)a;
	const struct walk_entry *y = *(const struct walk_entry *const *)b;
	size_t n = x->len < y->len ? x->len : y->len;
	int r = memcmp(x->name, y->name, n);

	return r ? r : (x->len > y->len) - (x->len < y->len);
}

static void on_group(void *ctx, const struct walk_entry *const *group,
		     size_t n)
{
	struct convert *c = ctx;
	const struct walk_entry **sorted;
	struct plan_dir *pd = &c->dirs[c->ndirs - 1];
	size_t i;

	report_collision(c->report, group, n);
	c->groups++;
	if (c->policy != ON_COLLISION_RENAME)
		return;

	sorted = xmalloc(n * sizeof(*sorted));
	memcpy(sorted, group, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), by_bytes);
	pd->renames = xrealloc(pd->renames,
			       (pd->nrenames + n) * sizeof(*pd->renames));
	/* The first by bytes keeps its name. */
	for (i = 1; i < n; i++) {
		const struct walk_entry *e = sorted[i];
		struct rename *r = &pd->renames[pd->nrenames];
		unsigned int k;
		char *name = NULL;
		size_t len = 0;

		for (k = 1; k < 100000; k++) {
			name = conflict_name(e->name, e->len, k, &len);
			if (!name || !name_taken(c, c->walking, pd, name, len))
				break;
			free(name);
			name = NULL;
		}
		if (!name) {
			char *q = report_escape(e->name, e->len, true);
			gp_warn("%s: %s: no room for a ' (case conflict N)' name",
				pd->path, q);
			free(q);
			c->unnamed++;
			continue;
		}
		r->old = xmalloc(e->len + 1);
		memcpy(r->old, e->name, e->len);
		r->old[e->len] = '\0';
		r->oldlen = e->len;
		r->new = name;
		r->newlen = len;
		r->ino = e->ino;
		r->planned = true;
		pd->nrenames++;
	}
	free(sorted);
}

/*
 * The path a report gives for a directory: online relative to PATH,
 * offline absolute inside the filesystem.
 */
static char *plan_path(const struct convert *c, const char *path)
{
	const char *root = c->root_path;

	if (!root)
		return xstrdup(path);
	if (!strcmp(path, "."))
		return xstrdup(root);
	return xasprintf("%s/%s", strcmp(root, "/") ? root : "", path);
}

static int visit(void *ctx, const struct walk_dir *d)
{
	struct convert *c = ctx;
	struct plan_dir *pd;
	char *path;
	uint32_t cp;
	size_t i;

	/* Offline, two DIRs may share a subtree. */
	if (c->planned) {
		if (ext2fs_test_inode_bitmap2(c->planned, d->ino))
			return 0;
		ext2fs_mark_inode_bitmap2(c->planned, d->ino);
	}
	path = plan_path(c, d->path);
	report_dir(c->report, path, d->casefolded);
	report_scanned(c->report, d->count);
	if (d->casefolded) {
		c->casefolded++;
		free(path);
		return 0;
	}
	for (i = 0; i < d->count; i++) {
		const struct walk_entry *e = &d->entries[i];

		switch (fold_examine(c->folder, e->name, e->len, &cp)) {
		case FOLD_INVALID:
			report_invalid(c->report, e->name, e->len,
				       folder_strict(c->folder));
			if (folder_strict(c->folder))
				c->refused++;
			break;
		case FOLD_IGNORABLE:
			report_ignorable(c->report, e->name, e->len, cp);
			break;
		case FOLD_PLAIN:
			break;
		}
	}
	if (c->ndirs == c->capdirs) {
		c->capdirs = c->capdirs ? 2 * c->capdirs : 64;
		c->dirs = xrealloc(c->dirs, c->capdirs * sizeof(*c->dirs));
	}
	pd = &c->dirs[c->ndirs++];
	memset(pd, 0, sizeof(*pd));
	pd->path = path;
	pd->ino = d->ino;
	c->walking = d;
	fold_groups(c->folder, d->entries, d->count, on_group, c);
	c->walking = NULL;
	return 0;
}

static void free_plan(struct convert *c)
{
	size_t i, j;

	for (i = 0; i < c->ndirs; i++) {
		for (j = 0; j < c->dirs[i].nrenames; j++) {
			free(c->dirs[i].renames[j].old);
			free(c->dirs[i].renames[j].new);
		}
		free(c->dirs[i].renames);
		free(c->dirs[i].path);
	}
	free(c->dirs);
	c->dirs = NULL;
	c->ndirs = c->capdirs = 0;
	c->casefolded = c->groups = c->refused = c->unnamed = 0;
}

/* Walk and check the tree into a plan; -1 when it cannot be converted. */
static int plan(struct convert *c)
{
	struct walk_result res = { 0 };

	free_plan(c);
	report_free(c->report);
	c->report = report_new();
	if (!c->offline) {
		walk_target(&c->target, visit, c, &res);
	} else {
		ext2fs_clear_inode_bitmap(c->planned);
		for (size_t i = 0; i < c->nroots; i++) {
			struct walk_result one;

			c->root_path = c->roots[i];
			if (target_find_dir(&c->target, c->roots[i],
					    &c->target.ino) < 0)
				return -1;
			walk_target(&c->target, visit, c, &one);
			res.errors += one.errors;
			res.skipped += one.skipped;
			res.mounts += one.mounts;
		}
	}
	if (res.mounts) {
		gp_warn("%s: %lu other filesystem%s mounted inside the tree, nothing changed",
			c->arg, res.mounts, res.mounts == 1 ? " is" : "s are");
		return -1;
	}
	if (res.errors) {
		gp_warn("%s: the tree could not be read whole, nothing changed",
			c->arg);
		return -1;
	}
	if (res.skipped) {
		gp_warn("%s: %lu encrypted director%s inside the tree, nothing changed",
			c->arg, res.skipped, res.skipped == 1 ? "y" : "ies");
		return -1;
	}
	return 0;
}

/* ---- the work directory and the lock ---- */

static int open_dir_at(int dirfd, const char *name)
{
	return openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		      O_CLOEXEC);
}

/*
 * PATH's directory: RELPATH beneath the tree's root, never through a
 * symbolic link or into another mount.
 */
static int open_beneath(int rootfd, const char *relpath)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, rootfd, relpath, &how, sizeof(how));
}

/*
 * Open PATH's parent and the work directory's name; refuse a PATH that is
 * the root of its filesystem, whose entries have nowhere to go.
 */
static int open_parent(struct convert *c)
{
	struct stat st, pst;

	if (fstat(c->target.dirfd, &st) < 0) {
		gp_warn("%s: %s", c->arg, strerror(errno));
		return -1;
	}
	c->parentfd = openat(c->target.dirfd, "..", O_RDONLY | O_DIRECTORY |
			     O_CLOEXEC);
	if (c->parentfd < 0 || fstat(c->parentfd, &pst) < 0) {
		gp_warn("%s/..: %s", c->arg, strerror(errno));
		return -1;
	}
	if (pst.st_dev != st.st_dev || pst.st_ino == st.st_ino) {
		gp_warn("%s: the root of its filesystem: its entries have nowhere to go while it is emptied; convert the directories under it, or the filesystem offline",
			c->arg);
		return -1;
	}
	snprintf(c->workname, sizeof(c->workname), CONVERT_WORK_PREFIX "%llu",
		 (unsigned long long)st.st_ino);
	return 0;
}

/* ---- refusals ---- */

static int refuse_unconvertible(struct convert *c)
{
	const struct walk_fs *fs = &c->target.fsinfo;
	struct statvfs sv;

	if (!fs->known) {
		gp_warn("%s: cannot read the filesystem's features (%s); run as root",
			c->arg, fs->why);
		return -1;
	}
	if (!fs->casefold_feature) {
		gp_warn("%s: the filesystem has no casefold feature; unmount it, then: tune2fs -O casefold %s",
			c->arg, fs->device[0] ? fs->device : "DEVICE");
		return -1;
	}
	if (fstatvfs(c->target.dirfd, &sv) < 0) {
		gp_warn("%s: %s", c->arg, strerror(errno));
		return -1;
	}
	if (sv.f_flag & ST_RDONLY) {
		gp_warn("%s: the filesystem is mounted read-only", c->arg);
		return -1;
	}
	/* The work directory, its journal and one temporary directory. */
	if (sv.f_favail < 3) {
		gp_warn("%s: %llu free inode%s, 3 needed for the temporary directories",
			c->arg, (unsigned long long)sv.f_favail,
			sv.f_favail == 1 ? "" : "s");
		return -1;
	}
	return 0;
}

/* Lock the journal in the open work directory; -1 with a message. */
static int lock_journal(struct convert *c, int workfd, const char *workname,
			bool create)
{
	int ret = journal_open(&c->journal, workfd, create);

	if (ret == -EWOULDBLOCK) {
		gp_warn("%s: another conversion of this tree is in progress",
			c->arg);
		return -1;
	}
	if (ret < 0) {
		gp_warn("%s/../%s/" CONVERT_JOURNAL ": %s", c->arg, workname,
			strerror(-ret));
		return -1;
	}
	return 0;
}

/*
 * Open the work directory of an earlier conversion and lock its journal:
 * 0, 1 if there is none, 2 if there is only the empty work directory of
 * a finished conversion (for remove_work_dir), -1 on an error (with a
 * message).
 */
static int open_work(struct convert *c)
{
	struct stat st;

	c->workfd = open_dir_at(c->parentfd, c->workname);
	if (c->workfd < 0 && errno == ENOENT)
		return 1;
	if (c->workfd < 0) {
		gp_warn("%s/../%s: %s", c->arg, c->workname, strerror(errno));
		return -1;
	}
	/*
	 * The work directory has a journal from its making (make_work) until
	 * the conversion is done; without one, the run that finished was
	 * stopped before it could remove the directory.
	 */
	if (fstatat(c->workfd, CONVERT_JOURNAL, &st, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno == ENOENT) {
		close(c->workfd);
		c->workfd = -1;
		return 2;
	}
	return lock_journal(c, c->workfd, c->workname, false);
}

/*
 * Make the work directory with its journal's header in it, under a
 * temporary name renamed into place: a work directory always has a
 * journal that says which policy the conversion follows.  One left under
 * the temporary name by a crash is removed first, unless a conversion
 * holds its lock.
 */
static int make_work(struct convert *c)
{
	char newname[sizeof(c->workname) + 8];
	int fd;

	snprintf(newname, sizeof(newname), "%s.new", c->workname);
	fd = open_dir_at(c->parentfd, newname);
	if (fd >= 0) {
		if (lock_journal(c, fd, newname, true) < 0) {
			close(fd);
			return -1;
		}
		journal_close(&c->journal);
		if (unlinkat(fd, CONVERT_JOURNAL, 0) < 0 && errno != ENOENT) {
			gp_warn("%s/../%s: %s", c->arg, newname, strerror(errno));
			close(fd);
			return -1;
		}
		close(fd);
		if (unlinkat(c->parentfd, newname, AT_REMOVEDIR) < 0) {
			gp_warn("%s/../%s: %s", c->arg, newname, strerror(errno));
			return -1;
		}
	}
	if (mkdirat(c->parentfd, newname, 0700) < 0) {
		gp_warn("%s/../%s: %s", c->arg, newname, strerror(errno));
		return -1;
	}
	c->workfd = open_dir_at(c->parentfd, newname);
	if (c->workfd < 0) {
		gp_warn("%s/../%s: %s", c->arg, newname, strerror(errno));
		return -1;
	}
	if (lock_journal(c, c->workfd, newname, true) < 0)
		return -1;
	if (journal_start(&c->journal, c->policy == ON_COLLISION_RENAME,
			  c->replace) < 0 ||
	    fsync(c->workfd) < 0) {
		gp_warn("%s/../%s/" CONVERT_JOURNAL ": %s", c->arg, newname,
			strerror(errno));
		return -1;
	}
	if (renameat2(c->parentfd, newname, c->parentfd, c->workname,
		      RENAME_NOREPLACE) < 0 || fsync(c->parentfd) < 0) {
		gp_warn("%s/../%s: %s", c->arg, c->workname, strerror(errno));
		return -1;
	}
	crash_point(c, "work directory made");
	return 0;
}

/* ---- converting one directory ---- */

static int get_flags(int fd, int *flags)
{
	return ioctl(fd, FS_IOC_GETFLAGS, flags);
}

static int set_casefold(int fd)
{
	int flags;

	if (get_flags(fd, &flags) < 0)
		return -1;
	flags |= FS_CASEFOLD_FL;
	return ioctl(fd, FS_IOC_SETFLAGS, &flags);
}

/* The names in FD, NULL-terminated, without "." and "..". */
static char **list_names(int fd, size_t *count)
{
	char buf[32768], **names = NULL;
	size_t n = 0, cap = 0;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return NULL;
	for (;;) {
		ssize_t got = getdents64(fd, buf, sizeof(buf));
		ssize_t off;

		if (got < 0) {
			while (n)
				free(names[--n]);
			free(names);
			return NULL;
		}
		if (!got)
			break;
		for (off = 0; off < got;) {
			const struct dirent64 *d = (const void *)(buf + off);

			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (n + 1 >= cap) {
				cap = cap ? 2 * cap : 64;
				names = xrealloc(names, cap * sizeof(*names));
			}
			names[n++] = xstrdup(d->d_name);
		}
	}
	if (!names)
		names = xmalloc(sizeof(*names));
	names[n] = NULL;
	*count = n;
	return names;
}

static void free_names(char **names)
{
	char **p;

	for (p = names; p && *p; p++)
		free(*p);
	free(names);
}

static void note_rename(struct convert *c, const char *dir,
			const struct rename *r)
{
	struct rename *d;

	if (c->ndone == c->capdone) {
		c->capdone = c->capdone ? 2 * c->capdone : 16;
		c->done_renames = xrealloc(c->done_renames,
					   c->capdone * sizeof(*c->done_renames));
		c->done_dirs = xrealloc(c->done_dirs,
					c->capdone * sizeof(*c->done_dirs));
	}
	d = &c->done_renames[c->ndone];
	*d = *r;
	d->old = xstrdup(r->old);
	d->new = xstrdup(r->new);
	c->done_dirs[c->ndone++] = xstrdup(dir);
}

/* Move every entry of DFD into TFD; false with errno on an error. */
static bool empty_into(struct convert *c, const char *path, int dfd, int tfd)
{
	size_t n, i;
	char **names = list_names(dfd, &n);

	if (!names) {
		gp_warn("%s/%s: %s", c->arg, path, strerror(errno));
		return false;
	}
	for (i = 0; i < n; i++) {
		if (renameat2(dfd, names[i], tfd, names[i],
			      RENAME_NOREPLACE) < 0) {
			/* Removed or renamed by someone else meanwhile. */
			if (errno == ENOENT)
				continue;
			gp_warn("%s/%s/%s: moving it out: %s", c->arg, path,
				names[i], strerror(errno));
			free_names(names);
			return false;
		}
		crash_point(c, "moving entries out");
	}
	free_names(names);
	return true;
}

static const struct rename *planned_rename(const struct journal *j,
					   const char *name)
{
	size_t i;

	for (i = 0; i < j->nrenames; i++)
		if (!strcmp(j->renames[i].old, name))
			return &j->renames[i];
	return NULL;
}

/*
 * Move NAME from FROM into the casefolded TO, under its planned new name
 * if it has one.  A name that now collides (a writer created a variant
 * meanwhile) gets the next free ' (case conflict N)' name under the
 * rename policy; the kernel's EEXIST on RENAME_NOREPLACE says which are
 * free.  PHASE names the step, for the crash hook and the messages.
 */
static bool move_entry(struct convert *c, const char *path, int to, int from,
		       const char *name, const char *phase)
{
	const struct rename *planned = planned_rename(&c->journal, name);
	const char *dest = planned ? planned->new : name;
	struct rename late;
	unsigned int k;
	struct stat st;

	if (renameat2(from, name, to, dest, RENAME_NOREPLACE) == 0) {
		crash_point(c, phase);
		c->moved++;
		return true;
	}
	if (errno == ENOENT)
		return true;	/* removed or renamed by someone else */
	if (errno != EEXIST || c->journal.policy != ON_COLLISION_RENAME) {
		gp_warn("%s/%s/%s: %s: %s", c->arg, path, dest, phase,
			errno == EEXIST ?
			"a name that collides with it appeared meanwhile" :
			strerror(errno));
		return false;
	}
	for (k = 1; k < 100000; k++) {
		late.new = conflict_name(name, strlen(name), k, &late.newlen);
		if (!late.new)
			break;
		if (renameat2(from, name, to, late.new, RENAME_NOREPLACE) == 0) {
			crash_point(c, phase);
			late.old = (char *)name;
			late.oldlen = strlen(name);
			late.ino = fstatat(to, late.new, &st,
					   AT_SYMLINK_NOFOLLOW) == 0 ?
				   st.st_ino : 0;
			late.planned = false;
			note_rename(c, path, &late);
			free(late.new);
			c->moved++;
			return true;
		}
		free(late.new);
		if (errno != EEXIST)
			break;
	}
	gp_warn("%s/%s/%s: %s: %s", c->arg, path, name, phase,
		strerror(errno));
	return false;
}

/* Move every entry of FROM into TO, as move_entry() does. */
static bool move_all(struct convert *c, const char *path, int to, int from,
		     const char *phase)
{
	size_t n, i;
	char **names = list_names(from, &n);

	if (!names) {
		gp_warn("%s/%s: %s: %s", c->arg, path, phase, strerror(errno));
		return false;
	}
	for (i = 0; i < n; i++)
		if (!move_entry(c, path, to, from, names[i], phase))
			break;
	free_names(names);
	return i == n;
}

/* Report the planned renames of the directory in flight that were made,
   before an interruption too: those whose new name in DFD holds the
   inode the plan gave it. */
static void note_planned_renames(struct convert *c, int dfd)
{
	const struct journal *j = &c->journal;
	struct stat st;
	size_t i;

	for (i = 0; i < j->nrenames; i++) {
		const struct rename *r = &j->renames[i];

		if (fstatat(dfd, r->new, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_ino == r->ino)
			note_rename(c, j->path, r);
	}
}

/*
 * Convert the directory the journal names keeping its inode: empty it
 * into its temporary directory (unless it is +F already), set +F, move
 * everything back, remove the temporary directory.  Each step finds its
 * work from the filesystem, so it is also how a crashed conversion
 * resumes.
 */
static int empty_and_refill(struct convert *c)
{
	const struct journal *j = &c->journal;
	const char *path = j->path;
	char tmpname[40];
	struct stat st;
	int dfd, tfd = -1, flags, tries, ret = -1;

	dfd = open_beneath(c->target.dirfd, path);
	if (dfd < 0 || fstat(dfd, &st) < 0) {
		gp_warn("%s/%s: %s", c->arg, path, strerror(errno));
		goto out;
	}
	if (st.st_ino != j->ino) {
		gp_warn("%s/%s: replaced since it was checked (inode %llu, was %llu)",
			c->arg, path, (unsigned long long)st.st_ino,
			(unsigned long long)j->ino);
		goto out;
	}
	snprintf(tmpname, sizeof(tmpname), "d%llu",
		 (unsigned long long)j->ino);
	if (mkdirat(c->workfd, tmpname, 0700) == 0)
		crash_point(c, "temporary directory made");
	else if (errno != EEXIST) {
		gp_warn("%s/../%s/%s: %s", c->arg, c->workname, tmpname,
			strerror(errno));
		goto out;
	}
	tfd = open_dir_at(c->workfd, tmpname);
	if (tfd < 0) {
		gp_warn("%s/../%s/%s: %s", c->arg, c->workname, tmpname,
			strerror(errno));
		goto out;
	}

	for (tries = 0;; tries++) {
		if (get_flags(dfd, &flags) < 0) {
			gp_warn("%s/%s: reading its flags: %s", c->arg, path,
				strerror(errno));
			goto out;
		}
		if (flags & FS_CASEFOLD_FL)
			break;
		if (!empty_into(c, path, dfd, tfd))
			goto out;
		if (set_casefold(dfd) == 0) {
			crash_point(c, "+F set");
			break;
		}
		if (errno != ENOTEMPTY || tries == EMPTY_TRIES) {
			gp_warn("%s/%s: setting +F: %s", c->arg, path,
				errno == ENOTEMPTY ?
				"new entries keep appearing in it" :
				strerror(errno));
			goto out;
		}
	}

	if (!move_all(c, path, dfd, tfd, "moving entries back"))
		goto out;
	note_planned_renames(c, dfd);
	/* Its entries are back: so is its modification time. */
	if (futimens(dfd, j->times) < 0) {
		gp_warn("%s/%s: restoring its times: %s", c->arg, path,
			strerror(errno));
		goto out;
	}
	/*
	 * Closed first: a removed directory still open would keep the
	 * filesystem from being remounted read-only (EBUSY) for as long as
	 * the process lives, stopped or not.
	 */
	close(tfd);
	tfd = -1;
	if (unlinkat(c->workfd, tmpname, AT_REMOVEDIR) < 0) {
		gp_warn("%s/../%s/%s: %s", c->arg, c->workname, tmpname,
			strerror(errno));
		goto out;
	}
	crash_point(c, "temporary directory removed");
	journal_done(&c->journal);
	c->converted++;
	ret = 0;
out:
	if (tfd >= 0)
		close(tfd);
	if (dfd >= 0)
		close(dfd);
	return ret;
}

/* ---- replacing one directory (--directories=replace) ---- */

/* The directory that holds PATH (relative to the tree's root). */
static char *parent_path(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? xasprintf("%.*s", (int)(slash - path), path) :
		       xstrdup(".");
}

/*
 * The inode flags a replacing directory takes from the one it replaces:
 * those chattr sets, but for casefold itself and immutable and
 * append-only, under which the entries could not have been moved out.
 */
#define CARRIED_FLAGS	(FS_SYNC_FL | FS_NODUMP_FL | FS_NOATIME_FL | \
			 FS_DIRSYNC_FL | FS_TOPDIR_FL | FS_PROJINHERIT_FL | \
			 FS_JOURNAL_DATA_FL)

/* FD's extended attribute names, as flistxattr() gives them. */
static char *list_xattrs(int fd, ssize_t *len)
{
	for (;;) {
		ssize_t size = flistxattr(fd, NULL, 0);
		char *buf;

		if (size < 0)
			return NULL;
		buf = xmalloc((size_t)size + 1);
		*len = flistxattr(fd, buf, (size_t)size);
		if (*len >= 0)
			return buf;
		free(buf);
		if (errno != ERANGE)	/* else one was added meanwhile */
			return NULL;
	}
}

static bool has_xattr(const char *names, ssize_t len, const char *name)
{
	const char *p;

	for (p = names; p < names + len; p += strlen(p) + 1)
		if (!strcmp(p, name))
			return true;
	return false;
}

/*
 * Give TO exactly FROM's extended attributes, whatever their namespace:
 * user, trusted, security and the POSIX ACLs (system.posix_acl_access
 * and _default) alike.  The name that failed goes to *WHAT.
 */
static int copy_xattrs(int from, int to, const char **what)
{
	char *names, *have, *value = xmalloc(XATTR_SIZE_MAX);
	ssize_t len, hlen, vlen;
	const char *p;
	int ret = -1;

	*what = "listing them";
	names = list_xattrs(from, &len);
	if (!names)
		goto out_value;
	have = list_xattrs(to, &hlen);
	if (!have)
		goto out_names;
	/* The work directory's parent may pass default ACLs down to it. */
	for (p = have; p < have + hlen; p += strlen(p) + 1) {
		*what = p;
		if (!has_xattr(names, len, p) && fremovexattr(to, p) < 0)
			goto out;
	}
	for (p = names; p < names + len; p += strlen(p) + 1) {
		*what = p;
		vlen = fgetxattr(from, p, value, XATTR_SIZE_MAX);
		if (vlen < 0 && errno == ENODATA)
			continue;	/* removed since it was listed */
		if (vlen < 0 || fsetxattr(to, p, value, (size_t)vlen, 0) < 0)
			goto out;
	}
	ret = 0;
out:
	free(have);
out_names:
	free(names);
out_value:
	free(value);
	return ret;
}

/*
 * Give TO, the new casefolded directory, what FROM has of its own that a
 * rename would have kept: owner, extended attributes (ACLs among them),
 * mode, inode flags and project.  Its times follow once it is full;
 * its change and creation times are its own.
 */
static int copy_attributes(struct convert *c, const char *path, int from,
			   int to)
{
	struct fsxattr fx, tx;
	const char *what;
	struct stat st;
	int flags, tflags;

	what = "reading them";
	if (fstat(from, &st) < 0)
		goto fail;
	what = "setting its owner";
	if (fchown(to, st.st_uid, st.st_gid) < 0)
		goto fail;
	/* The ACLs before the mode: setting the mode sets their mask. */
	if (copy_xattrs(from, to, &what) < 0) {
		gp_warn("%s/%s: copying its extended attribute %s: %s", c->arg,
			path, what, strerror(errno));
		return -1;
	}
	what = "setting its mode";
	if (fchmod(to, st.st_mode & 07777) < 0)
		goto fail;
	what = "setting its flags";
	if (get_flags(from, &flags) < 0 || get_flags(to, &tflags) < 0)
		goto fail;
	flags = (tflags & ~CARRIED_FLAGS) | (flags & CARRIED_FLAGS);
	if (flags != tflags && ioctl(to, FS_IOC_SETFLAGS, &flags) < 0)
		goto fail;
	/* Without it, every entry of a project directory would be EXDEV. */
	what = "setting its project";
	if (ioctl(from, FS_IOC_FSGETXATTR, &fx) < 0 ||
	    ioctl(to, FS_IOC_FSGETXATTR, &tx) < 0)
		goto fail;
	if (fx.fsx_projid != tx.fsx_projid) {
		tx.fsx_projid = fx.fsx_projid;
		if (ioctl(to, FS_IOC_FSSETXATTR, &tx) < 0)
			goto fail;
	}
	return 0;
fail:
	gp_warn("%s/%s: copying its attributes: %s: %s", c->arg, path, what,
		strerror(errno));
	return -1;
}

/*
 * Convert the directory the journal names by replacing it: a new
 * directory, made in the work directory and set +F while empty, takes
 * the old one's attributes (copy_attributes) and then its entries, one
 * rename each; RENAME_EXCHANGE puts it in the old one's place in a
 * single step, so that the path never lacks a directory, and the old
 * one, emptied, is removed.  Whichever of the path and the work
 * directory's n<INO> holds the journal's inode says, after a crash,
 * whether the exchange was made.
 */
static int replace_dir(struct convert *c)
{
	const struct journal *j = &c->journal;
	const char *path = j->path, *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *parent = parent_path(path);
	char newname[40];
	struct stat st;
	int pfd, dfd = -1, nfd = -1, flags, tries, ret = -1;

	snprintf(newname, sizeof(newname), "n%llu",
		 (unsigned long long)j->ino);
	pfd = open_beneath(c->target.dirfd, parent);
	if (pfd >= 0)
		dfd = open_dir_at(pfd, base);
	if (dfd < 0 || fstat(dfd, &st) < 0) {
		gp_warn("%s/%s: %s", c->arg, path, strerror(errno));
		goto out;
	}
	if (st.st_ino != j->ino) {
		/* Exchanged already: the old one is in the work directory,
		   unless it was removed too and only "done" was lost. */
		nfd = dfd;
		dfd = open_dir_at(c->workfd, newname);
		if (dfd < 0 && errno == ENOENT && get_flags(nfd, &flags) == 0 &&
		    (flags & FS_CASEFOLD_FL)) {
			note_planned_renames(c, nfd);
			goto done;
		}
		if (dfd < 0 || fstat(dfd, &st) < 0 || st.st_ino != j->ino) {
			gp_warn("%s/%s: replaced since it was checked (inode %llu, was %llu)",
				c->arg, path, (unsigned long long)st.st_ino,
				(unsigned long long)j->ino);
			goto out;
		}
	} else {
		if (mkdirat(c->workfd, newname, 0700) == 0)
			crash_point(c, "new directory made");
		else if (errno != EEXIST)
			goto work_fail;
		nfd = open_dir_at(c->workfd, newname);
		if (nfd < 0 || get_flags(nfd, &flags) < 0)
			goto work_fail;
		if (!(flags & FS_CASEFOLD_FL)) {
			if (set_casefold(nfd) < 0)
				goto work_fail;
			crash_point(c, "+F set");
		}
		if (copy_attributes(c, path, dfd, nfd) < 0)
			goto out;
		crash_point(c, "attributes copied");
		if (!move_all(c, path, nfd, dfd, "moving entries in"))
			goto out;
		if (renameat2(pfd, base, c->workfd, newname,
			      RENAME_EXCHANGE) < 0) {
			gp_warn("%s/%s: exchanging it with %s/../%s/%s: %s",
				c->arg, path, c->arg, c->workname, newname,
				strerror(errno));
			goto out;
		}
		crash_point(c, "directory exchanged");
	}

	/*
	 * The old directory may have gained entries since it was listed:
	 * made through a handle on it, or by name before the exchange.
	 * They follow the others, until it can be removed.
	 */
	for (tries = 0;; tries++) {
		if (!move_all(c, path, nfd, dfd, "moving late entries in"))
			goto out;
		close(dfd);
		dfd = -1;
		if (futimens(nfd, j->times) < 0) {
			gp_warn("%s/%s: restoring its times: %s", c->arg, path,
				strerror(errno));
			goto out;
		}
		/* Before the removal, after which a resume would not. */
		if (j->has_parent_times && futimens(pfd, j->parent_times) < 0) {
			gp_warn("%s/%s: restoring its times: %s", c->arg,
				parent, strerror(errno));
			goto out;
		}
		if (unlinkat(c->workfd, newname, AT_REMOVEDIR) == 0)
			break;
		if (errno != ENOTEMPTY || tries == EMPTY_TRIES) {
			gp_warn("%s/../%s/%s: removing the directory it replaced: %s",
				c->arg, c->workname, newname,
				errno == ENOTEMPTY ?
				"new entries keep appearing in it" :
				strerror(errno));
			goto out;
		}
		dfd = open_dir_at(c->workfd, newname);
		if (dfd < 0)
			goto work_fail;
	}
	crash_point(c, "old directory removed");
	note_planned_renames(c, nfd);
done:
	journal_done(&c->journal);
	c->converted++;
	ret = 0;
	goto out;
work_fail:
	gp_warn("%s/../%s/%s: %s", c->arg, c->workname, newname,
		strerror(errno));
out:
	if (nfd >= 0)
		close(nfd);
	if (dfd >= 0)
		close(dfd);
	if (pfd >= 0)
		close(pfd);
	free(parent);
	return ret;
}

/*
 * Finish the directory the journal names.  PATH itself always keeps its
 * inode: its work directory is named after it, and bind mounts of a
 * library's root, the likeliest, keep working.
 */
static int finish_dir(struct convert *c)
{
	if (c->journal.replace && strcmp(c->journal.path, "."))
		return replace_dir(c);
	return empty_and_refill(c);
}

/* Convert every directory of the plan, children first. */
static int run_plan(struct convert *c)
{
	size_t i;

	for (i = c->ndirs; i-- > 0;) {
		const struct plan_dir *pd = &c->dirs[i];
		struct timespec times[2], parent_times[2];
		struct stat st;
		bool replacing;
		int fd = open_beneath(c->target.dirfd, pd->path);

		if (fd < 0 || fstat(fd, &st) < 0) {
			gp_warn("%s/%s: %s", c->arg, pd->path, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		/*
		 * A directory to rename may have been replaced since the plan
		 * (--directories=replace): the journal and the report give
		 * the inode it has now.
		 */
		for (size_t k = 0; k < pd->nrenames; k++) {
			struct stat est;

			if (fstatat(fd, pd->renames[k].old, &est,
				    AT_SYMLINK_NOFOLLOW) == 0)
				pd->renames[k].ino = est.st_ino;
		}
		close(fd);
		times[0] = st.st_atim;
		times[1] = st.st_mtim;
		/*
		 * Replacing it changes its parent's entry, and so its
		 * parent's times, which the journal keeps to restore.
		 */
		replacing = c->journal.replace && strcmp(pd->path, ".");
		if (replacing) {
			char *parent = parent_path(pd->path);

			fd = open_beneath(c->target.dirfd, parent);
			if (fd < 0 || fstat(fd, &st) < 0) {
				gp_warn("%s/%s: %s", c->arg, parent,
					strerror(errno));
				if (fd >= 0)
					close(fd);
				free(parent);
				return -1;
			}
			close(fd);
			free(parent);
			parent_times[0] = st.st_atim;
			parent_times[1] = st.st_mtim;
		}
		if (journal_begin(&c->journal, pd->path, pd->ino, times,
				  replacing ? parent_times : NULL,
				  pd->renames, pd->nrenames) < 0) {
			gp_warn("%s/../%s/" CONVERT_JOURNAL ": %s", c->arg,
				c->workname, strerror(errno));
			return -1;
		}
		crash_point(c, "directory's plan recorded");
		if (finish_dir(c) < 0)
			return -1;
	}
	return 0;
}

/*
 * Remove the work directory, once empty.  A run started after the
 * journal's removal may have removed it first (open_work returns 2).
 */
static int remove_work_dir(struct convert *c)
{
	if (unlinkat(c->parentfd, c->workname, AT_REMOVEDIR) < 0 &&
	    errno != ENOENT) {
		gp_warn("%s/../%s: removing it: %s", c->arg, c->workname,
			strerror(errno));
		return -1;
	}
	return 0;
}

static int remove_work(struct convert *c)
{
	if (journal_remove(&c->journal, c->workfd) < 0) {
		gp_warn("%s/../%s: removing it: %s", c->arg, c->workname,
			strerror(errno));
		return -1;
	}
	crash_point(c, "journal removed");
	return remove_work_dir(c);
}

/* ---- output ---- */

static size_t planned_renames(const struct convert *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->ndirs; i++)
		n += c->dirs[i].nrenames;
	return n;
}

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

static int print_result(struct convert *c, const char *outcome)
{
	size_t i, j;

	if (c->json) {
		json_object *root = report_json(c->report);
		json_object *conv = json_object_new_object();
		json_object *arr = json_object_new_array();

		if (!root || !conv || !arr)
			gp_die("out of memory");
		json_object_object_add(conv, "outcome",
				       json_object_new_string(outcome));
		json_object_object_add(conv, "dry_run",
				       json_object_new_boolean(c->dry_run));
		json_object_object_add(conv, "on_collision",
				       json_object_new_string(c->policy == ON_COLLISION_RENAME ?
							      "rename" : "fail"));
		json_object_object_add(conv, "directories_to_convert",
				       json_object_new_int64((int64_t)c->ndirs));
		json_object_object_add(conv, "directories_converted",
				       json_object_new_int64((int64_t)c->converted));
		if (!c->offline)
			json_object_object_add(conv, "directories",
					       json_object_new_string(c->replace ?
								      "replace" : "keep"));
		json_object_object_add(conv, c->offline ? "entries_relinked" :
				       "entries_moved",
				       json_object_new_int64((int64_t)c->moved));
		if (c->offline && c->undo_written)
			json_object_object_add(conv, "undo_file",
					       json_object_new_string(c->undo_file));
		if (c->dry_run) {
			for (i = 0; i < c->ndirs; i++)
				for (j = 0; j < c->dirs[i].nrenames; j++)
					json_object_array_add(arr,
						jrename(c->dirs[i].path,
							&c->dirs[i].renames[j]));
		} else {
			for (i = 0; i < c->ndone; i++)
				json_object_array_add(arr,
					jrename(c->done_dirs[i],
						&c->done_renames[i]));
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

	if (report_print_human(c->report, stdout) < 0)
		return -1;
	if (c->dry_run) {
		for (i = 0; i < c->ndirs; i++)
			for (j = 0; j < c->dirs[i].nrenames; j++)
				print_rename(c->dirs[i].path,
					     &c->dirs[i].renames[j], false);
		printf("would convert %zu director%s (%zu already casefolded), renaming %zu name%s\n",
		       c->ndirs, c->ndirs == 1 ? "y" : "ies", c->casefolded,
		       planned_renames(c), planned_renames(c) == 1 ? "" : "s");
	} else {
		for (i = 0; i < c->ndone; i++)
			print_rename(c->done_dirs[i], &c->done_renames[i], true);
		printf("%s: %zu director%s converted, %zu entr%s %s, %zu renamed\n",
		       outcome, c->converted, c->converted == 1 ? "y" : "ies",
		       c->moved, c->moved == 1 ? "y" : "ies",
		       c->offline ? "relinked" : "moved", c->ndone);
	}
	return ferror(stdout) ? -1 : 0;
}

/* ---- the command ---- */

static int parse_policy(const char *arg, enum policy *p)
{
	if (!strcmp(arg, "fail"))
		*p = ON_COLLISION_FAIL;
	else if (!strcmp(arg, "rename"))
		*p = ON_COLLISION_RENAME;
	else
		return -1;
	return 0;
}

/*
 * After planning: the exit status if the plan stops here (names that
 * cannot be kept, collisions under the fail policy, a dry run), or -1
 * to go on and change the filesystem.
 */
static int stop_before_changes(struct convert *c)
{
	if (c->refused) {
		print_result(c, "stopped");
		gp_warn("%s: %zu name%s that a strict casefolded directory refuses, nothing changed",
			c->arg, c->refused, c->refused == 1 ? "" : "s");
		return EXIT_FINDINGS;
	}
	if (c->groups && c->policy == ON_COLLISION_FAIL) {
		print_result(c, "stopped");
		gp_warn("%s: %zu group%s of names collide, nothing changed (--on-collision=rename renames them)",
			c->arg, c->groups, c->groups == 1 ? "" : "s");
		return EXIT_FINDINGS;
	}
	if (c->unnamed) {
		print_result(c, "stopped");
		gp_warn("%s: %zu name%s cannot be renamed, nothing changed",
			c->arg, c->unnamed, c->unnamed == 1 ? "" : "s");
		return EXIT_FINDINGS;
	}
	if (c->dry_run)
		return print_result(c, "dry run") < 0 ? EXIT_TROUBLE :
		       EXIT_NOTHING_FOUND;
	return -1;
}

/*
 * Plan; the exit status if the conversion stops before its first change,
 * or -1 to go on.  With nothing to convert it stops, unless MORE (work
 * besides the directories) is to be done.
 */
static int plan_verdict(struct convert *c, bool more)
{
	int ret;

	if (plan(c) < 0)
		return EXIT_TROUBLE;
	ret = stop_before_changes(c);
	if (ret >= 0)
		return ret;
	if (!c->ndirs && !more) {
		print_result(c, "nothing to do, every directory is casefolded");
		return EXIT_NOTHING_FOUND;
	}
	return -1;
}

/* Check, then convert; the exit status. */
static int convert_tree(struct convert *c)
{
	int ret = plan_verdict(c, c->resume);

	if (ret >= 0)
		return ret;
	if (c->journal.fd < 0 && make_work(c) < 0)
		return EXIT_TROUBLE;
	if (run_plan(c) < 0 || remove_work(c) < 0) {
		print_result(c, "interrupted");
		gp_warn("%s: the conversion stopped; once the cause is gone: gamepart convert --resume %s",
			c->arg, c->arg);
		return EXIT_TROUBLE;
	}
	return print_result(c, "converted") < 0 ? EXIT_TROUBLE :
	       EXIT_NOTHING_FOUND;
}

static int resume(struct convert *c)
{
	int ret = open_work(c);

	if (ret == 1) {
		gp_warn("%s: no interrupted conversion to resume", c->arg);
		return EXIT_TROUBLE;
	}
	if (ret < 0)
		return EXIT_TROUBLE;
	/* Only the work directory was left: the tree is converted. */
	if (ret == 2)
		return remove_work_dir(c) < 0 ? EXIT_TROUBLE : convert_tree(c);
	if (journal_read(&c->journal) < 0) {
		gp_warn("%s/../%s/" CONVERT_JOURNAL ": unreadable: %s", c->arg,
			c->workname, strerror(errno));
		return EXIT_TROUBLE;
	}
	if (!c->policy_given)
		c->policy = c->journal.policy;
	c->journal.policy = c->policy;
	/* A directory in flight is finished the way it was started. */
	if (c->replace_given && c->replace != c->journal.replace) {
		gp_warn("%s: the interrupted conversion %s directories: resume it without --directories",
			c->arg, c->journal.replace ? "replaces" : "keeps");
		return EXIT_TROUBLE;
	}
	c->replace = c->journal.replace;
	/* What the interrupted run did is part of this one's report. */
	for (size_t i = 0; i < c->journal.nhistory; i++)
		note_rename(c, c->journal.history_dirs[i],
			    &c->journal.history[i]);
	/* The directory in flight, if its plan was complete. */
	if (c->journal.in_flight && finish_dir(c) < 0) {
		print_result(c, "interrupted");
		return EXIT_TROUBLE;
	}
	return convert_tree(c);
}

/* ---- offline ---- */

static void offline_step(void *ctx, const char *phase)
{
	crash_point(ctx, phase);
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
static int roll_back(struct convert *c)
{
	const char *undo[] = { "e2undo", c->undo_file, c->arg, NULL };
	const char *fsck[] = { "e2fsck", "-fp", c->arg, NULL };
	int st;

	gp_warn("%s: rolling the interrupted conversion back: e2undo %s %s",
		c->arg, c->undo_file, c->arg);
	st = run_tool(undo);
	if (st) {
		if (st > 0)
			gp_warn("%s: e2undo failed (exit status %d); nothing more changed (if it found the superblock changed, the run was stopped right after writing it: e2undo -f %s %s replays the file anyway)",
				c->arg, st, c->undo_file, c->arg);
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
				c->arg, st, c->arg);
		return -1;
	}
	if (unlink(c->undo_file) < 0) {
		gp_warn("%s: %s", c->undo_file, strerror(errno));
		return -1;
	}
	return 0;
}

/* Before the filesystem is opened for writing: the undo file's story. */
static int check_undo_file(struct convert *c)
{
	int state = undo_file_state(c->undo_file);

	if (state < 0) {
		gp_warn("%s: %s", c->undo_file, errno == EINVAL ?
			"exists and is not an undo file, nothing changed" :
			strerror(errno));
		return -1;
	}
	if (state == UNDO_EMPTY && !c->dry_run) {
		/* The interrupted run changed nothing: nothing to roll back. */
		if (unlink(c->undo_file) < 0) {
			gp_warn("%s: %s", c->undo_file, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (c->dry_run) {
		if (state == UNDO_UNFINISHED)
			gp_warn("%s: note: an interrupted conversion left %s; what is read may be half converted",
				c->arg, c->undo_file);
		return 0;
	}
	if (state == UNDO_UNFINISHED && !c->resume) {
		gp_warn("%s: an interrupted conversion left %s; finish it with: gamepart convert --offline --resume %s (or roll it back with: e2undo %s %s)",
			c->arg, c->undo_file, c->arg, c->undo_file, c->arg);
		return -1;
	}
	if ((state == UNDO_NONE || state == UNDO_FINISHED) && c->resume) {
		gp_warn("%s: no interrupted conversion to resume (no unfinished %s)",
			c->arg, c->undo_file);
		return -1;
	}
	return state == UNDO_UNFINISHED ? roll_back(c) : 0;
}

/* Refusals that need the open filesystem. */
static int refuse_offline(struct convert *c)
{
	struct ext2_super_block *sb = c->target.fs->super;

	if (c->dry_run)
		return 0;
	if (!(sb->s_state & EXT2_VALID_FS) || (sb->s_state & EXT2_ERROR_FS)) {
		gp_warn("%s: not cleanly unmounted, or has errors; run e2fsck -f %s first",
			c->arg, c->arg);
		return -1;
	}
	/* Rebuilt directories change their owners' block counts. */
	if (ext2fs_has_feature_quota(sb)) {
		gp_warn("%s: the quota feature is on, and offline conversion does not update quota usage; convert the mounted tree instead",
			c->arg);
		return -1;
	}
	if (ext2fs_has_feature_inline_data(sb)) {
		gp_warn("%s: the inline_data feature is on, and offline conversion does not rebuild inline directories; convert the mounted tree instead",
			c->arg);
		return -1;
	}
	return 0;
}

/*
 * Convert the planned directories.  A failure leaves the undo file
 * unfinished, for --resume; the filesystem stays marked not clean.
 */
static int run_offline(struct convert *c)
{
	ext2_filsys fs = c->target.fs;
	errcode_t err = 0;
	size_t i, j;

	/* Until the end, fsck must look at it before anything mounts it. */
	c->undo_written = true;
	fs->super->s_state &= ~EXT2_VALID_FS;
	if (c->enable_casefold)
		err = offline_enable_casefold(fs);
	ext2fs_mark_super_dirty(fs);
	if (!err)
		err = ext2fs_flush(fs);
	if (err) {
		gp_warn("%s: %s", c->arg, error_message(err));
		return -1;
	}
	/*
	 * No crash point here: until the next block's undo record, the undo
	 * file's copy of the superblock is the one before this flush, and
	 * e2undo refuses to replay it onto the new one without -f.
	 */

	for (i = 0; i < c->ndirs; i++) {
		struct plan_dir *pd = &c->dirs[i];

		err = offline_convert_dir(fs, pd->ino, pd->renames,
					  pd->nrenames, &c->moved, offline_step,
					  c);
		if (err) {
			gp_warn("%s: %s: %s", c->arg, pd->path,
				error_message(err));
			return -1;
		}
		c->converted++;
		for (j = 0; j < pd->nrenames; j++)
			note_rename(c, pd->path, &pd->renames[j]);
	}
	fs->super->s_state |= EXT2_VALID_FS;
	ext2fs_mark_super_dirty(fs);
	err = ext2fs_close_free(&c->target.fs);
	if (err) {
		gp_warn("%s: %s", c->arg, error_message(err));
		return -1;
	}
	return 0;
}

/* Leave the undo file unfinished: the run did not complete. */
static void abandon_offline(struct convert *c)
{
	/* undo_io's own switch: close without marking the file finished. */
	setenv("UNDO_IO_SIMULATE_UNFINISHED", "1", 1);
	ext2fs_free(c->target.fs);
	c->target.fs = NULL;
	unsetenv("UNDO_IO_SIMULATE_UNFINISHED");
}

/*
 * Open TARGET (WRITABLE: through the undo file) and plan; the exit status
 * if the conversion stops here, or -1 to go on.
 */
static int offline_plan(struct convert *c, bool writable)
{
	struct ext2_super_block *sb;
	errcode_t err;

	if (target_open(&c->target, c->arg, NULL, writable) < 0)
		return EXIT_TROUBLE;
	if (c->target.kind != TARGET_OFFLINE) {
		gp_warn("%s: a directory; --offline takes an unmounted device or image",
			c->arg);
		return EXIT_TROUBLE;
	}
	if (refuse_offline(c) < 0)
		return EXIT_TROUBLE;
	sb = c->target.fs->super;
	c->enable_casefold = !ext2fs_has_feature_casefold(sb);
	folder_free(c->folder);
	c->folder = c->enable_casefold ?
		    folder_new(EXT4_ENC_UTF8_12_1,
			       e2p_get_encoding_flags(EXT4_ENC_UTF8_12_1)) :
		    folder_new(c->target.fsinfo.encoding,
			       c->target.fsinfo.encoding_flags);
	if (!c->folder) {
		gp_warn("%s: unknown filename encoding %d", c->arg,
			c->target.fsinfo.encoding);
		return EXIT_TROUBLE;
	}
	if (c->planned)
		ext2fs_free_inode_bitmap(c->planned);
	c->planned = NULL;
	err = writable ? ext2fs_read_bitmaps(c->target.fs) : 0;
	if (!err)
		err = ext2fs_allocate_inode_bitmap(c->target.fs,
						   "planned directories",
						   &c->planned);
	if (err) {
		gp_warn("%s: %s", c->arg, error_message(err));
		return EXIT_TROUBLE;
	}
	return plan_verdict(c, c->enable_casefold);
}

static int convert_offline(struct convert *c)
{
	int ret;

	if (!c->undo_file)
		c->undo_file = c->undo_default = convert_undo_file(c->arg);
	if (check_undo_file(c) < 0)
		return EXIT_TROUBLE;
	/* Read-only first: refusals, collisions and no-ops write nothing. */
	ret = offline_plan(c, false);
	if (ret >= 0)
		return ret;
	target_close(&c->target);

	if (undo_file_state(c->undo_file) == UNDO_FINISHED) {
		/* As tune2fs does with its own: one undo file per target. */
		gp_warn("%s: note: replacing %s, the undo file of an earlier run",
			c->arg, c->undo_file);
		if (unlink(c->undo_file) < 0) {
			gp_warn("%s: %s", c->undo_file, strerror(errno));
			return EXIT_TROUBLE;
		}
	}
	target_set_undo_file(c->undo_file);
	ret = offline_plan(c, true);
	if (ret >= 0) {
		/* Nothing was written: the undo file holds nothing to keep. */
		target_close(&c->target);
		if (unlink(c->undo_file) < 0 && errno != ENOENT)
			gp_warn("%s: %s", c->undo_file, strerror(errno));
		return ret;
	}
	if (run_offline(c) < 0) {
		abandon_offline(c);
		print_result(c, "interrupted");
		gp_warn("%s: the conversion stopped; roll it back and convert again with: gamepart convert --offline --resume%s %s (or only roll it back with: e2undo %s %s)",
			c->arg, c->policy == ON_COLLISION_RENAME ?
			" --on-collision=rename" : "", c->arg, c->undo_file,
			c->arg);
		return EXIT_TROUBLE;
	}
	if (print_result(c, "converted") < 0)
		return EXIT_TROUBLE;
	if (!c->json)
		printf("undo file: %s (to roll the conversion back: e2undo %s %s)\n",
		       c->undo_file, c->undo_file, c->arg);
	return EXIT_NOTHING_FOUND;
}

int cmd_convert(int argc, char **argv)
{
	enum { OPT_ON_COLLISION = 256, OPT_RESUME, OPT_OFFLINE, OPT_UNDO_FILE,
	       OPT_DIRECTORIES };
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "on-collision", required_argument, NULL, OPT_ON_COLLISION },
		{ "directories", required_argument, NULL, OPT_DIRECTORIES },
		{ "resume", no_argument, NULL, OPT_RESUME },
		{ "offline", no_argument, NULL, OPT_OFFLINE },
		{ "undo-file", required_argument, NULL, OPT_UNDO_FILE },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct convert c = { .parentfd = -1, .workfd = -1,
			     .target = { .dirfd = -1 } };
	struct stat st;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "njhV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			c.dry_run = true;
			break;
		case OPT_ON_COLLISION:
			if (parse_policy(optarg, &c.policy) < 0) {
				gp_warn("--on-collision: '%s' is neither fail nor rename",
					optarg);
				return EXIT_TROUBLE;
			}
			c.policy_given = true;
			break;
		case OPT_DIRECTORIES:
			if (strcmp(optarg, "keep") && strcmp(optarg, "replace")) {
				gp_warn("--directories: '%s' is neither keep nor replace",
					optarg);
				return EXIT_TROUBLE;
			}
			c.replace = !strcmp(optarg, "replace");
			c.replace_given = true;
			break;
		case OPT_RESUME:
			c.resume = true;
			break;
		case OPT_OFFLINE:
			c.offline = true;
			break;
		case OPT_UNDO_FILE:
			c.undo_file = optarg;
			break;
		case 'j':
			c.json = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_NOTHING_FOUND;
		case 'V':
			printf("gamepart %s\n", GAMEPART_VERSION);
			return EXIT_NOTHING_FOUND;
		default:
			usage(stderr);
			return EXIT_TROUBLE;
		}
	}
	if (optind == argc || (!c.offline && argc - optind != 1)) {
		gp_warn(optind == argc ? "no %s given" : "one PATH at a time",
			c.offline ? "TARGET" : "PATH");
		usage(stderr);
		return EXIT_TROUBLE;
	}
	c.arg = argv[optind];
	if (c.dry_run && c.resume) {
		gp_warn("--dry-run and --resume do not go together");
		return EXIT_TROUBLE;
	}
	if (c.replace && c.offline) {
		gp_warn("--directories=replace goes with a mounted PATH: offline, every directory keeps its inode");
		return EXIT_TROUBLE;
	}
	if (c.undo_file && !c.offline) {
		gp_warn("--undo-file goes with --offline");
		return EXIT_TROUBLE;
	}
	if (!c.offline && stat(c.arg, &st) == 0 && !S_ISDIR(st.st_mode)) {
		gp_warn("%s: not a directory (an unmounted device or image is converted with --offline)",
			c.arg);
		return EXIT_TROUBLE;
	}
	crash_setup(&c);
	journal_init(&c.journal);
	c.journal.policy = c.policy;

	ret = EXIT_TROUBLE;
	if (c.offline) {
		static char *slash[] = { "/" };

		c.roots = optind + 1 < argc ? argv + optind + 1 : slash;
		c.nroots = optind + 1 < argc ? (size_t)(argc - optind - 1) : 1;
		ret = convert_offline(&c);
		goto out;
	}
	if (target_open(&c.target, c.arg, NULL, false) < 0)
		goto out;
	if (refuse_unconvertible(&c) < 0 || open_parent(&c) < 0)
		goto out;
	c.folder = folder_new(c.target.fsinfo.encoding,
			      c.target.fsinfo.encoding_flags);
	if (!c.folder) {
		gp_warn("%s: unknown filename encoding %d", c.arg,
			c.target.fsinfo.encoding);
		goto out;
	}
	if (c.resume) {
		ret = resume(&c);
	} else {
		/* A pending conversion must be resumed, not started over. */
		ret = open_work(&c);
		if (ret == 0) {
			gp_warn("%s: an interrupted conversion is pending; finish it with: gamepart convert --resume %s",
				c.arg, c.arg);
			ret = EXIT_TROUBLE;
			goto out;
		}
		/* --dry-run changes nothing, not even that leftover. */
		if (ret < 0 || (ret == 2 && !c.dry_run && remove_work_dir(&c) < 0)) {
			ret = EXIT_TROUBLE;
			goto out;
		}
		ret = convert_tree(&c);
	}
out:
	free_plan(&c);
	if (c.planned)
		ext2fs_free_inode_bitmap(c.planned);
	free(c.undo_default);
	report_free(c.report);
	folder_free(c.folder);
	journal_close(&c.journal);
	for (size_t i = 0; i < c.ndone; i++) {
		free(c.done_renames[i].old);
		free(c.done_renames[i].new);
		free((char *)c.done_dirs[i]);
	}
	free(c.done_renames);
	free(c.done_dirs);
	if (c.workfd >= 0)
		close(c.workfd);
	if (c.parentfd >= 0)
		close(c.parentfd);
	if (c.target.dirfd >= 0 || c.target.fs)
		target_close(&c.target);
	return ret;
}
