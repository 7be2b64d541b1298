// SPDX-License-Identifier: GPL-2.0
/*
 * Inode flags and filesystem type of a mounted tree (see online.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include <linux/magic.h>

#include "online.h"

int online_flags(int fd, int *flags)
{
	return ioctl(fd, FS_IOC_GETFLAGS, flags);
}

int online_casefolded(int fd, bool *casefolded)
{
	int flags;

	if (online_flags(fd, &flags) < 0)
		return -1;
	*casefolded = (unsigned int)flags & FS_CASEFOLD_FL;
	return 0;
}

int online_set_casefold(int fd)
{
	int flags;

	if (online_flags(fd, &flags) < 0)
		return -1;
	flags = (int)((unsigned int)flags | FS_CASEFOLD_FL);
	return ioctl(fd, FS_IOC_SETFLAGS, &flags);
}

/*
 * The type of the mount MNT_ID, as the kernel names it in
 * /proc/self/mountinfo: "ID PARENT MAJ:MIN ROOT POINT OPTS [TAGS] - TYPE".
 */
static bool mount_type(uint64_t mnt_id, char *what, size_t size)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], *sep;
	unsigned long long id;
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llu", &id) != 1 || id != mnt_id)
			continue;
		sep = strstr(line, " - ");
		if (sep) {
			sep += 3;
			sep[strcspn(sep, " \n")] = '\0';
			snprintf(what, size, "it is on %s", sep);
			found = true;
		}
	}
	fclose(f);
	return found;
}

int online_is_ext4(int fd, bool *ext4, char *what, size_t size)
{
	struct statfs sfs;
	struct statx stx;

	if (fstatfs(fd, &sfs) < 0)
		return -1;
	*ext4 = (unsigned long)sfs.f_type == EXT4_SUPER_MAGIC;
	if (*ext4)
		return 0;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0 ||
	    !(stx.stx_mask & STATX_MNT_ID) ||
	    !mount_type(stx.stx_mnt_id, what, size))
		snprintf(what, size, "type 0x%lx", (unsigned long)sfs.f_type);
	return 0;
}
