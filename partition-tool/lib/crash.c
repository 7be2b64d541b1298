// SPDX-License-Identifier: GPL-2.0
/*
 * The crash test hook (see crash.h).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crash.h"
#include "util.h"

void crash_hook_init(struct crash_hook *h)
{
	const char *v = getenv("GAMEPART_TEST_CRASH_AFTER");
	char *end;

	memset(h, 0, sizeof(*h));
	if (!v || !*v)
		return;
	h->after = strtol(v, &end, 10);
	if (end == v) {
		/* A phase: the first change of that phase. */
		snprintf(h->phase, sizeof(h->phase), "%s", v);
		end = strrchr(h->phase, ':');
		if (end)
			*end++ = '\0';
		else
			end = "";
	} else if (*end == ':') {
		end++;
	}
	h->mode = !strcmp(end, "poweroff") ? CRASH_POWEROFF :
		  !strcmp(end, "stop") ? CRASH_STOP : CRASH_KILL;
}

void crash_point(struct crash_hook *h, const char *phase)
{
	++h->changes;
	if (h->phase[0]) {
		if (strcmp(phase, h->phase))
			return;
		h->phase[0] = '\0';
	} else if (!h->after || h->changes != h->after) {
		return;
	}
	/* For the test's account of which phases its stops hit. */
	gp_warn("test crash after change %ld (%s)", h->changes, phase);
	if (h->mode == CRASH_STOP) {
		raise(SIGSTOP);
		return;
	}
	if (h->mode == CRASH_POWEROFF) {
		int fd = open("/proc/sysrq-trigger", O_WRONLY | O_CLOEXEC);

		if (fd >= 0 && write(fd, "o", 1) == 1)
			pause();
	}
	raise(SIGKILL);
}
