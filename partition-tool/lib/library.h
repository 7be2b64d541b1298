/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Proton prefixes of a Steam library: each
 * steamapps/compatdata/APPID/pfx/drive_c, the directory Proton sets +F on
 * when it makes a prefix, and which stays case-sensitive when Steam Cloud
 * wrote saves into it first (Proton sets +F only on an empty directory).
 */
#ifndef GAMEPART_PREFIXES_H
#define GAMEPART_PREFIXES_H

#include <stdbool.h>
#include <stddef.h>

#include "target.h"

#define PREFIXES_DIR	"steamapps/compatdata"
#define PREFIX_DRIVE_C	"pfx/drive_c"

struct prefix {
	char *path;		/* PREFIXES_DIR/APPID/PREFIX_DRIVE_C */
	enum dir_state state;	/* DIR_PLAIN or DIR_CASEFOLD */
	bool empty;		/* DIR_PLAIN: nothing in it */
};

struct prefixes {
	struct prefix *v;	/* in APPID order */
	size_t count;
};

/*
 * The prefixes of the library at T's starting directory, online or
 * offline; none if it has no PREFIXES_DIR.  -1 after a message.
 */
int prefixes_find(const struct target *t, struct prefixes *out);
void prefixes_free(struct prefixes *p);

#endif
