// SPDX-License-Identifier: GPL-2.0
/*
 * The engines' work directories, by name (work-dirs.h).
 */
#include <string.h>

#include "work-dirs.h"

bool convert_is_work_dir(const char *name, size_t len)
{
	size_t plen = strlen(CONVERT_WORK_PREFIX);

	return len > plen && !memcmp(name, CONVERT_WORK_PREFIX, plen);
}
