// SPDX-License-Identifier: GPL-2.0
/*
 * ci-handle: lookups in a casefolded directory reached through a file
 * handle (open_by_handle_at), the way an NFS server reaches it.
 *
 *   ci-handle DIR
 *
 * DIR must be an empty casefolded directory that nothing holds open.  Its
 * handle is taken, the dcache is dropped so that the directory's dentry
 * goes, and the directory is opened again by handle: the kernel then
 * builds its dentry with d_obtain_alias(), outside any name lookup.
 * Through that descriptor, and through DIR's path, a name looked up and
 * missed must be found once it is created under another case, and a
 * removed name must be missed under every case.  Prints what it checks,
 * one line each; exits 1 if a check failed, 2 if the setup failed.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures;

static void check(int cond, const char *what)
{
	printf("%s: %s\n", cond ? "ok" : "FAILED", what);
	if (!cond)
		failures++;
}

static int exists_at(int dirfd, const char *name)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return 1;
	if (errno != ENOENT)
		fprintf(stderr, "ci-handle: stat %s: %s\n", name, strerror(errno));
	return 0;
}

static int listed_as(int dirfd, const char *name)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	int found = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		found |= !strcmp(de->d_name, name);
	closedir(d);
	return found;
}

/*
 * Create NAME through descriptor AT (called WHERE), then find it through
 * both descriptors under its lower- and upper-case spellings, and in
 * readdir as created.
 */
static void create_and_find(int at, const char *where, int other,
			    const char *other_where, const char *name)
{
	char lower[64], upper[64], what[160];
	size_t i, n = strlen(name);
	int fd;

	for (i = 0; i <= n; i++) {
		lower[i] = (char)tolower((unsigned char)name[i]);
		upper[i] = (char)toupper((unsigned char)name[i]);
	}
	fd = openat(at, name, O_WRONLY | O_CREAT | O_EXCL, 0644);
	snprintf(what, sizeof(what), "through %s: create %s", where, name);
	check(fd >= 0, what);
	if (fd >= 0)
		close(fd);
	snprintf(what, sizeof(what), "through %s: %s and %s find %s",
		 where, lower, upper, name);
	check(exists_at(at, lower) && exists_at(at, upper), what);
	snprintf(what, sizeof(what), "through %s: %s and %s find %s",
		 other_where, lower, upper, name);
	check(exists_at(other, lower) && exists_at(other, upper), what);
	snprintf(what, sizeof(what), "readdir lists %s as created", name);
	check(listed_as(other, name), what);
}

int main(int argc, char **argv)
{
	struct file_handle *fh;
	int mount_id, mountfd, dirfd, pathfd, fd;
	char *parent;

	if (argc != 2) {
		fputs("Usage: ci-handle DIR\n", stderr);
		return 2;
	}
	fh = malloc(sizeof(*fh) + MAX_HANDLE_SZ);
	if (!fh)
		return 2;
	fh->handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(AT_FDCWD, argv[1], fh, &mount_id, 0) < 0) {
		fprintf(stderr, "ci-handle: name_to_handle_at %s: %s\n", argv[1],
			strerror(errno));
		return 2;
	}
	/* open_by_handle_at() wants any descriptor on the same mount. */
	parent = strdup(argv[1]);
	*strrchr(parent, '/') = 0;
	mountfd = open(parent, O_RDONLY | O_DIRECTORY);
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (mountfd < 0 || fd < 0 || write(fd, "2", 1) != 1) {
		fprintf(stderr, "ci-handle: setup: %s\n", strerror(errno));
		return 2;
	}
	close(fd);
	dirfd = open_by_handle_at(mountfd, fh, O_RDONLY | O_DIRECTORY);
	if (dirfd < 0) {
		fprintf(stderr, "ci-handle: open_by_handle_at: %s\n", strerror(errno));
		return 2;
	}
	pathfd = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (pathfd < 0) {
		fprintf(stderr, "ci-handle: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}

	check(!exists_at(dirfd, "config.ini"), "through the handle: config.ini is missing");
	check(!exists_at(pathfd, "config.ini"), "through the path: config.ini is missing");
	create_and_find(dirfd, "the handle", pathfd, "the path", "CONFIG.INI");

	check(unlinkat(pathfd, "config.ini", 0) == 0, "through the path: unlink config.ini");
	check(!exists_at(dirfd, "CONFIG.INI"), "through the handle: CONFIG.INI is gone");
	check(!exists_at(dirfd, "config.ini"), "through the handle: config.ini is gone");
	create_and_find(pathfd, "the path", dirfd, "the handle", "Config.ini");
	unlinkat(pathfd, "Config.ini", 0);
	return failures ? 1 : 0;
}
