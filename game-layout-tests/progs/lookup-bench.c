// SPDX-License-Identifier: GPL-2.0
/*
 * lookup-bench: how long one name lookup takes in a directory.
 *
 *   lookup-bench populate DIR COUNT      create file-000000.dat ... in DIR
 *   lookup-bench measure [-r ROUNDS] [-n LOOKUPS] [-f FIRST] DIR
 *
 * measure times fstatat() of one name relative to DIR (a single path
 * component, so the lookup is what is measured), LOOKUPS times per round,
 * and prints the best round of each kind, in nanoseconds per lookup:
 *
 *   repeat-miss  the same missing names again and again (the cached path)
 *   first-miss   a different missing name each time
 *   hit-exact    existing names, spelt as they were created
 *   hit-case     the same names in upper case (a hit only where casefolded)
 *
 * The repeated names are a set of FIXED_NAMES taken in turn: the cost of
 * one name depends on the dcache hash chain it falls in, so one name
 * alone would measure its chain's luck, differently in each directory.
 *
 * Rounds are numbered from FIRST (default 0); the first-miss names of a
 * round carry its number, so that a later run with another FIRST looks up
 * names no earlier run has seen.
 *
 * Output: one line per kind, "KIND NS".
 *
 *   lookup-bench list [-r ROUNDS] [-n LISTINGS] DIR
 *
 * list times reading a whole directory as ls and Wine's FindFirstFileW do:
 * open(), getdents64() until it returns 0, close(); LISTINGS times per
 * round, and prints the best round as "list NS ENTRIES", in nanoseconds
 * per entry listed.
 *
 *   lookup-bench probe-create [-r ROUNDS] [-n NAMES] [-p PROBES] [-f FIRST] DIR
 *
 * probe-create times what an installer or a mod manager does before it
 * writes a file: PROBES checks that a name is absent, with faccessat() and
 * AT_SYMLINK_NOFOLLOW (a lookup without intent flags), then the file is
 * created with the name in another case.  NAMES new files per round, and
 * the best round is printed as "probe-create NS", per name.  The files
 * stay behind; each round's names carry its number, from FIRST.
 *
 *   lookup-bench path [-r ROUNDS] [-n LOOKUPS] -P PATH DIR
 *
 * path times fstatat() of PATH, several components deep, relative to DIR,
 * and of PATH with its last component replaced by a missing name: the
 * walk through every directory of the path, as a game opening its assets
 * does.  Prints the best round of each as "path-hit NS" and "path-miss NS".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int usage(void)
{
	fputs("Usage: lookup-bench populate DIR COUNT\n"
	      "       lookup-bench measure [-r ROUNDS] [-n LOOKUPS] [-f FIRST] DIR\n"
	      "       lookup-bench list [-r ROUNDS] [-n LISTINGS] DIR\n"
	      "       lookup-bench probe-create [-r ROUNDS] [-n NAMES] [-p PROBES] [-f FIRST] DIR\n"
	      "       lookup-bench path [-r ROUNDS] [-n LOOKUPS] -P PATH DIR\n",
	      stderr);
	return 2;
}

/* DIR opened for the *at() calls, or -1 with the reason printed. */
static int open_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		fprintf(stderr, "lookup-bench: %s: %s\n", dir, strerror(errno));
	return fd;
}

/* What follows a subcommand: its options, then one DIR. */
struct options {
	long rounds;	/* -r */
	long count;	/* -n: lookups, listings or names */
	long probes;	/* -p */
	long first;	/* -f */
	const char *path;	/* -P */
	const char *dir;
};

/*
 * Parse the options OPTSTRING allows into O, which holds the subcommand's
 * defaults, and the one DIR after them; false on a usage error.
 */
static bool parse_options(int argc, char **argv, const char *optstring,
			  struct options *o)
{
	int c;

	optind = 2;
	while ((c = getopt(argc, argv, optstring)) != -1) {
		switch (c) {
		case 'r':
			o->rounds = atol(optarg);
			break;
		case 'n':
			o->count = atol(optarg);
			break;
		case 'p':
			o->probes = atol(optarg);
			break;
		case 'f':
			o->first = atol(optarg);
			break;
		case 'P':
			o->path = optarg;
			break;
		default:
			return false;
		}
	}
	if (optind != argc - 1 || o->rounds < 1 || o->count < 1)
		return false;
	o->dir = argv[optind];
	return true;
}

static int populate(const char *dir, long count)
{
	char name[64];
	long i;
	int dirfd = open_dir(dir);

	if (dirfd < 0)
		return 1;
	for (i = 0; i < count; i++) {
		int fd;

		snprintf(name, sizeof(name), "file-%06ld.dat", i);
		fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0) {
			fprintf(stderr, "lookup-bench: %s/%s: %s\n", dir, name,
				strerror(errno));
			return 1;
		}
		close(fd);
	}
	return 0;
}

#define FIXED_NAMES 16

/*
 * One round: LOOKUPS lookups, of the NFIXED names FIXED in turn, or else
 * of FMT(ROUND, i); ns per lookup.
 */
static double round_ns(int dirfd, long lookups, char (*fixed)[64],
		       const char *fmt, long round, int want_found, int nfixed)
{
	char name[64];
	const char *look;
	struct stat st;
	double start;
	long i;
	int found;

	start = now_ns();
	for (i = 0; i < lookups; i++) {
		if (fixed) {
			look = fixed[i % nfixed];
		} else {
			snprintf(name, sizeof(name), fmt, round, i);
			look = name;
		}
		found = fstatat(dirfd, look, &st, 0) == 0;
		if (found != want_found && want_found >= 0) {
			fprintf(stderr, "lookup-bench: %s: %s\n", look,
				found ? "unexpectedly found" : strerror(errno));
			exit(1);
		}
	}
	return (now_ns() - start) / lookups;
}

/* One listing of DIR: the number of entries, or -1. */
static long list_once(const char *dir)
{
	static char buf[32768];
	long entries = 0, n, off;
	int fd = open_dir(dir);

	if (fd < 0)
		return -1;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n;
		     off += ((struct dirent64 *)(buf + off))->d_reclen)
			entries++;
	}
	if (n < 0)
		fprintf(stderr, "lookup-bench: %s: getdents64: %s\n", dir,
			strerror(errno));
	close(fd);
	return n < 0 ? -1 : entries;
}

static int list(int argc, char **argv)
{
	struct options o = { .rounds = 5, .count = 5 };
	long entries = 0, r, i;
	double best = 0;

	if (!parse_options(argc, argv, "r:n:", &o))
		return usage();
	for (r = 0; r < o.rounds; r++) {
		double start = now_ns(), t;

		for (i = 0; i < o.count; i++) {
			entries = list_once(o.dir);
			if (entries <= 0)
				return 1;
		}
		t = (now_ns() - start) / o.count / entries;
		if (!r || t < best)
			best = t;
	}
	printf("list %.1f %ld\n", best, entries);
	return 0;
}

/* One round of probe-create: nanoseconds per name. */
static double probe_create_ns(int dirfd, long names, long probes, long round)
{
	char probe[64], create[64];
	double start = now_ns();
	long i, k;

	for (i = 0; i < names; i++) {
		int fd;

		snprintf(probe, sizeof(probe), "New-%ld-%06ld.Dat", round, i);
		snprintf(create, sizeof(create), "new-%ld-%06ld.dat", round, i);
		for (k = 0; k < probes; k++)
			if (!faccessat(dirfd, probe, F_OK, AT_SYMLINK_NOFOLLOW) ||
			    errno != ENOENT) {
				fprintf(stderr, "lookup-bench: %s: not missing\n",
					probe);
				return -1;
			}
		fd = openat(dirfd, create, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd < 0) {
			fprintf(stderr, "lookup-bench: %s: %s\n", create,
				strerror(errno));
			return -1;
		}
		close(fd);
	}
	return (now_ns() - start) / names;
}

static int probe_create(int argc, char **argv)
{
	struct options o = { .rounds = 5, .count = 2000, .probes = 3 };
	double best = 0;
	int dirfd;
	long r;

	if (!parse_options(argc, argv, "r:n:p:f:", &o))
		return usage();
	dirfd = open_dir(o.dir);
	if (dirfd < 0)
		return 1;
	for (r = 0; r < o.rounds; r++) {
		double t = probe_create_ns(dirfd, o.count, o.probes, o.first + r);

		if (t < 0)
			return 1;
		if (!r || t < best)
			best = t;
	}
	printf("probe-create %.0f\n", best);
	return 0;
}

static int path(int argc, char **argv)
{
	struct options o = { .rounds = 5, .count = 20000 };
	char hit[1][64], miss[1][64];
	double best_hit = 0, best_miss = 0;
	const char *last;
	int dirfd;
	long r;

	if (!parse_options(argc, argv, "r:n:P:", &o) || !o.path ||
	    strlen(o.path) >= sizeof(hit[0]))
		return usage();
	dirfd = open_dir(o.dir);
	if (dirfd < 0)
		return 1;
	last = strrchr(o.path, '/');
	last = last ? last + 1 : o.path;
	strcpy(hit[0], o.path);
	snprintf(miss[0], sizeof(miss[0]), "%.*smissing.dll",
		 (int)(last - o.path), o.path);
	for (r = 0; r < o.rounds; r++) {
		double h = round_ns(dirfd, o.count, hit, NULL, r, 1, 1);
		double m = round_ns(dirfd, o.count, miss, NULL, r, 0, 1);

		if (!r || h < best_hit)
			best_hit = h;
		if (!r || m < best_miss)
			best_miss = m;
	}
	printf("path-hit %.0f\npath-miss %.0f\n", best_hit, best_miss);
	return 0;
}

int main(int argc, char **argv)
{
	struct options o = { .rounds = 5, .count = 20000 };
	long r;
	double best[4] = { 0 };
	static const char *const kinds[4] = {
		"repeat-miss", "first-miss", "hit-exact", "hit-case"
	};
	static char missing[FIXED_NAMES][64], exact[FIXED_NAMES][64],
		    upper[FIXED_NAMES][64];
	int k, dirfd;

	if (argc == 4 && !strcmp(argv[1], "populate"))
		return populate(argv[2], atol(argv[3]));
	if (argc >= 3 && !strcmp(argv[1], "probe-create"))
		return probe_create(argc, argv);
	if (argc >= 3 && !strcmp(argv[1], "list"))
		return list(argc, argv);
	if (argc >= 3 && !strcmp(argv[1], "path"))
		return path(argc, argv);
	if (argc < 3 || strcmp(argv[1], "measure") ||
	    !parse_options(argc, argv, "r:n:f:", &o))
		return usage();
	dirfd = open_dir(o.dir);
	if (dirfd < 0)
		return 1;
	for (k = 0; k < FIXED_NAMES; k++) {
		snprintf(missing[k], sizeof(missing[k]), "missing-file-%02d.dll", k);
		snprintf(exact[k], sizeof(exact[k]), "file-%06d.dat", k);
		snprintf(upper[k], sizeof(upper[k]), "FILE-%06d.DAT", k);
	}
	for (r = 0; r < o.rounds; r++) {
		double t[4];

		t[0] = round_ns(dirfd, o.count, missing, NULL, r, 0, FIXED_NAMES);
		/* Fewer: each one may read the directory's blocks. */
		t[1] = round_ns(dirfd, o.count / 10, NULL,
				"miss-%ld-%ld.dll", o.first + r, 0, 0);
		t[2] = round_ns(dirfd, o.count, exact, NULL, r, 1, FIXED_NAMES);
		/* Found in a casefolded directory only: not checked. */
		t[3] = round_ns(dirfd, o.count, upper, NULL, r, -1, FIXED_NAMES);
		for (k = 0; k < 4; k++)
			if (!r || t[k] < best[k])
				best[k] = t[k];
	}
	for (k = 0; k < 4; k++)
		printf("%s %.0f\n", kinds[k], best[k]);
	return 0;
}
