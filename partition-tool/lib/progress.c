// SPDX-License-Identifier: GPL-2.0
/*
 * The progress line (see progress.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

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

/* The terminal's width, or 80 when it does not say. */
static size_t columns(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

void progress_show(const char *fmt, ...)
{
	char line[1024];
	size_t n, width, cut = 0, chars = 0;
	time_t now;

	if (!shown_on_terminal)
		return;
	now = time(NULL);
	if (now == last)
		return;
	last = now;
	n = (size_t)snprintf(line, sizeof(line), "%s: ", prefix);
	if (n < sizeof(line)) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(line + n, sizeof(line) - n, fmt, ap);
		va_end(ap);
	}
	/*
	 * One row at most, or \r would leave the rows above behind: cut at
	 * a character (UTF-8 lead byte), one column short of the edge.
	 */
	width = columns() - 1;
	for (; line[cut]; cut++) {
		if (((unsigned char)line[cut] & 0xc0) != 0x80 && chars++ == width)
			break;
	}
	fprintf(stderr, "\r\033[K%.*s", (int)cut, line);
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
