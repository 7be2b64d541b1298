// SPDX-License-Identifier: GPL-2.0
/*
 * Provisioning a game-library filesystem (see provision.h).
 *
 * Safety first, as mke2fs and util-linux's mkfs tools do: a mounted target
 * (or a block device held open by someone else) is always refused, and one
 * that holds a filesystem or a partition table (found by libblkid) is
 * refused unless forced, which then wipes those signatures.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <blkid.h>
#include <et/com_err.h>
#include <ext2fs/ext2fs.h>

#include "dirread.h"
#include "fold.h"
#include "layout.h"
#include "offline.h"
#include "provision.h"
#include "target.h"
#include "util.h"

#define MIN_SIZE		(16ULL << 20)	/* below this mke2fs makes no journal */

static void stage(const struct provision_opts *o, const char *what)
{
	if (o->progress)
		fprintf(stderr, "%s: %s\n", o->target, what);
}

/*
 * Refuse a mounted target: the mount table through libext2fs, and for a
 * block device an exclusive open, which fails while anybody (a mount, a
 * device mapper, another mkfs) holds it.  Returns an open descriptor
 * (read-write, exclusive for a device) or -1 after a message.
 */
static int open_target(const struct provision_opts *o, const struct stat *st)
{
	char mtpt[1024] = "";
	int flags, fd;

	if (target_mount_flags(o->target, &flags, mtpt, sizeof(mtpt)))
		return -1;
	if (flags & EXT2_MF_MOUNTED) {
		gp_warn("%s: mounted on %s; refusing to make a filesystem on it",
			o->target, *mtpt ? mtpt : "(unknown)");
		return -1;
	}
	if (flags & EXT2_MF_SWAP) {
		gp_warn("%s: in use as swap; refusing to make a filesystem on it",
			o->target);
		return -1;
	}
	fd = open(o->target, O_RDWR | O_CLOEXEC |
		  (S_ISBLK(st->st_mode) ? O_EXCL : 0));
	if (fd < 0) {
		if (errno == EBUSY)
			gp_warn("%s: in use (mounted or held by another program); refusing",
				o->target);
		else
			gp_warn("%s: %s", o->target, strerror(errno));
	}
	return fd;
}

/*
 * Probe FD for filesystem and partition-table signatures.  Each one found
 * is named on stderr, as mke2fs does; with --force they are wiped,
 * otherwise the target is refused.  Returns 0 to go on, -1 to stop.
 */
static int probe_target(const struct provision_opts *o, int fd, uint64_t *size)
{
	blkid_probe pr;
	const char *type, *label, *what, *article;
	int found = 0, rc, rounds = 0;
	blkid_loff_t sz;

	pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, 0)) {
		gp_warn("%s: cannot probe it with libblkid", o->target);
		if (pr)
			blkid_free_probe(pr);
		return -1;
	}
	sz = blkid_probe_get_size(pr);
	*size = sz > 0 ? (uint64_t)sz : 0;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_LABEL | BLKID_SUBLKS_MAGIC);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);

	while ((rc = blkid_do_probe(pr)) == 0 && rounds++ < 64) {
		label = NULL;
		if (!blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL)) {
			what = "partition table";
		} else if (!blkid_probe_lookup_value(pr, "TYPE", &type, NULL)) {
			what = "file system";
			blkid_probe_lookup_value(pr, "LABEL", &label, NULL);
		} else {
			continue;
		}
		found++;
		article = strchr("aeiouAEIOU", type[0]) ? "an" : "a";
		if (label && *label)
			gp_warn("%s: contains %s %s %s labelled '%s'", o->target,
				article, type, what, label);
		else
			gp_warn("%s: contains %s %s %s", o->target, article,
				type, what);
		if (!o->force)
			continue;
		if (blkid_do_wipe(pr, 0)) {
			gp_warn("%s: cannot wipe the %s signature: %s", o->target,
				type, strerror(errno ? errno : EIO));
			blkid_free_probe(pr);
			return -1;
		}
	}
	blkid_free_probe(pr);
	if (rc < 0) {
		gp_warn("%s: probing failed: %s", o->target,
			strerror(errno ? errno : EIO));
		return -1;
	}
	if (found && !o->force) {
		gp_warn("%s: holds data; refusing without --force", o->target);
		return -1;
	}
	if (found && fsync(fd)) {
		gp_warn("%s: %s", o->target, strerror(errno));
		return -1;
	}
	return 0;
}

/* Run mke2fs on the target; 0 when it succeeded. */
static int run_mke2fs(const struct provision_opts *o)
{
	char *ext = xasprintf("encoding=%s%s", encoding_name(o->encoding),
			      o->strict ? ",encoding_flags=strict" : "");
	char *owner = NULL;
	const char *argv[20];
	int n = 0, status;

	if (o->have_owner) {
		owner = xasprintf("%s,root_owner=%" PRIu32 ":%" PRIu32, ext,
				  o->uid, o->gid);
		free(ext);
		ext = owner;
	}
	argv[n++] = "mke2fs";
	argv[n++] = "-q";
	argv[n++] = "-F";
	argv[n++] = "-t";
	argv[n++] = "ext4";
	argv[n++] = "-m";
	argv[n++] = "0";
	argv[n++] = "-O";
	argv[n++] = "casefold";
	argv[n++] = "-E";
	argv[n++] = ext;
	argv[n++] = "-L";
	argv[n++] = o->label;
	argv[n++] = "--";
	argv[n++] = o->target;
	argv[n] = NULL;

	status = run_e2fsprogs(argv, false);
	free(ext);
	if (status < 0)
		return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		gp_warn("%s: mke2fs failed (exit status %d)", o->target,
			WEXITSTATUS(status));
	else
		gp_warn("%s: mke2fs killed by signal %d", o->target,
			WTERMSIG(status));
	return -1;
}

/* In a +F parent, a new name must not fold to an existing one. */
static int check_folded_name(const struct provision_opts *o, ext2_filsys fs,
			     const struct folder *f, ext2_ino_t parent,
			     const char *path, const char *name)
{
	struct dir_entries siblings;
	size_t len = strlen(name);
	enum fold_kind kind;
	uint32_t cp;
	errcode_t err;
	bool clash = false;

	kind = fold_examine((struct folder *)f, name, len, &cp);
	if (kind == FOLD_INVALID && folder_strict(f)) {
		gp_warn("%s: %s: not valid UTF-8 on a strict filesystem",
			o->target, path);
		return -1;
	}
	err = dirread_offline(fs, parent, &siblings);
	if (err) {
		gp_warn("%s: %s: reading its parent: %s", o->target, path,
			error_message(err));
		return -1;
	}
	for (size_t i = 0; i < siblings.count && !clash; i++)
		clash = fold_equal(f, siblings.v[i].name, siblings.v[i].len,
				   name, len);
	dir_entries_free(&siblings);
	if (clash) {
		gp_warn("%s: %s: its name folds to one that already exists in its casefolded parent",
			o->target, path);
		return -1;
	}
	return 0;
}

static int make_dir(const struct provision_opts *o, ext2_filsys fs,
		    const struct folder *f, ext2_ino_t parent, bool parent_cf,
		    const struct layout_dir *d, ext2_ino_t *ino)
{
	const char *slash = strrchr(d->path, '/');
	const char *name = slash ? slash + 1 : d->path;
	struct offline_dir_attrs a = {
		.casefold = d->casefold, .have_owner = o->have_owner,
		.uid = o->uid, .gid = o->gid,
	};
	errcode_t err;

	if (parent_cf && check_folded_name(o, fs, f, parent, d->path, name))
		return -1;
	err = offline_mkdir(fs, parent, name, &a, ino);
	if (err) {
		gp_warn("%s: %s: %s", o->target, d->path, error_message(err));
		return -1;
	}
	return 0;
}

/* Create the layout's directories on the new, unmounted filesystem. */
static int lay_out(const struct provision_opts *o, const struct layout *l)
{
	ext2_ino_t *inos = xcalloc(l->count, sizeof(*inos));
	struct folder *f = NULL;
	struct target t;
	size_t i, j, plen;
	ext2_filsys fs;
	errcode_t err;
	int rc = -1;

	if (target_open(&t, o->target, NULL, TARGET_WRITE) < 0) {
		free(inos);
		return -1;
	}
	fs = t.fs;
	f = target_folder(&t, false);
	if (!f)
		goto out;
	err = ext2fs_read_bitmaps(fs);
	if (err) {
		gp_warn("%s: %s", o->target, error_message(err));
		goto out;
	}
	/* No name on a new filesystem was hashed under other folding rules. */
	offline_set_no_compat_fallback(fs);
	for (i = 0; i < l->count; i++) {
		const char *slash = strrchr(l->dirs[i].path, '/');
		ext2_ino_t parent = EXT2_ROOT_INO;
		bool parent_cf = false;

		if (slash) {
			/* The layout lists every parent before its children. */
			plen = (size_t)(slash - l->dirs[i].path);
			for (j = 0; j < i; j++) {
				if (strlen(l->dirs[j].path) == plen &&
				    !memcmp(l->dirs[j].path, l->dirs[i].path, plen)) {
					parent = inos[j];
					parent_cf = l->dirs[j].casefold;
				}
			}
		}
		if (make_dir(o, fs, f, parent, parent_cf, &l->dirs[i], &inos[i]))
			goto out;
		if (o->progress)
			fprintf(stderr, "\r%s: laying out the library: %zu/%zu",
				o->target, i + 1, l->count);
	}
	if (o->progress)
		fputc('\n', stderr);
	err = ext2fs_close_free(&t.fs);
	if (err) {
		gp_warn("%s: writing the filesystem: %s", o->target,
			error_message(err));
		goto out;
	}
	rc = 0;
out:
	/* A layout that failed half-way is not written: mke2fs's stays. */
	if (t.fs)
		ext2fs_free(t.fs);
	t.fs = NULL;
	target_close(&t);
	folder_free(f);
	free(inos);
	return rc;
}

int provision(const struct provision_opts *o, const struct layout *l)
{
	struct stat st;
	bool created = false;
	uint64_t size = 0;
	int fd;

	if (stat(o->target, &st) < 0) {
		if (errno == ENOENT && !o->have_size) {
			gp_warn("%s: no such file or device; to make an image file, give its size with --size",
				o->target);
			return -1;
		}
		if (errno != ENOENT) {
			gp_warn("%s: %s", o->target, strerror(errno));
			return -1;
		}
		fd = open(o->target, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 || fstat(fd, &st) < 0) {
			gp_warn("%s: %s", o->target, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		created = true;
	} else if (S_ISBLK(st.st_mode)) {
		if (o->have_size) {
			gp_warn("%s: a block device; --size is only for image files",
				o->target);
			return -1;
		}
		fd = open_target(o, &st);
	} else if (S_ISREG(st.st_mode)) {
		fd = open_target(o, &st);
	} else {
		gp_warn("%s: not a block device or an image file", o->target);
		return -1;
	}
	if (fd < 0)
		return -1;

	if (!created) {
		stage(o, "probing for filesystems and partition tables");
		if (probe_target(o, fd, &size))
			goto fail;
	}
	if (o->have_size) {
		if (ftruncate(fd, (off_t)o->size)) {
			gp_warn("%s: %s", o->target, strerror(errno));
			goto fail;
		}
		size = o->size;
	}
	if (size < MIN_SIZE) {
		gp_warn("%s: too small (%" PRIu64 " bytes); a game library needs at least %llu MiB",
			o->target, size, MIN_SIZE >> 20);
		goto fail;
	}
	/* mke2fs opens a device exclusively itself. */
	close(fd);
	fd = -1;

	stage(o, "making an ext4 filesystem with casefold (mke2fs)");
	if (run_mke2fs(o))
		goto fail;
	if (lay_out(o, l))
		goto fail;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	if (created)
		unlink(o->target);
	return -1;
}

