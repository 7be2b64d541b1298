// SPDX-License-Identifier: GPL-2.0
/*
 * The options and option errors every command shares.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "target.h"
#include "util.h"

int encoding_option(const char *name)
{
	int encoding = encoding_by_name(name);

	if (encoding < 0)
		usage_error("--encoding: unknown encoding '%s' (known: " ENCODING_NAMES ")",
			    name);
	return encoding;
}

int usage_error(const char *fmt, ...)
{
	char *text;
	va_list ap;

	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	gp_warn("%s; see 'gamepart %s --help'", text, gp_command);
	free(text);
	return EXIT_TROUBLE;
}

int common_option(int opt, char **argv, void (*usage)(FILE *out))
{
	switch (opt) {
	case 'h':
		usage(stdout);
		return EXIT_NOTHING_FOUND;
	case 'V':
		printf("gamepart %s\n", GAMEPART_VERSION);
		return EXIT_NOTHING_FOUND;
	case ':':
		return usage_error("%s: missing argument", argv[optind - 1]);
	default:
		break;
	}
	/*
	 * A long option: getopt leaves it whole in argv (optopt is 0 for an
	 * unknown one, its value for one given an argument it does not
	 * take).  A short one: optopt is its letter.
	 */
	if (!strncmp(argv[optind - 1], "--", 2)) {
		const char *word = argv[optind - 1];

		if (optopt && strchr(word, '='))
			return usage_error("%.*s: takes no argument",
					   (int)(strchr(word, '=') - word), word);
		return usage_error("%s: unknown option", word);
	}
	return usage_error("-%c: unknown option", optopt);
}
