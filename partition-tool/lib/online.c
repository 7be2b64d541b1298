// SPDX-License-Identifier: GPL-2.0
/*
 * Inode flags and filesystem type of a mounted tree (see online.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <linux/openat2.h>
#include <sys/statfs.h>
#include <sys/xattr.h>

#include <linux/magic.h>

#include "online.h"
#include "util.h"

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
	char *line = NULL, *sep;
	unsigned long long id;
	bool found = false;
	size_t cap = 0;

	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) >= 0) {
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
	free(line);
	fclose(f);
	return found;
}

/*
 * Undo the octal escapes (\040 for a blank) of a mountinfo field, in
 * place.
 */
static void unescape_field(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

char *online_path_in_fs(int fd)
{
	char self[64], at[4096], *line = NULL, *result = NULL;
	unsigned long long id;
	struct statx stx;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	n = readlink(self, at, sizeof(at) - 1);
	if (n <= 0 || statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0 ||
	    !(stx.stx_mask & STATX_MNT_ID))
		return NULL;
	at[n] = '\0';
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return NULL;
	while (!result && getline(&line, &cap, f) >= 0) {
		char root[4096], point[4096];
		size_t plen;
		const char *rest;

		if (sscanf(line, "%llu %*u %*s %4095s %4095s", &id, root, point) != 3 ||
		    id != stx.stx_mnt_id)
			continue;
		unescape_field(root);
		unescape_field(point);
		plen = strlen(point);
		if (strncmp(at, point, plen) || (at[plen] && at[plen] != '/' && plen > 1))
			break;
		rest = plen == 1 ? at : at + plen;
		/* ROOT is "/" or the mounted subtree; REST "" or "/x/y". */
		result = xasprintf("%s%s", strcmp(root, "/") ? root : "", rest);
		if (!*result) {
			free(result);
			result = xstrdup("/");
		}
	}
	free(line);
	fclose(f);
	return result;
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

/*
 * The inode flags a replacing directory takes from the one it replaces:
 * those chattr sets, but for casefold itself and immutable and
 * append-only, under which the entries could not have been moved out.
 */
#define CARRIED_FLAGS	(FS_SYNC_FL | FS_NODUMP_FL | FS_NOATIME_FL | \
			 FS_DIRSYNC_FL | FS_TOPDIR_FL | FS_PROJINHERIT_FL | \
			 FS_JOURNAL_DATA_FL)

/* FD's extended attribute names, as flistxattr() gives them. */
static char *list_xattrs(int fd, ssize_t *len)
{
	for (;;) {
		ssize_t size = flistxattr(fd, NULL, 0);
		char *buf;

		if (size < 0)
			return NULL;
		buf = xmalloc((size_t)size + 1);
		*len = flistxattr(fd, buf, (size_t)size);
		if (*len >= 0)
			return buf;
		free(buf);
		if (errno != ERANGE)	/* else one was added meanwhile */
			return NULL;
	}
}

static bool has_xattr(const char *names, ssize_t len, const char *name)
{
	const char *p;

	for (p = names; p < names + len; p += strlen(p) + 1)
		if (!strcmp(p, name))
			return true;
	return false;
}

/*
 * Give TO exactly FROM's extended attributes, whatever their namespace:
 * user, trusted, security and the POSIX ACLs (system.posix_acl_access
 * and _default) alike.  The name that failed goes to WHAT.
 */
static int copy_xattrs(int from, int to, char *what, size_t size)
{
	char *names, *have, *value = xmalloc(XATTR_SIZE_MAX);
	ssize_t len, hlen, vlen;
	const char *p;
	int ret = -1;

	snprintf(what, size, "listing them");
	names = list_xattrs(from, &len);
	if (!names)
		goto out_value;
	have = list_xattrs(to, &hlen);
	if (!have)
		goto out_names;
	/* The work directory's parent may pass default ACLs down to it. */
	for (p = have; p < have + hlen; p += strlen(p) + 1) {
		snprintf(what, size, "%s", p);
		if (!has_xattr(names, len, p) && fremovexattr(to, p) < 0)
			goto out;
	}
	for (p = names; p < names + len; p += strlen(p) + 1) {
		snprintf(what, size, "%s", p);
		vlen = fgetxattr(from, p, value, XATTR_SIZE_MAX);
		if (vlen < 0 && errno == ENODATA)
			continue;	/* removed since it was listed */
		if (vlen < 0 || fsetxattr(to, p, value, (size_t)vlen, 0) < 0)
			goto out;
	}
	ret = 0;
out:
	free(have);
out_names:
	free(names);
out_value:
	free(value);
	return ret;
}

int online_copy_attributes(int from, int to, char *what, size_t size,
			   bool *xattr)
{
	struct fsxattr fx, tx;
	struct stat st;
	int flags, tflags;

	*xattr = false;
	snprintf(what, size, "reading them");
	if (fstat(from, &st) < 0)
		return -1;
	snprintf(what, size, "setting its owner");
	if (fchown(to, st.st_uid, st.st_gid) < 0)
		return -1;
	/* The ACLs before the mode: setting the mode sets their mask. */
	if (copy_xattrs(from, to, what, size) < 0) {
		*xattr = true;
		return -1;
	}
	snprintf(what, size, "setting its mode");
	if (fchmod(to, st.st_mode & 07777) < 0)
		return -1;
	snprintf(what, size, "setting its flags");
	if (online_flags(from, &flags) < 0 || online_flags(to, &tflags) < 0)
		return -1;
	flags = (tflags & ~CARRIED_FLAGS) | (flags & CARRIED_FLAGS);
	if (flags != tflags && ioctl(to, FS_IOC_SETFLAGS, &flags) < 0)
		return -1;
	/* Without it, every entry of a project directory would be EXDEV. */
	snprintf(what, size, "setting its project");
	if (ioctl(from, FS_IOC_FSGETXATTR, &fx) < 0 ||
	    ioctl(to, FS_IOC_FSGETXATTR, &tx) < 0)
		return -1;
	if (fx.fsx_projid != tx.fsx_projid) {
		tx.fsx_projid = fx.fsx_projid;
		if (ioctl(to, FS_IOC_FSSETXATTR, &tx) < 0)
			return -1;
	}
	return 0;
}

int online_open_dir_beneath(int rootfd, const char *relpath, bool same_fs)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS |
			   (same_fs ? RESOLVE_NO_XDEV : 0),
	};

	return (int)syscall(SYS_openat2, rootfd, relpath, &how, sizeof(how));
}

int online_data_extent(int fd, off_t from, off_t size, off_t *start,
		       off_t *end)
{
	if (from >= size)
		return 0;
	*start = lseek(fd, from, SEEK_DATA);
	if (*start < 0 && errno == ENXIO)
		return 0;
	if (*start < 0 && errno == EINVAL) {
		*start = from;
		*end = size;
		return 1;
	}
	if (*start < 0)
		return -1;
	*end = lseek(fd, *start, SEEK_HOLE);
	return *end < 0 ? -1 : 1;
}
