// SPDX-License-Identifier: GPL-2.0
/*
 * migrate-bench: the two sides of make bench-convert that are not gamepart.
 *
 *   migrate-bench make DIR FILES SIZES   a library of FILES files in DIR:
 *                                        games of 20 data directories,
 *                                        each with a subdirectory, 100
 *                                        files a game directory, split
 *                                        between the two.  SIZES is a
 *                                        size in bytes for every file, or
 *                                        a file of sizes, one a line ('#'
 *                                        lines skipped), taken in turn
 *   migrate-bench total FILES SIZES      the bytes such a library holds
 *   migrate-bench floor DIR              every directory under DIR, bottom
 *                                        up, emptied into a fresh +F
 *                                        sibling (one renameat per entry),
 *                                        which then takes its name
 *
 * floor is the least a rename-based migration to +F directories does, in
 * one process, so that what is timed is the renames and not the starting
 * of programs (under TCG, a fork and exec costs as much as hundreds of
 * renames).  Exits 0, or prints the error and exits 1.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FS_CASEFOLD_FL
#define FS_CASEFOLD_FL 0x40000000
#endif

static void die(const char *what, const char *path)
{
	fprintf(stderr, "migrate-bench: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

static void make_file(const char *path, const char *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	ssize_t done;

	if (fd < 0)
		die("create", path);
	for (; size; size -= done, data += done) {
		done = write(fd, data, size);
		if (done <= 0)
			die("write", path);
	}
	if (close(fd))
		die("write", path);
}

/* The sizes SPEC gives: one number, or a file of them. */
static size_t *read_sizes(const char *spec, size_t *count)
{
	size_t *v = malloc(sizeof(*v)), cap = 1, linecap = 0;
	char *line = NULL, *end;
	FILE *f;

	v[0] = strtoull(spec, &end, 10);
	*count = 1;
	if (*spec && !*end)
		return v;
	f = fopen(spec, "r");
	if (!f)
		die("read the sizes in", spec);
	*count = 0;
	while (getline(&line, &linecap, f) > 0) {
		if (line[0] == '#')
			continue;
		if (*count == cap) {
			cap *= 2;
			v = realloc(v, cap * sizeof(*v));
		}
		v[*count] = strtoull(line, &end, 10);
		if (end == line || (*end && *end != '\n')) {
			errno = EINVAL;
			die("read the sizes in", spec);
		}
		(*count)++;
	}
	free(line);
	fclose(f);
	if (!*count) {
		errno = ENODATA;
		die("read the sizes in", spec);
	}
	return v;
}

/* The bytes of FILES files of the sizes SPEC gives, taken in turn. */
static int total(long files, const char *spec)
{
	size_t count, *sizes = read_sizes(spec, &count);
	unsigned long long sum = 0;

	for (long n = 0; n < files; n++)
		sum += sizes[n % count];
	free(sizes);
	printf("%llu\n", sum);
	return 0;
}

static int make(const char *root, long files, const char *sizes_spec)
{
	size_t count, largest = 0, *sizes = read_sizes(sizes_spec, &count);
	char *data;
	char path[4096];
	long n = 0, game;
	int d, f;

	for (size_t i = 0; i < count; i++)
		if (sizes[i] > largest)
			largest = sizes[i];
	data = malloc(largest ? largest : 1);
	for (size_t i = 0; i < largest; i++)
		data[i] = (char)(i * 131 + 7);
	if (mkdir(root, 0755))
		die("mkdir", root);
	for (game = 0; n < files; game++) {
		snprintf(path, sizeof(path), "%s/Game%03ld", root, game);
		if (mkdir(path, 0755))
			die("mkdir", path);
		for (d = 0; d < 20 && n < files; d++) {
			snprintf(path, sizeof(path), "%s/Game%03ld/Data%02d", root, game, d);
			if (mkdir(path, 0755))
				die("mkdir", path);
			snprintf(path, sizeof(path), "%s/Game%03ld/Data%02d/Sub", root, game, d);
			if (mkdir(path, 0755))
				die("mkdir", path);
			for (f = 0; f < 100 && n < files; f++, n++) {
				snprintf(path, sizeof(path), "%s/Game%03ld/Data%02d%s/File%03d.bin",
					 root, game, d, f % 2 ? "/Sub" : "", f);
				make_file(path, data, sizes[n % count]);
			}
		}
	}
	free(sizes);
	free(data);
	return 0;
}

/* DFD's entries but "." and "..", read whole: the caller renames them. */
static struct dirent **list(int dfd, const char *path, int *n)
{
	struct dirent **v = NULL, *e;
	DIR *dir = fdopendir(dup(dfd));
	int cap = 0;

	if (!dir)
		die("read", path);
	*n = 0;
	while ((e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			v = realloc(v, cap * sizeof(*v));
		}
		v[*n] = malloc(sizeof(*e));
		memcpy(v[*n], e, sizeof(*e));
		(*n)++;
	}
	closedir(dir);
	return v;
}

/* Move DIR's entries into a fresh +F PARENT/NAME.fresh, which replaces it. */
static void floor_dir(int parent, const char *name, const char *path)
{
	int dfd, ffd, flags = FS_CASEFOLD_FL, n, i;
	struct dirent **v;
	char fresh[512];

	dfd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (dfd < 0)
		die("open", path);
	v = list(dfd, path, &n);
	/* Children first. */
	for (i = 0; i < n; i++) {
		if (v[i]->d_type == DT_DIR) {
			char sub[4096];

			snprintf(sub, sizeof(sub), "%s/%s", path, v[i]->d_name);
			floor_dir(dfd, v[i]->d_name, sub);
		}
	}
	snprintf(fresh, sizeof(fresh), "%s.fresh", name);
	if (mkdirat(parent, fresh, 0755))
		die("mkdir", fresh);
	ffd = openat(parent, fresh, O_RDONLY | O_DIRECTORY);
	if (ffd < 0 || ioctl(ffd, FS_IOC_SETFLAGS, &flags))
		die("set +F on", fresh);
	for (i = 0; i < n; i++) {
		if (renameat(dfd, v[i]->d_name, ffd, v[i]->d_name))
			die("rename in", path);
		free(v[i]);
	}
	free(v);
	close(ffd);
	close(dfd);
	if (unlinkat(parent, name, AT_REMOVEDIR))
		die("rmdir", path);
	if (renameat(parent, fresh, parent, name))
		die("rename", fresh);
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "make"))
		return make(argv[2], atol(argv[3]), argv[4]);
	if (argc == 4 && !strcmp(argv[1], "total"))
		return total(atol(argv[2]), argv[3]);
	if (argc == 3 && !strcmp(argv[1], "floor")) {
		char *slash = strrchr(argv[2], '/');
		int parent;

		if (!slash)
			return 2;
		*slash = '\0';
		parent = open(*argv[2] ? argv[2] : "/", O_RDONLY | O_DIRECTORY);
		*slash = '/';
		if (parent < 0)
			die("open the parent of", argv[2]);
		floor_dir(parent, slash + 1, argv[2]);
		return 0;
	}
	fputs("Usage: migrate-bench make DIR FILES SIZE|SIZES-FILE\n"
	      "       migrate-bench total FILES SIZE|SIZES-FILE\n"
	      "       migrate-bench floor DIR\n", stderr);
	return 2;
}
