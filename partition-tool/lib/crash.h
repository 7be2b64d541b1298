/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test hook of long operations: code that changes a filesystem calls
 * crash_point() right after each change, naming the phase it belongs
 * to, and a test can stop the program dead at any of those points.
 *
 * GAMEPART_TEST_CRASH_AFTER=N stops it after the Nth change; a phase's
 * name instead of N, after the first change of that phase.  A ":poweroff"
 * suffix powers the machine off without syncing (sysrq 'o', for guest
 * tests) instead of SIGKILL, ":stop" stops the process (SIGSTOP) so that
 * a test can change the filesystem under it and let it go on.  The phase
 * is named on stderr first.  Unset, crash_point() only counts.
 */
#ifndef GAMEPART_CRASH_H
#define GAMEPART_CRASH_H

struct crash_hook {
	long after;		/* the change to stop after; 0 none */
	char phase[64];		/* or the phase to stop in; "" none */
	enum { CRASH_KILL, CRASH_POWEROFF, CRASH_STOP } mode;
	long changes;
};

/* From GAMEPART_TEST_CRASH_AFTER. */
void crash_hook_init(struct crash_hook *h);

/* One change of PHASE has been made. */
void crash_point(struct crash_hook *h, const char *phase);

#endif
