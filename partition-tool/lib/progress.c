// SPDX-License-Identifier: GPL-2.0
/*
 * The progress line (see progress.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

static bool shown_on_terminal;
static bool drawn;
static time_t last;
static const char *prefix;

void progress_begin(const char *label)
{
	prefix = label;
	shown_on_terminal = isatty(STDERR_FILENO);
	drawn = false;
	last = 0;
}

void progress_show(const char *fmt, ...)
{
	time_t now;
	va_list ap;

	if (!shown_on_terminal)
		return;
	now = time(NULL);
	if (now == last)
		return;
	last = now;
	fprintf(stderr, "\r\033[K%s: ", prefix);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	drawn = true;
}

void progress_clear(void)
{
	if (drawn)
		fputs("\r\033[K", stderr);
	drawn = false;
	/* Drawn again at the next second. */
	last = 0;
}

void progress_end(void)
{
	progress_clear();
	shown_on_terminal = false;
}
