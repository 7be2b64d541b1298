/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A progress line on the terminal: rewritten at most once a second on
 * standard error while a long walk or conversion runs, erased at the end;
 * nothing at all when standard error is not a terminal.  One at a time,
 * as a program has one terminal line to give.
 */
#ifndef GAMEPART_PROGRESS_H
#define GAMEPART_PROGRESS_H

/*
 * Start showing progress, if standard error is a terminal; each line
 * starts with LABEL ("gamepart: convert: PATH"), which must live as long.
 */
void progress_begin(const char *label);
/* The line, after the label, if a second passed since the last. */
void progress_show(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Erase the line, so that a message starts on a clean one (gp_warn). */
void progress_clear(void);
/* Erase the line and stop. */
void progress_end(void);

#endif
