// SPDX-License-Identifier: GPL-2.0
/*
 * The journal of gamepart convert: a text file of records, each one line,
 * written whole and fsync()ed before the step it announces ("done" waits
 * for the next record: it announces nothing):
 *
 *   gamepart-convert 2 fail|rename|merge [replace]
 *                                       the header, with the policy, and
 *                                       "replace" if directories under
 *                                       PATH are replaced (--directories)
 *   dir INO PATH ATIME MTIME [PATIME PMTIME]
 *                                       converting PATH (hex), inode INO,
 *                                       whose times (SEC.NSEC) were these,
 *                                       and its parent's if it is replaced
 *   rename OLD NEW INO [DIR]            its planned renames and merges, in
 *   merge OLD NEW INO                   order (see struct change; names
 *                                       and paths in hex)
 *   ready                               the plan above is complete
 *   done INO                            PATH is converted
 *   policy fail|rename|merge            the policy from here on (a resumed
 *                                       run's, between two directories)
 *
 * Nothing moves before "ready" is on disk, so a directory whose block has
 * no "ready" was not touched; one with "ready" and no "done" is in flight.
 * A last line without its newline was torn by a crash and is ignored: the
 * step it announced never started.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "journal.h"
#include "lib/util.h"

/*
 * 2: under merge, entries move directories first, and a directory that
 * meets a file there is renamed (lib/landing.h); 1 renamed the file.
 */
#define JOURNAL_VERSION	"2"
#define JOURNAL_MAGIC	"gamepart-convert " JOURNAL_VERSION

void journal_init(struct journal *j)
{
	memset(j, 0, sizeof(*j));
	j->fd = -1;
}

static void forget_dir(struct journal *j)
{
	size_t i;

	for (i = 0; i < j->nchanges; i++)
		change_free(&j->changes[i]);
	free(j->changes);
	free(j->path);
	j->changes = NULL;
	j->nchanges = 0;
	j->path = NULL;
	j->in_flight = false;
}

int journal_open(struct journal *j, int workfd, bool create)
{
	/*
	 * Read-only: the lock needs no more, and between two records the
	 * process holds nothing open for writing, so that a remount
	 * read-only (the administrator's, or the kernel's after an error)
	 * is not refused because of us.
	 */
	j->fd = openat(workfd, CONVERT_JOURNAL,
		       O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
		       (create ? O_CREAT : 0), 0600);
	j->dirfd = workfd;
	if (j->fd < 0)
		return -errno;
	if (flock(j->fd, LOCK_EX | LOCK_NB) < 0) {
		int err = errno;

		close(j->fd);
		j->fd = -1;
		return -err;
	}
	return 0;
}

static char *hex(const char *s, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char *out = xmalloc(2 * len + 1);
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[(unsigned char)s[i] >> 4];
		out[2 * i + 1] = digits[(unsigned char)s[i] & 15];
	}
	out[2 * len] = '\0';
	return out;
}

static int nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* HEX decoded into a new string; NULL if it is not even-length hex. */
static char *unhex(const char *h, size_t *len)
{
	size_t n = strlen(h), i;
	char *out;

	if (n % 2)
		return NULL;
	out = xmalloc(n / 2 + 1);
	for (i = 0; i < n / 2; i++) {
		int hi = nibble(h[2 * i]), lo = nibble(h[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			free(out);
			return NULL;
		}
		out[i] = (char)(hi << 4 | lo);
	}
	out[n / 2] = '\0';
	*len = n / 2;
	return out;
}

/* Append the pending records and TEXT durably. */
static int append(struct journal *j, const char *text)
{
	char *all = xasprintf("%s%s", j->pending ? j->pending : "", text);
	size_t len = strlen(all), done = 0;
	int fd, err;

	text = all;
	fd = openat(j->dirfd, CONVERT_JOURNAL,
		    O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		free(all);
		errno = err;
		return -1;
	}
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		done += (size_t)n;
	}
	if (fsync(fd) < 0)
		goto fail;
	free(all);
	free(j->pending);
	j->pending = NULL;
	return close(fd);
fail:
	err = errno;
	close(fd);
	free(all);
	errno = err;
	return -1;
}

int journal_start(struct journal *j, enum collision_policy policy,
		  bool replace)
{
	char header[64];

	snprintf(header, sizeof(header), JOURNAL_MAGIC " %s%s\n",
		 collision_policy_name(policy), replace ? " replace" : "");
	j->policy = policy;
	j->replace = replace;
	if (append(j, header) < 0)
		return -1;
	j->has_header = true;
	return 0;
}

int journal_begin(struct journal *j, const char *path, uint64_t ino,
		  const struct timespec times[2],
		  const struct timespec parent_times[2],
		  const struct change *changes, size_t n)
{
	char *hp = hex(path, strlen(path));
	char *text = xasprintf("dir %llu %s %lld.%09ld %lld.%09ld",
			       (unsigned long long)ino, hp,
			       (long long)times[0].tv_sec, times[0].tv_nsec,
			       (long long)times[1].tv_sec, times[1].tv_nsec);
	char *more;
	size_t i;
	int ret;

	free(hp);
	if (parent_times)
		more = xasprintf("%s %lld.%09ld %lld.%09ld\n", text,
				 (long long)parent_times[0].tv_sec,
				 parent_times[0].tv_nsec,
				 (long long)parent_times[1].tv_sec,
				 parent_times[1].tv_nsec);
	else
		more = xasprintf("%s\n", text);
	free(text);
	text = more;
	forget_dir(j);
	j->changes = xcalloc(n ? n : 1, sizeof(*j->changes));
	for (i = 0; i < n; i++) {
		const struct change *c = &changes[i];
		char *ho = hex(c->old, c->oldlen);
		char *hn = hex(c->new, c->newlen);
		char *hd = c->dir ? hex(c->dir, strlen(c->dir)) : NULL;
		char *line = xasprintf("%s%s %s %s %llu%s%s\n", text,
				       c->merge ? "merge" : "rename", ho, hn,
				       (unsigned long long)c->ino,
				       hd ? " " : "", hd ? hd : "");

		free(ho);
		free(hn);
		free(hd);
		free(text);
		text = line;
		change_copy(&j->changes[i], c, NULL);
	}
	j->nchanges = n;
	j->path = xstrdup(path);
	j->ino = ino;
	j->times[0] = times[0];
	j->times[1] = times[1];
	j->has_parent_times = parent_times != NULL;
	if (parent_times) {
		j->parent_times[0] = parent_times[0];
		j->parent_times[1] = parent_times[1];
	}
	j->in_flight = true;
	more = xasprintf("%sready\n", text);
	free(text);
	text = more;
	ret = append(j, text);
	free(text);
	return ret;
}

int journal_policy(struct journal *j, enum collision_policy policy)
{
	char *text = xasprintf("policy %s\n", collision_policy_name(policy));
	int ret = append(j, text);

	free(text);
	if (ret == 0)
		j->policy = policy;
	return ret;
}

void journal_done(struct journal *j)
{
	char *more = xasprintf("%sdone %llu\n", j->pending ? j->pending : "",
			       (unsigned long long)j->ino);

	free(j->pending);
	j->pending = more;
	forget_dir(j);
}

/* Split LINE at spaces into at most MAX words; how many. */
static int words(char *line, char **w, int max)
{
	int n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(line, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (n == max)
			return max + 1;
		w[n++] = t;
	}
	return n;
}

/* SEC.NSEC, as journal_begin() writes it. */
static bool timestamp(const char *s, struct timespec *ts)
{
	long long sec;
	long nsec;
	int end = 0;

	if (sscanf(s, "%lld.%9ld%n", &sec, &nsec, &end) != 2 || s[end] ||
	    nsec < 0)
		return false;
	ts->tv_sec = (time_t)sec;
	ts->tv_nsec = nsec;
	return true;
}

static bool number(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return *s && !*end && !errno;
}

/* One complete line: a record. */
static int read_record(struct journal *j, char *line, bool *ready)
{
	char *w[8];
	int n = words(line, w, 7);
	uint64_t ino;
	size_t len;

	if (n >= 2 && !strcmp(w[0], "gamepart-convert") &&
	    strcmp(w[1], JOURNAL_VERSION)) {
		/* Its plan is another rule's: only its own gamepart can
		   finish it. */
		j->version = xstrdup(w[1]);
		return -1;
	}
	if ((n == 3 || n == 4) && !strcmp(w[0], "gamepart-convert")) {
		if (!collision_policy_named(w[2], &j->policy))
			return -1;
		if (n == 4 && strcmp(w[3], "replace"))
			return -1;
		j->replace = n == 4;
		j->has_header = true;
	} else if ((n == 5 || n == 7) && !strcmp(w[0], "dir") &&
		   number(w[1], &ino)) {
		forget_dir(j);
		*ready = false;
		j->path = unhex(w[2], &len);
		if (!j->path || !timestamp(w[3], &j->times[0]) ||
		    !timestamp(w[4], &j->times[1]))
			return -1;
		j->has_parent_times = n == 7;
		if (n == 7 && (!timestamp(w[5], &j->parent_times[0]) ||
			       !timestamp(w[6], &j->parent_times[1])))
			return -1;
		j->ino = ino;
	} else if ((n == 4 || (n == 5 && !strcmp(w[0], "rename"))) &&
		   (!strcmp(w[0], "rename") || !strcmp(w[0], "merge")) &&
		   number(w[3], &ino)) {
		struct change *r;

		if (!j->path || *ready)
			return -1;
		j->changes = xrealloc(j->changes,
				      (j->nchanges + 1) * sizeof(*j->changes));
		r = &j->changes[j->nchanges++];
		memset(r, 0, sizeof(*r));
		r->old = unhex(w[1], &r->oldlen);
		r->new = unhex(w[2], &r->newlen);
		r->ino = ino;
		r->planned = true;
		r->merge = !strcmp(w[0], "merge");
		if (n == 5 && !(r->dir = unhex(w[4], &len)))
			return -1;
		if (!r->old || !r->new)
			return -1;
	} else if (n == 2 && !strcmp(w[0], "policy")) {
		/* Between two directories only. */
		if ((j->path && *ready) ||
		    !collision_policy_named(w[1], &j->policy))
			return -1;
	} else if (n == 1 && !strcmp(w[0], "ready")) {
		if (!j->path)
			return -1;
		*ready = true;
		j->in_flight = true;
	} else if (n == 2 && !strcmp(w[0], "done") && number(w[1], &ino)) {
		size_t i;

		if (!j->path || ino != j->ino || !*ready)
			return -1;
		j->history = xrealloc(j->history, (j->nhistory + j->nchanges) *
				      sizeof(*j->history));
		for (i = 0; i < j->nchanges; i++)
			change_copy(&j->history[j->nhistory++],
				    &j->changes[i], j->path);
		forget_dir(j);
		*ready = false;
	} else {
		return -1;
	}
	return 0;
}

int journal_read(struct journal *j)
{
	struct stat st;
	char *buf, *line, *nl;
	bool ready = false;
	ssize_t n;

	if (fstat(j->fd, &st) < 0)
		return -1;
	buf = xmalloc((size_t)st.st_size + 1);
	n = pread(j->fd, buf, (size_t)st.st_size, 0);
	if (n < 0) {
		free(buf);
		return -1;
	}
	buf[n] = '\0';
	for (line = buf; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		if (read_record(j, line, &ready) < 0) {
			free(buf);
			errno = j->version ? ENOTSUP : EINVAL;
			return -1;
		}
	}
	/* A block without "ready": nothing of it was done. */
	if (!ready)
		forget_dir(j);
	free(buf);
	if (!j->has_header) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int journal_remove(struct journal *j, int workfd)
{
	if (unlinkat(workfd, CONVERT_JOURNAL, 0) < 0)
		return -1;
	journal_close(j);
	return 0;
}

void journal_close(struct journal *j)
{
	size_t i;

	free(j->version);
	j->version = NULL;
	for (i = 0; i < j->nhistory; i++)
		change_free(&j->history[i]);
	free(j->history);
	j->history = NULL;
	j->nhistory = 0;
	free(j->pending);
	j->pending = NULL;
	forget_dir(j);
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
}
