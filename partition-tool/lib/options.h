/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options every command takes, and option errors said one way:
 *   gamepart: COMMAND: TEXT; see 'gamepart COMMAND --help'
 * Commands call getopt_long() with an option string that starts with ':'
 * (so that a missing argument is told from an unknown option) and hand
 * every result they do not handle themselves to common_option().
 */
#ifndef GAMEPART_OPTIONS_H
#define GAMEPART_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

/* -h/--help and -V/--version, for the end of a command's option table. */
#define COMMON_LONGOPTS \
	{ "help", no_argument, NULL, 'h' }, \
	{ "version", no_argument, NULL, 'V' }, \
	{ NULL, 0, NULL, 0 }

/* The lines of a command's usage() that describe -h and -V. */
#define COMMON_OPTIONS_HELP \
	"  -h, --help     show this help and exit\n" \
	"  -V, --version  show the version and exit\n"

/*
 * What getopt_long() returned OPT for, when the command does not take it
 * itself: 'h' prints USAGE on stdout, 'V' the version, both exit status 0;
 * anything else is an option error (exit status 2).  ARGV is the
 * command's.  Returns the exit status.
 */
int common_option(int opt, char **argv, void (*usage)(FILE *out));

/* "gamepart: COMMAND: TEXT; see 'gamepart COMMAND --help'"; EXIT_TROUBLE. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The s_encoding of --encoding NAME, or -1 after the usage error that
 * names the encodings gamepart knows.
 */
int encoding_option(const char *name);

#endif
