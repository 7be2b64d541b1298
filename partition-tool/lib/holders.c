// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the processes that hold files under a directory (see holders.h),
 * from /proc as fuser(1) and lsof(8) do.
 */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "holders.h"
#include "util.h"

/* Whether PATH is DIR or lies under it. */
static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/');
}

/* Whether the link at /proc/PID/NAME points under DIR. */
static bool link_under(const char *proc, const char *name, const char *dir)
{
	char *link = xasprintf("%s/%s", proc, name);
	char target[PATH_MAX];
	ssize_t n = readlink(link, target, sizeof(target) - 1);

	free(link);
	if (n <= 0)
		return false;
	target[n] = '\0';
	return under(target, dir);
}

/* Whether PROC has a file under DIR open, as a descriptor. */
static bool fd_under(const char *proc, const char *dir)
{
	char *fds = xasprintf("%s/fd", proc);
	DIR *d = opendir(fds);
	const struct dirent *de;
	bool found = false;

	free(fds);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		char *name;

		if (de->d_name[0] == '.')
			continue;
		name = xasprintf("fd/%s", de->d_name);
		found = link_under(proc, name, dir);
		free(name);
	}
	closedir(d);
	return found;
}

/* Whether PROC maps a file under DIR ("... /path" in /proc/PID/maps). */
static bool map_under(const char *proc, const char *dir)
{
	char *maps = xasprintf("%s/maps", proc);
	FILE *f = fopen(maps, "re");
	char *line = NULL;
	size_t cap = 0;
	bool found = false;

	free(maps);
	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		char *path = strchr(line, '/');
		if (!path)
			continue;
		path[strcspn(path, "\n")] = '\0';
		found = under(path, dir);
	}
	free(line);
	fclose(f);
	return found;
}

static void comm_of(const char *proc, char *comm, size_t size)
{
	char *path = xasprintf("%s/comm", proc);
	FILE *f = fopen(path, "re");

	free(path);
	snprintf(comm, size, "?");
	if (f) {
		if (fgets(comm, (int)size, f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
}

/* PID's parent, from /proc/PID/stat ("PID (COMM) STATE PPID ..."); 0 if none. */
static pid_t parent_of(pid_t pid)
{
	char *path = xasprintf("/proc/%ld/stat", (long)pid), buf[512];
	FILE *f = fopen(path, "re");
	const char *paren;
	long ppid = 0;

	free(path);
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (paren = strrchr(buf, ')')) &&
	    sscanf(paren + 1, " %*c %ld", &ppid) != 1)
		ppid = 0;
	fclose(f);
	return (pid_t)ppid;
}

/* Whether PID is this process or one of those waiting for it (the shell). */
static bool ours(pid_t pid)
{
	for (pid_t p = getpid(); p > 1; p = parent_of(p))
		if (p == pid)
			return true;
	return false;
}

void holders_find(const char *dir, struct holders *out)
{
	DIR *d = opendir("/proc");
	const struct dirent *de;

	memset(out, 0, sizeof(*out));
	if (!d)
		return;
	while ((de = readdir(d))) {
		char *proc;
		pid_t pid;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = (pid_t)strtol(de->d_name, NULL, 10);
		if (ours(pid))
			continue;
		proc = xasprintf("/proc/%s", de->d_name);
		if (link_under(proc, "cwd", dir) || link_under(proc, "root", dir) ||
		    fd_under(proc, dir) || map_under(proc, dir)) {
			out->v = xrealloc(out->v, (out->count + 1) * sizeof(*out->v));
			out->v[out->count].pid = pid;
			comm_of(proc, out->v[out->count].comm,
				sizeof(out->v[out->count].comm));
			out->count++;
		}
		free(proc);
	}
	closedir(d);
}

void holders_free(struct holders *h)
{
	free(h->v);
	memset(h, 0, sizeof(*h));
}

char *holders_text(const struct holders *h, size_t limit)
{
	char *text = xstrdup(""), *next;

	for (size_t i = 0; i < h->count && i < limit; i++) {
		next = xasprintf("%s%s%s (%ld)", text, i ? ", " : "",
				 h->v[i].comm, (long)h->v[i].pid);
		free(text);
		text = next;
	}
	if (h->count > limit) {
		next = xasprintf("%s and %zu more", text, h->count - limit);
		free(text);
		text = next;
	}
	return text;
}
