// SPDX-License-Identifier: GPL-2.0
/*
 * Messages, checked allocation, the stdout check at exit and running an
 * e2fsprogs program.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "progress.h"
#include "util.h"

const char *gp_command;

static void vwarn_line(const char *fmt, va_list ap)
{
	fflush(stdout);
	progress_clear();
	if (gp_command)
		fprintf(stderr, "gamepart: %s: ", gp_command);
	else
		fputs("gamepart: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void gp_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_line(fmt, ap);
	va_end(ap);
}

void gp_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_line(fmt, ap);
	va_end(ap);
	exit(EXIT_TROUBLE);
}

static void *checked(void *p)
{
	if (!p) {
		fputs("gamepart: out of memory\n", stderr);
		exit(EXIT_TROUBLE);
	}
	return p;
}

void *xmalloc(size_t size)
{
	return checked(malloc(size ? size : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return checked(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *ptr, size_t size)
{
	return checked(realloc(ptr, size ? size : 1));
}

char *xstrdup(const char *s)
{
	return checked(strdup(s));
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		checked(NULL);
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void close_stdout(void)
{
	int failed = ferror(stdout);

	if (fclose(stdout) != 0 && errno != EBADF)
		failed = 1;
	if (failed) {
		fprintf(stderr, "gamepart: write error on standard output: %s\n",
			strerror(errno ? errno : EIO));
		_exit(EXIT_TROUBLE);
	}
}

int run_e2fsprogs(const char *const argv[], bool output_to_stderr)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		gp_warn("%s: %s", argv[0], strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		char path[64];

		if (null >= 0)
			dup2(null, STDIN_FILENO);
		if (output_to_stderr)
			dup2(STDERR_FILENO, STDOUT_FILENO);
		/* e2fsprogs lives in /sbin, which a user's PATH may lack. */
		execvp(argv[0], (char *const *)argv);
		snprintf(path, sizeof(path), "/sbin/%s", argv[0]);
		execv(path, (char *const *)argv);
		fprintf(stderr, "gamepart: %s: %s: %s\n",
			gp_command ? gp_command : "", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			gp_warn("%s: %s", argv[0], strerror(errno));
			return -1;
		}
	}
	return status;
}

int bytes_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c ? c : (alen > blen) - (alen < blen);
}
