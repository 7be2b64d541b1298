// SPDX-License-Identifier: GPL-2.0
/*
 * wait-for-jobs: wait until systemd has no job queued or running.
 *
 *   wait-for-jobs SECONDS
 *
 * Exits 0 once the service manager's job queue is empty, 1 if it is
 * still not after SECONDS, 2 if the manager cannot be asked.
 *
 * The units tests wait so after each card event.  They used to poll
 * `systemctl list-jobs` ten times a second; a TCG guest takes half a
 * second to start systemctl, so the polling took most of the guest's one
 * CPU away from the very jobs it waited for (186 polls, 89 s, in one
 * make check).  This asks the manager once, then again each time it
 * announces a finished job (JobRemoved), and at least every second in
 * case a signal was missed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>

#define MANAGER_SERVICE "org.freedesktop.systemd1"
#define MANAGER_PATH "/org/freedesktop/systemd1"
#define MANAGER_INTERFACE "org.freedesktop.systemd1.Manager"

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void fail(const char *what, int r, const sd_bus_error *error)
{
	fprintf(stderr, "wait-for-jobs: %s: %s\n", what,
		error && sd_bus_error_is_set(error) ? error->message
						     : strerror(-r));
	exit(2);
}

static uint32_t queued_jobs(sd_bus *bus)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	uint32_t n;
	int r;

	r = sd_bus_get_property_trivial(bus, MANAGER_SERVICE, MANAGER_PATH,
					MANAGER_INTERFACE, "NJobs", &error,
					'u', &n);
	if (r < 0)
		fail("reading the manager's NJobs", r, &error);
	return n;
}

int main(int argc, char **argv)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	uint64_t deadline;
	char *end;
	sd_bus *bus;
	long seconds;
	int r;

	if (argc != 2 || (seconds = strtol(argv[1], &end, 10)) <= 0 || *end) {
		fputs("usage: wait-for-jobs SECONDS\n", stderr);
		return 2;
	}
	deadline = now_usec() + (uint64_t)seconds * 1000000;

	r = sd_bus_open_system(&bus);
	if (r < 0)
		fail("connecting to the system bus", r, NULL);
	/*
	 * Listen before the first count, so that a job that ends in between
	 * still wakes us; the manager sends JobRemoved only to subscribers.
	 */
	r = sd_bus_match_signal(bus, NULL, MANAGER_SERVICE, MANAGER_PATH,
				MANAGER_INTERFACE, "JobRemoved", NULL, NULL);
	if (r < 0)
		fail("listening for JobRemoved", r, NULL);
	r = sd_bus_call_method(bus, MANAGER_SERVICE, MANAGER_PATH,
			       MANAGER_INTERFACE, "Subscribe", &error, NULL,
			       "");
	if (r < 0)
		fail("subscribing to the manager's signals", r, &error);

	while (queued_jobs(bus) > 0) {
		uint64_t now = now_usec(), wait;

		if (now >= deadline)
			return 1;
		wait = deadline - now < 1000000 ? deadline - now : 1000000;
		while ((r = sd_bus_process(bus, NULL)) > 0)
			;
		if (r < 0)
			fail("reading the bus", r, NULL);
		r = sd_bus_wait(bus, wait);
		if (r < 0 && r != -EINTR)
			fail("waiting on the bus", r, NULL);
	}
	sd_bus_flush_close_unref(bus);
	return 0;
}
