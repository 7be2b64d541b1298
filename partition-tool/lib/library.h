/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The directories below a Steam library's layout that want +F as well:
 * each game folder, steamapps/common/GAME, which a game installed by
 * Steam into a casefolded common/ inherits but one moved in with mv(1)
 * does not; and each Proton prefix's steamapps/compatdata/APPID/pfx/drive_c,
 * the directory Proton sets +F on when it makes a prefix, and which stays
 * case-sensitive when Steam Cloud wrote saves into it first (Proton sets
 * +F only on an empty directory).
 */
#ifndef GAMEPART_LIBRARY_H
#define GAMEPART_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>

#include "target.h"

#define GAMES_DIR	"steamapps/common"
#define PREFIXES_DIR	"steamapps/compatdata"
#define PREFIX_DRIVE_C	"pfx/drive_c"

struct below_dir {
	char *path;		/* from the library's root */
	enum dir_state state;	/* DIR_PLAIN or DIR_CASEFOLD */
	bool empty;		/* DIR_PLAIN: nothing in it */
};

struct below_dirs {
	struct below_dir *v;	/* in the order of their names (strverscmp) */
	size_t count;
};

/*
 * The Proton prefixes (PREFIXES_DIR/APPID/PREFIX_DRIVE_C), or the game
 * folders (GAMES_DIR/GAME), of the library at T's starting directory,
 * online or offline; none if it has no such parent.  -1 after a message.
 */
int prefixes_find(const struct target *t, struct below_dirs *out);
int games_find(const struct target *t, struct below_dirs *out);
void below_dirs_free(struct below_dirs *b);

#endif
