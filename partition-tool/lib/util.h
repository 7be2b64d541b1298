/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every part of gamepart shares: exit statuses, messages, checked
 * allocation, running an e2fsprogs program.
 */
#ifndef GAMEPART_UTIL_H
#define GAMEPART_UTIL_H

#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>

#define GAMEPART_VERSION "0.1"

/* Exit statuses: see EXIT STATUS in gamepart.8. */
enum {
	EXIT_NOTHING_FOUND = 0,
	EXIT_FINDINGS = 1,	/* collisions found, a conversion stopped */
	EXIT_TROUBLE = 2,	/* usage, operational errors, refusals */
};

/*
 * The running subcommand, for messages ("gamepart: check: ...").  Set once
 * by the dispatcher before the subcommand starts.
 */
extern const char *gp_command;

/* "gamepart: COMMAND: " + printf text, one line on stderr. */
void gp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* gp_warn, then exit(EXIT_TROUBLE). */
void gp_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* Allocation that cannot fail: running out of memory ends the program. */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *ptr, size_t size);
/*
 * The array V of CAP elements, grown (doubled, from 64) when COUNT fill
 * it, so that one more fits; as git's ALLOC_GROW.
 */
#define XGROW(v, cap, count)						\
	do {								\
		if ((count) >= (cap)) {					\
			(cap) = (cap) ? 2 * (cap) : 64;			\
			(v) = xrealloc((v), (cap) * sizeof(*(v)));	\
		}							\
	} while (0)
char *xstrdup(const char *s);
/* malloc'ed printf. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The order of two names by their bytes, a name before the longer ones
 * it begins: the order in which the first of colliding names is chosen.
 */
int bytes_cmp(const char *a, size_t alen, const char *b, size_t blen);
char *xvasprintf(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

/*
 * Flush stdout and fail loudly if anything written to it was lost (a full
 * disk under "> report" must not look like success).  Registered with
 * atexit() by main().
 */
void close_stdout(void);

/*
 * Run the e2fsprogs program ARGV[0] (from PATH, else /sbin) with stdin
 * from /dev/null and, with OUTPUT_TO_STDERR, its output on stderr; its
 * wait status, or -1 (said on stderr) if it could not be started.
 */
int run_e2fsprogs(const char *const argv[], bool output_to_stderr);

#endif
