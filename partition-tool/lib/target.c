// SPDX-License-Identifier: GPL-2.0
/*
 * Opening a TARGET|PATH argument: a directory is walked online, a block
 * device or an image file offline through libext2fs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <e2p/e2p.h>
#include <et/com_err.h>
#include <ext2fs/ext2_fs.h>
#include <ext2fs/ext2fs.h>
#include "dirread.h"
#include "fold.h"
#include "online.h"
#include "target.h"
#include "util.h"

static void fsinfo_from_super(struct fs_info *info,
			      const struct ext2_super_block *sb)
{
	info->known = true;
	info->casefold_feature = ext2fs_le32_to_cpu(sb->s_feature_incompat) &
				 EXT4_FEATURE_INCOMPAT_CASEFOLD;
	if (info->casefold_feature) {
		info->encoding = ext2fs_le16_to_cpu(sb->s_encoding);
		info->encoding_flags = ext2fs_le16_to_cpu(sb->s_encoding_flags);
	}
}

/*
 * The kernel's name of the block device DEV ("vda", "nvme0n1p2", "dm-0"),
 * which also names its directory in /sys/fs/ext4; false if there is none.
 */
static bool device_name(dev_t dev, char *name, size_t size)
{
	char path[64], line[256];
	bool found = false;
	FILE *uevent;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent",
		 major(dev), minor(dev));
	uevent = fopen(path, "re");
	if (!uevent)
		return false;
	while (fgets(line, sizeof(line), uevent)) {
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(name, size, "%.*s", (int)size - 1, line + 8);
			found = true;
		}
	}
	fclose(uevent);
	return found;
}

/* The first line of a small sysfs file, without its newline. */
static bool read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/*
 * The encodings gamepart knows: s_encoding, the name e2fsprogs and
 * gamepart give it, and how the patched kernel's sysfs shows it.
 */
static const struct {
	int encoding;
	const char *name;
	const char *sysfs;
} encodings[] = {
	{ EXT4_ENC_UTF8_12_1, "utf8-12.1", "UTF-8 (12.1.0)" },
	{ EXT4_ENC_UTF8_NFKD_12_1, "utf8-nfkd-12.1", "UTF-8 NFKD (12.1.0)" },
	{ EXT4_ENC_UTF8_WINDOWS_12_1, "utf8-windows-12.1", "UTF-8 Windows (12.1.0)" },
};

/*
 * From the kernel: /sys/fs/ext4/DEV/encoding and encoding_flags, which
 * kernels with the gamepart series show for every ext4 filesystem, to
 * anyone, in the form of f2fs's files of the same names: "UTF-8 (12.1.0)"
 * or "(none)", and s_encoding_flags in hexadecimal.  The files are absent
 * on other kernels.
 */
static bool sysfs_fsinfo(struct fs_info *info, const char *name)
{
	char path[128], value[64], *end;
	unsigned long flags;

	snprintf(path, sizeof(path), "/sys/fs/ext4/%.64s/encoding", name);
	if (!read_line(path, value, sizeof(value)))
		return false;
	info->known = true;
	snprintf(info->source, sizeof(info->source), "/sys/fs/ext4/%.64s", name);
	if (!strcmp(value, "(none)")) {
		info->casefold_feature = false;
		return true;
	}
	info->casefold_feature = true;
	info->encoding = -1;
	for (size_t i = 0; i < sizeof(encodings) / sizeof(encodings[0]); i++)
		if (!strcmp(value, encodings[i].sysfs))
			info->encoding = encodings[i].encoding;
	snprintf(path, sizeof(path), "/sys/fs/ext4/%.64s/encoding_flags", name);
	if (!read_line(path, value, sizeof(value)))
		return true;
	errno = 0;
	flags = strtoul(value, &end, 16);
	if (!errno && end != value && !*end && flags <= 0xffff)
		info->encoding_flags = (int)flags;
	return true;
}

/*
 * The encoding of a mounted filesystem: from sysfs when the kernel shows
 * it, else from the superblock on the block device when we may read it
 * (usually as root).  It cannot change while mounted (tune2fs refuses),
 * so reading under the mount is safe.
 */
static void online_fsinfo(struct target *t)
{
	struct fs_info *info = &t->info;
	struct ext2_super_block sb;
	char name[128], dev[160];
	struct stat st;
	ssize_t n;
	int fd;

	if (fstat(t->dirfd, &st) < 0) {
		snprintf(info->why, sizeof(info->why), "%s", strerror(errno));
		return;
	}
	if (!device_name(st.st_dev, name, sizeof(name))) {
		snprintf(info->why, sizeof(info->why), "no block device for %u:%u",
			 major(st.st_dev), minor(st.st_dev));
		return;
	}
	snprintf(info->device, sizeof(info->device), "/dev/%.64s", name);
	if (sysfs_fsinfo(info, name))
		return;
	snprintf(dev, sizeof(dev), "/dev/%s", name);
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(info->why, sizeof(info->why),
			 "cannot read the superblock on %.64s: %s", dev,
			 strerror(errno));
		return;
	}
	n = pread(fd, &sb, sizeof(sb), SUPERBLOCK_OFFSET);
	close(fd);
	if (n != (ssize_t)sizeof(sb) ||
	    ext2fs_le16_to_cpu(sb.s_magic) != EXT2_SUPER_MAGIC) {
		snprintf(info->why, sizeof(info->why),
			 "no ext4 superblock on %.64s", dev);
		return;
	}
	fsinfo_from_super(info, &sb);
	snprintf(info->source, sizeof(info->source), "the superblock on %.64s",
		 dev);
}

static int open_online(struct target *t, const char *subdir,
		       enum target_access access)
{
	char what[96];
	bool ext4;

	t->kind = TARGET_ONLINE;
	t->dirfd = open(t->arg, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->dirfd < 0) {
		gp_warn("%s: %s", t->arg, strerror(errno));
		return -1;
	}
	if (online_is_ext4(t->dirfd, &ext4, what, sizeof(what)) < 0) {
		gp_warn("%s: %s", t->arg, strerror(errno));
		goto fail;
	}
	if (!ext4 && access == TARGET_READ_ANY_FS) {
		snprintf(t->foreign, sizeof(t->foreign), "%s",
			 strncmp(what, "it is on ", 9) ? what : what + 9);
	} else if (!ext4) {
		gp_warn("%s: not on an ext4 filesystem (%s)", t->arg, what);
		goto fail;
	}
	if (subdir && *subdir) {
		int fd = online_open_dir_beneath(t->dirfd, subdir, true);

		if (fd < 0) {
			gp_warn("%s: %s: %s", t->arg, subdir, strerror(errno));
			goto fail;
		}
		close(t->dirfd);
		t->dirfd = fd;
	}
	if (!*t->foreign)
		online_fsinfo(t);
	return 0;
fail:
	close(t->dirfd);
	t->dirfd = -1;
	return -1;
}

int target_mount_flags(const char *dev, int *mflags, char *mtpt, size_t size)
{
	errcode_t err;

	*mflags = 0;
	err = ext2fs_check_mount_point(dev, mflags, mtpt, (int)size);
	if (err) {
		gp_warn("%s: cannot tell whether it is mounted: %s", dev,
			error_message(err));
		return -1;
	}
	return 0;
}

int target_find_dir(const struct target *t, const char *path,
		    ext2_ino_t *ino)
{
	errcode_t err;

	err = ext2fs_namei(t->fs, EXT2_ROOT_INO, EXT2_ROOT_INO, path, ino);
	if (!err)
		err = ext2fs_check_directory(t->fs, *ino);
	if (err) {
		gp_warn("%s: %s: %s", t->arg, path,
			err == EXT2_ET_FILE_NOT_FOUND ?
			strerror(ENOENT) : error_message(err));
		return -1;
	}
	return 0;
}

static int open_offline(struct target *t, const char *subdir,
			enum target_access access)
{
	bool writable = access == TARGET_WRITE || access == TARGET_WRITE_UNDO;
	io_manager manager = unix_io_manager;
	char mtpt[4096] = "";
	int mflags, flags;
	errcode_t err;

	t->kind = TARGET_OFFLINE;
	if (target_mount_flags(t->arg, &mflags, mtpt, sizeof(mtpt)))
		return -1;
	if (mflags & EXT2_MF_MOUNTED) {
		if (*mtpt)
			gp_warn("%s: mounted on %s; give that directory instead",
				t->arg, mtpt);
		else
			gp_warn("%s: mounted; give its mount point instead",
				t->arg);
		return -1;
	}
	if (writable && (mflags & EXT2_MF_BUSY)) {
		gp_warn("%s: in use by another program", t->arg);
		return -1;
	}

	flags = EXT2_FLAG_64BITS;
	if (writable)
		flags |= EXT2_FLAG_RW | EXT2_FLAG_EXCLUSIVE;
	if (access == TARGET_WRITE_UNDO)
		manager = undo_io_manager;
	err = ext2fs_open2(t->arg, NULL, flags, 0, 0, manager, &t->fs);
	if (err) {
		t->fs = NULL;
		if (err == EXT2_ET_BAD_MAGIC || err == EXT2_ET_SHORT_READ ||
		    err == EXT2_ET_UNEXPECTED_BLOCK_SIZE ||
		    err == EXT2_ET_CORRUPT_SUPERBLOCK)
			gp_warn("%s: not an ext4 filesystem (%s)", t->arg,
				error_message(err));
		else
			gp_warn("%s: %s", t->arg, error_message(err));
		return -1;
	}
	if (ext2fs_has_feature_journal_needs_recovery(t->fs->super)) {
		if (writable) {
			gp_warn("%s: its journal needs recovery; run e2fsck first",
				t->arg);
			goto fail;
		}
		gp_warn("%s: note: its journal needs recovery; what is read may be out of date",
			t->arg);
	}
	fsinfo_from_super(&t->info, t->fs->super);

	t->ino = EXT2_ROOT_INO;
	if (subdir && *subdir && target_find_dir(t, subdir, &t->ino) < 0)
		goto fail;
	return 0;
fail:
	ext2fs_close_free(&t->fs);
	return -1;
}

int target_open(struct target *t, const char *arg, const char *subdir,
		enum target_access access)
{
	struct stat st;

	memset(t, 0, sizeof(*t));
	t->arg = arg;
	t->dirfd = -1;
	if (stat(arg, &st) < 0) {
		gp_warn("%s: %s", arg, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode))
		return open_online(t, subdir, access);
	if (S_ISBLK(st.st_mode) || S_ISREG(st.st_mode))
		return open_offline(t, subdir, access);
	gp_warn("%s: not a directory, a block device or an image file", arg);
	return -1;
}

void target_close(struct target *t)
{
	if (t->dirfd >= 0)
		close(t->dirfd);
	t->dirfd = -1;
	if (t->fs)
		ext2fs_close_free(&t->fs);
}

const char *encoding_name(int encoding)
{
	for (size_t i = 0; i < sizeof(encodings) / sizeof(encodings[0]); i++)
		if (encodings[i].encoding == encoding)
			return encodings[i].name;
	return NULL;
}

void encoding_flags_text(int flags, char *buf, size_t size)
{
	static const struct {
		int bit;
		const char *name;
	} known[] = {
		{ EXT4_ENC_STRICT_MODE_FL, "strict" },
		{ EXT4_ENC_NO_COMPAT_FALLBACK_FL, "no-compat-fallback" },
	};
	size_t i, len;
	int rest = flags;

	len = (size_t)snprintf(buf, size, "0x%x", flags);
	for (i = 0; i < sizeof(known) / sizeof(known[0]) && len < size; i++) {
		if (!(flags & known[i].bit))
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					rest == flags ? " (" : ", ", known[i].name);
		rest &= ~known[i].bit;
	}
	if (rest && len < size)
		len += (size_t)snprintf(buf + len, size - len, "%sunknown 0x%x",
					rest == flags ? " (" : ", ", rest);
	if (flags && len < size)
		snprintf(buf + len, size - len, ")");
}

int encoding_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(encodings) / sizeof(encodings[0]); i++)
		if (!strcmp(encodings[i].name, name))
			return encodings[i].encoding;
	return -1;
}

/*
 * A folder for ENCODING with FLAGS, or NULL after a message naming WHO
 * (NULL: nothing) when libext2fs cannot fold ENCODING: gamepart's tables
 * are libext2fs's, and the encodings the gamepart series adds need the
 * series' libext2fs.
 */
static struct folder *folder_or_say(int encoding, int flags, const char *who)
{
	struct folder *f = folder_new(encoding, flags);
	const char *name = encoding_name(encoding);
	const char *sep = who ? ": " : "";

	if (f)
		return f;
	if (!who)
		who = "";
	if (name)
		gp_warn("%s%sencoding %s: gamepart's libext2fs cannot fold its names (e2fsprogs-patches adds it)",
			who, sep, name);
	else
		gp_warn("%s%sunknown filename encoding %d", who, sep, encoding);
	return NULL;
}

struct folder *encoding_folder(int encoding, const char *who)
{
	return folder_or_say(encoding, e2p_get_encoding_flags(encoding), who);
}

struct folder *target_folder(const struct target *t, bool say_assumed)
{
	const struct fs_info *info = &t->info;

	if (info->known && info->casefold_feature)
		return folder_or_say(info->encoding, info->encoding_flags, t->arg);
	if (say_assumed && *t->foreign)
		gp_warn("%s: note: on %s, not ext4: names are folded as in a casefolded directory of a gamepart card (utf8-12.1, not strict)",
			t->arg, t->foreign);
	else if (say_assumed && !info->known)
		gp_warn("%s: note: cannot read the filesystem's superblock; assuming utf8-12.1, not strict",
			t->arg);
	else if (say_assumed)
		gp_warn("%s: note: the filesystem has no casefold feature; folding as utf8-12.1, not strict, would",
			t->arg);
	/* What tune2fs -O casefold and mke2fs -O casefold choose. */
	return encoding_folder(EXT4_ENC_UTF8_12_1, t->arg);
}

static enum dir_state online_dir_state(const struct target *t, const char *path,
				 bool *empty)
{
	bool casefolded, nonempty;
	int fd;

	/* Through no symbolic link: one is not a library directory. */
	fd = online_open_dir_beneath(t->dirfd, path, false);
	if (fd < 0) {
		if (errno == ENOENT)
			return DIR_MISSING;
		if (errno == ENOTDIR || errno == ELOOP)
			return DIR_NOT_DIR;
		gp_warn("%s/%s: %s", t->arg, path, strerror(errno));
		return DIR_ERROR;
	}
	if (online_casefolded(fd, &casefolded) < 0) {
		gp_warn("%s/%s: reading its flags: %s", t->arg, path,
			strerror(errno));
		close(fd);
		return DIR_ERROR;
	}
	if (casefolded) {
		close(fd);
		return DIR_CASEFOLD;
	}
	*empty = dirread_online_nonempty(fd, &nonempty) == 0 && !nonempty;
	close(fd);
	return DIR_PLAIN;
}

static enum dir_state offline_dir_state(const struct target *t, const char *path,
				  bool *empty)
{
	struct ext2_inode inode;
	ext2_ino_t ino;
	errcode_t err;
	bool nonempty;

	err = ext2fs_namei(t->fs, EXT2_ROOT_INO, t->ino, path, &ino);
	if (err == EXT2_ET_FILE_NOT_FOUND)
		return DIR_MISSING;
	if (!err)
		err = ext2fs_read_inode(t->fs, ino, &inode);
	if (err) {
		gp_warn("%s: %s: %s", t->arg, path, error_message(err));
		return DIR_ERROR;
	}
	if (!LINUX_S_ISDIR(inode.i_mode))
		return DIR_NOT_DIR;
	if (inode.i_flags & EXT4_CASEFOLD_FL)
		return DIR_CASEFOLD;
	err = dirread_offline_nonempty(t->fs, ino, &nonempty);
	*empty = !err && !nonempty;
	return DIR_PLAIN;
}

enum dir_state target_dir_state(const struct target *t, const char *path,
			        bool *empty)
{
	*empty = false;
	return t->kind == TARGET_ONLINE ? online_dir_state(t, path, empty) :
	       offline_dir_state(t, path, empty);
}
