// SPDX-License-Identifier: GPL-2.0
/*
 * Changes to names (change.h).
 */
#include <stdlib.h>
#include <string.h>

#include "change.h"
#include "lib/util.h"

void change_free(struct change *c)
{
	free(c->dir);
	free(c->old);
	free(c->new);
}

void change_copy(struct change *to, const struct change *from,
		 const char *dir)
{
	*to = *from;
	to->old = xstrdup(from->old);
	to->new = xstrdup(from->new);
	to->dir = from->dir ? xstrdup(from->dir) :
		  dir && !from->merge ? xstrdup(dir) : NULL;
}

char *join_path(const char *dir, const char *name)
{
	return strcmp(dir, ".") ? xasprintf("%s/%s", dir, name) :
				  xstrdup(name);
}
