/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Provisioning a game-library filesystem: a casefold ext4 made by mke2fs
 * on a device, a partition or an image file, and the library's
 * directories laid out on it offline.
 */
#ifndef GAMEPART_PROVISION_H
#define GAMEPART_PROVISION_H

#include <stdbool.h>
#include <stdint.h>

struct layout;

struct provision_opts {
	const char *target;
	const char *label;
	bool have_owner;
	uint32_t uid, gid;
	int encoding;		/* s_encoding: EXT4_ENC_UTF8_12_1, ... */
	bool strict;
	bool have_size;		/* make or resize the image file TARGET */
	uint64_t size;
	bool force;		/* wipe what libblkid finds on TARGET */
	bool progress;		/* say each stage on stderr */
};

/*
 * Refuse a mounted or busy TARGET, and one that holds data unless
 * forced; make the filesystem and lay out L.  0, or -1 after messages
 * (an image file made by the call is removed).
 */
int provision(const struct provision_opts *o, const struct layout *l);

#endif
