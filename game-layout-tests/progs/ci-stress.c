// SPDX-License-Identifier: GPL-2.0
/*
 * ci-stress: several processes create, unlink, rename and look up case
 * variants of names in one casefolded directory at the same time.
 *
 *   ci-stress [-w WORKERS] [-n NAMES] [-s SECONDS] [-S SEED] DIR
 *
 * Each worker owns NAMES base names (some with non-ASCII letters) that no
 * other worker touches.  After each of its own operations it checks that a
 * name it has just created is visible under every case variant it tries,
 * with the same inode, and that one it has just removed or renamed away is
 * absent under every variant.  Meanwhile it looks up the other workers'
 * names in random case, where any answer is fine but an error other than
 * ENOENT is not.  Those lookups fill the dcache with positive and negative
 * dentries under names the owner changes next: a stale one would fail the
 * owner's checks.  At the end every worker removes its names and checks
 * that readdir shows each name it created exactly as it spelt it.
 *
 * Prints one summary line per worker; exits 1 if any check failed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NAME_MAX_LEN	64
#define VARIANTS	4	/* spellings checked after each operation */

struct worker {
	int id;
	int dirfd;
	int names;
	int workers;
	uint64_t rng;
	/* which of the worker's names exist, and how each was spelt */
	bool *exists;
	char (*spelling)[NAME_MAX_LEN];
	unsigned long ops, checks, foreign, failures;
};

static uint64_t next_random(uint64_t *s)
{
	/* xorshift64*: fast, and reproducible from -S */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/*
 * The base name of worker W's name K, lower case.  One name in four has
 * an e with acute accent, whose upper case is two bytes of UTF-8 too.
 */
static void base_name(int w, int k, char *out)
{
	if (k % 4 == 3)
		snprintf(out, NAME_MAX_LEN, "w%d-caf\xc3\xa9-%d.sav", w, k);
	else
		snprintf(out, NAME_MAX_LEN, "w%d-save-%d.dat", w, k);
}

/* A random case variant of the lower-case BASE. */
static void variant(uint64_t *rng, const char *base, char *out)
{
	uint64_t bits = next_random(rng);
	size_t i, n = strlen(base);

	for (i = 0; i < n; i++, bits = bits >> 1 | bits << 63) {
		unsigned char c = base[i];

		out[i] = c;
		if (c >= 'a' && c <= 'z' && (bits & 1))
			out[i] = c - 'a' + 'A';
		/* U+00E9 <-> U+00C9 */
		if (c == 0xc3 && (unsigned char)base[i + 1] == 0xa9 && (bits & 2)) {
			out[i++] = 0xc3;
			out[i] = 0x89;
		}
	}
	out[n] = 0;
}

static void fail(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	w->failures++;
	fprintf(stderr, "ci-stress: worker %d: ", w->id);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Every spelling tried of name K resolves to INO (or, for 0, to nothing). */
static void check_name(struct worker *w, int k, ino_t ino)
{
	char base[NAME_MAX_LEN], v[NAME_MAX_LEN];
	struct stat st;
	int i;

	base_name(w->id, k, base);
	for (i = 0; i < VARIANTS; i++) {
		if (i == 0)
			strcpy(v, base);
		else
			variant(&w->rng, base, v);
		w->checks++;
		if (fstatat(w->dirfd, v, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			if (!ino)
				fail(w, "'%s' was removed, yet '%s' is found (inode %lu)",
				     w->spelling[k], v, (unsigned long)st.st_ino);
			else if (st.st_ino != ino)
				fail(w, "'%s' is inode %lu, yet '%s' is inode %lu",
				     w->spelling[k], (unsigned long)ino, v,
				     (unsigned long)st.st_ino);
		} else if (errno != ENOENT) {
			fail(w, "stat '%s': %s", v, strerror(errno));
		} else if (ino) {
			fail(w, "'%s' was created, yet '%s' is not found",
			     w->spelling[k], v);
		}
	}
}

static ino_t inode_of(struct worker *w, const char *name)
{
	struct stat st;

	if (fstatat(w->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		fail(w, "stat '%s' just after creating it: %s", name,
		     strerror(errno));
		return 0;
	}
	return st.st_ino;
}

static void op_create(struct worker *w, int k)
{
	char base[NAME_MAX_LEN], v[NAME_MAX_LEN];
	int fd;

	base_name(w->id, k, base);
	variant(&w->rng, base, v);
	if (next_random(&w->rng) % 2) {
		fd = openat(w->dirfd, v, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd >= 0)
			close(fd);
	} else {
		fd = mkdirat(w->dirfd, v, 0755);
	}
	if (fd < 0 && !(w->exists[k] && errno == EEXIST)) {
		fail(w, "create '%s': %s", v, strerror(errno));
		return;
	}
	if (fd >= 0 && w->exists[k])
		fail(w, "created '%s' although '%s' exists", v, w->spelling[k]);
	if (fd >= 0) {
		w->exists[k] = true;
		strcpy(w->spelling[k], v);
	}
	check_name(w, k, inode_of(w, w->spelling[k]));
}

static int remove_name(struct worker *w, const char *name)
{
	struct stat st;

	if (fstatat(w->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -1;
	return unlinkat(w->dirfd, name, S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0);
}

static void op_remove(struct worker *w, int k)
{
	char base[NAME_MAX_LEN], v[NAME_MAX_LEN];

	base_name(w->id, k, base);
	variant(&w->rng, base, v);
	if (remove_name(w, v) < 0) {
		if (w->exists[k] || errno != ENOENT)
			fail(w, "remove '%s': %s", v, strerror(errno));
	} else {
		if (!w->exists[k])
			fail(w, "removed '%s', which did not exist", v);
		w->exists[k] = false;
	}
	check_name(w, k, 0);
}

/* Rename name K to name J (both the worker's), each in a random case. */
static void op_rename(struct worker *w, int k, int j)
{
	char bk[NAME_MAX_LEN], bj[NAME_MAX_LEN];
	char vk[NAME_MAX_LEN], vj[NAME_MAX_LEN];
	ino_t ino;

	if (!w->exists[k] || w->exists[j] || k == j)
		return;
	base_name(w->id, k, bk);
	base_name(w->id, j, bj);
	variant(&w->rng, bk, vk);
	variant(&w->rng, bj, vj);
	ino = inode_of(w, w->spelling[k]);
	if (renameat(w->dirfd, vk, w->dirfd, vj) < 0) {
		fail(w, "rename '%s' to '%s': %s", vk, vj, strerror(errno));
		return;
	}
	w->exists[k] = false;
	w->exists[j] = true;
	strcpy(w->spelling[j], vj);
	check_name(w, k, 0);
	check_name(w, j, ino);
}

/* Someone else's name, in any case: any answer but an error is fine. */
static void op_foreign(struct worker *w)
{
	char base[NAME_MAX_LEN], v[NAME_MAX_LEN];
	int other = next_random(&w->rng) % w->workers;
	struct stat st;

	if (other == w->id)
		return;
	base_name(other, next_random(&w->rng) % w->names, base);
	variant(&w->rng, base, v);
	w->foreign++;
	if (fstatat(w->dirfd, v, &st, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno != ENOENT)
		fail(w, "stat of another worker's '%s': %s", v, strerror(errno));
}

/* What readdir shows is each surviving name, spelt as it was created. */
static void check_readdir(struct worker *w)
{
	char prefix[16];
	int fd = openat(w->dirfd, ".", O_RDONLY | O_DIRECTORY);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	int k, seen = 0, want = 0;

	if (!d) {
		fail(w, "opendir: %s", strerror(errno));
		return;
	}
	snprintf(prefix, sizeof(prefix), "w%d-", w->id);
	while ((de = readdir(d))) {
		if (strncasecmp(de->d_name, prefix, strlen(prefix)))
			continue;
		for (k = 0; k < w->names; k++)
			if (w->exists[k] && !strcmp(de->d_name, w->spelling[k]))
				break;
		if (k == w->names)
			fail(w, "readdir shows '%s', which is not a name as created",
			     de->d_name);
		else
			seen++;
	}
	closedir(d);
	for (k = 0; k < w->names; k++)
		want += w->exists[k];
	if (seen != want)
		fail(w, "readdir shows %d of its %d names", seen, want);
}

static int run_worker(struct worker *w, time_t until)
{
	int k;

	while (time(NULL) < until) {
		uint64_t r = next_random(&w->rng);

		k = r % w->names;
		switch ((r >> 16) % 8) {
		case 0: case 1:
			op_create(w, k);
			break;
		case 2:
			op_remove(w, k);
			break;
		case 3:
			op_rename(w, k, (r >> 24) % w->names);
			break;
		default:
			op_foreign(w);
			break;
		}
		w->ops++;
	}
	check_readdir(w);
	for (k = 0; k < w->names; k++)
		if (w->exists[k]) {
			if (remove_name(w, w->spelling[k]) < 0)
				fail(w, "final remove '%s': %s", w->spelling[k],
				     strerror(errno));
			w->exists[k] = false;
			check_name(w, k, 0);
		}
	printf("worker %d: %lu operations, %lu own-name checks, %lu lookups of others' names, %lu failures\n",
	       w->id, w->ops, w->checks, w->foreign, w->failures);
	/* The worker leaves through _exit(), which does not flush stdio. */
	fflush(stdout);
	return w->failures ? 1 : 0;
}

static void usage(FILE *out, int status)
{
	fputs("Usage: ci-stress [-w WORKERS] [-n NAMES] [-s SECONDS] [-S SEED] DIR\n",
	      out);
	exit(status);
}

int main(int argc, char **argv)
{
	int workers = 4, names = 16, seconds = 10, c, i, status, failed = 0;
	uint64_t seed = 1;
	time_t until;
	int dirfd;

	while ((c = getopt(argc, argv, "w:n:s:S:h")) != -1) {
		switch (c) {
		case 'w': workers = atoi(optarg); break;
		case 'n': names = atoi(optarg); break;
		case 's': seconds = atoi(optarg); break;
		case 'S': seed = strtoull(optarg, NULL, 0); break;
		case 'h': usage(stdout, 0); break;
		default: usage(stderr, 2);
		}
	}
	if (optind != argc - 1 || workers < 1 || names < 2 || seconds < 1)
		usage(stderr, 2);
	dirfd = open(argv[optind], O_RDONLY | O_DIRECTORY);
	if (dirfd < 0) {
		fprintf(stderr, "ci-stress: %s: %s\n", argv[optind], strerror(errno));
		return 2;
	}
	until = time(NULL) + seconds;
	fflush(stdout);
	for (i = 0; i < workers; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("ci-stress: fork");
			return 2;
		}
		if (pid == 0) {
			struct worker w = {
				.id = i, .dirfd = dirfd, .names = names,
				.workers = workers,
				.rng = seed * 0x9e3779b97f4a7c15ULL + i + 1,
			};

			w.exists = calloc(names, sizeof(*w.exists));
			w.spelling = calloc(names, sizeof(*w.spelling));
			if (!w.exists || !w.spelling)
				_exit(2);
			_exit(run_worker(&w, until));
		}
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;
	return failed;
}
