// SPDX-License-Identifier: GPL-2.0
/*
 * Collision policies and conflict names (collision.h).
 */
#include <stdio.h>
#include <string.h>

#include <ext2fs/ext2_fs.h>

#include "collision.h"
#include "util.h"

static const char *const policy_names[] = {
	[ON_COLLISION_FAIL] = "fail",
	[ON_COLLISION_RENAME] = "rename",
	[ON_COLLISION_MERGE] = "merge",
};

const char *collision_policy_name(enum collision_policy policy)
{
	return policy_names[policy];
}

bool collision_policy_named(const char *name, enum collision_policy *policy)
{
	for (size_t i = 0; i < sizeof(policy_names) / sizeof(*policy_names); i++)
		if (!strcmp(name, policy_names[i])) {
			*policy = (enum collision_policy)i;
			return true;
		}
	return false;
}

static bool is_continuation(unsigned char b)
{
	return (b & 0xc0) == 0x80;
}

char *conflict_name(const char *name, size_t len, unsigned int n,
		    size_t *outlen)
{
	const char *dot = memrchr(name, '.', len);
	size_t stem = dot && dot != name ? (size_t)(dot - name) : len;
	size_t ext = len - stem;
	char tag[40];
	size_t taglen = (size_t)snprintf(tag, sizeof(tag),
					 " (case conflict %u)", n);
	char *out;

	if (ext + taglen >= EXT2_NAME_LEN)
		return NULL;
	if (stem + taglen + ext > EXT2_NAME_LEN) {
		stem = EXT2_NAME_LEN - taglen - ext;
		while (stem > 0 && is_continuation((unsigned char)name[stem]))
			stem--;
	}
	out = xmalloc(stem + taglen + ext + 1);
	memcpy(out, name, stem);
	memcpy(out + stem, tag, taglen);
	memcpy(out + stem + taglen, name + len - ext, ext);
	*outlen = stem + taglen + ext;
	out[*outlen] = '\0';
	return out;
}
