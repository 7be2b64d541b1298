// SPDX-License-Identifier: GPL-2.0
/*
 * gamepart create: make a casefold ext4 filesystem on a device, a partition
 * or an image file, and lay out the library offline through libext2fs.
 *
 * Safety first, as mke2fs and util-linux's mkfs tools do: a mounted target
 * (or a block device held open by someone else) is always refused, and one
 * that holds a filesystem or a partition table (found by libblkid) is
 * refused unless --force, which then wipes those signatures.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <blkid.h>
#include <et/com_err.h>
#include <ext2fs/ext2fs.h>

#include "gamepart.h"
#include "layout.h"
#include "target.h"

#define CASEFOLD_FL		0x40000000	/* EXT4_CASEFOLD_FL */
#define MIN_SIZE		(16ULL << 20)	/* below this mke2fs makes no journal */
#define LABEL_MAX		16		/* s_volume_name */
#define DEFAULT_LABEL		"gamedata"

struct create_opts {
	const char *label;
	bool have_owner;
	uint32_t uid, gid;
	bool strict;
	const char *layout_file;
	bool have_size;
	uint64_t size;
	bool force;
	const char *target;
	bool progress;		/* stderr is a terminal */
};

static void usage(FILE *out)
{
	fputs("Usage: gamepart create [--label L] [--owner USER[:GROUP]] [--strict] [--layout FILE] [--size SIZE] [--force] TARGET\n"
	      "\n"
	      "Make an ext4 filesystem with the casefold feature (utf8) on TARGET, a\n"
	      "block device, a partition or an image file, and lay out a game library\n"
	      "on it whose library directories are case-insensitive (+F).\n"
	      "\n"
	      "Options:\n"
	      "  -L, --label L          filesystem label (default " DEFAULT_LABEL ", at most 16 bytes)\n"
	      "  -o, --owner USER[:GROUP]  owner of the root and the library directories\n"
	      "                         (names or numbers; USER alone: its login group)\n"
	      "  -s, --strict           strict encoding: refuse names that are not valid UTF-8\n"
	      "  -l, --layout FILE      directories to create (default: the Steam layout)\n"
	      "  -S, --size SIZE        create or resize the image file TARGET, sparse;\n"
	      "                         SIZE in bytes, or with a K, M, G or T suffix\n"
	      "  -f, --force            overwrite a filesystem or partition table on TARGET\n"
	      "  -h, --help             show this help\n"
	      "\n"
	      "A mounted TARGET is always refused.  See gamepart(8).\n", out);
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs("gamepart: create: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("; see 'gamepart create --help'\n", stderr);
	return EXIT_TROUBLE;
}

/* A decimal id that fits in 32 bits and is not (uid_t)-1. */
static bool parse_id(const char *s, size_t len, uint32_t *id)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0 || len > 10)
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v >= UINT32_MAX)
		return false;
	*id = (uint32_t)v;
	return true;
}

/*
 * USER[:GROUP], each a name or a number, as chown(1) takes them; a USER
 * alone brings its login group.  On failure *WHY says what was wrong.
 */
static bool parse_owner(const char *s, uint32_t *uid, uint32_t *gid,
			const char **why)
{
	const char *colon = strchr(s, ':');
	size_t ulen = colon ? (size_t)(colon - s) : strlen(s);
	char *user = xasprintf("%.*s", (int)ulen, s);
	const struct passwd *pw = NULL;
	bool ok = false;

	*why = strspn(user, "0123456789") == ulen && ulen ?
	       "not a valid user id" : "no such user";
	if (!parse_id(user, ulen, uid)) {
		pw = ulen ? getpwnam(user) : NULL;
		if (!pw)
			goto out;
		*uid = (uint32_t)pw->pw_uid;
	}
	if (!colon) {
		if (!pw)
			pw = getpwuid((uid_t)*uid);
		*why = "a number without :GROUP has no login group to take";
		if (!pw)
			goto out;
		*gid = (uint32_t)pw->pw_gid;
		ok = true;
	} else if (parse_id(colon + 1, strlen(colon + 1), gid)) {
		ok = true;
	} else {
		const struct group *gr = colon[1] ? getgrnam(colon + 1) : NULL;

		*why = "no such group";
		if (gr) {
			*gid = (uint32_t)gr->gr_gid;
			ok = true;
		}
	}
out:
	free(user);
	return ok;
}

/* "64M", "1G", "1048576", "2GiB": powers of 1024. */
static bool parse_size(const char *s, uint64_t *size)
{
	static const char units[] = "KMGT";
	const char *p = s;
	uint64_t v = 0;
	int shift = 0;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p) {
		/* *p & ~0x20 may be NUL, which strchr() would find. */
		const char *u = strchr(units, *p & ~0x20);

		if (!u || !*u)
			return false;
		shift = 10 * (int)(u - units + 1);
		p++;
		if (!strcmp(p, "iB") || !strcmp(p, "B"))
			p += strlen(p);
		if (*p)
			return false;
	}
	if (v == 0 || v > (UINT64_MAX >> shift))
		return false;
	*size = v << shift;
	return true;
}

static void stage(const struct create_opts *o, const char *what)
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
static int open_target(const struct create_opts *o, const struct stat *st)
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
static int probe_target(const struct create_opts *o, int fd, uint64_t *size)
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
static int run_mke2fs(const struct create_opts *o)
{
	char *ext = xasprintf("encoding=utf8%s", o->strict ? ",encoding_flags=strict" : "");
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

struct sibling_check {
	const struct ext2fs_nls_table *table;
	const char *name;
	size_t len;
	bool clash;
};

static int sibling_cb(struct ext2_dir_entry *de, int offset, int blocksize,
		      char *buf, void *priv)
{
	struct sibling_check *c = priv;

	(void)offset;
	(void)blocksize;
	(void)buf;
	if (!ext2fs_casefold_cmp(c->table, (const unsigned char *)de->name,
				 ext2fs_dirent_name_len(de),
				 (const unsigned char *)c->name, c->len)) {
		c->clash = true;
		return DIRENT_ABORT;
	}
	return 0;
}

/* In a +F parent, a new name must not fold to an existing one. */
static errcode_t check_folded_name(const struct create_opts *o, ext2_filsys fs,
				   ext2_ino_t parent, const char *path,
				   const char *name)
{
	struct sibling_check c = { fs->encoding, name, strlen(name), false };
	char *pos;
	errcode_t err;

	if (ext2fs_has_feature_casefold(fs->super) &&
	    (fs->super->s_encoding_flags & EXT4_ENC_STRICT_MODE_FL) &&
	    ext2fs_check_encoded_name(fs->encoding, (char *)name, c.len, &pos)) {
		gp_warn("%s: %s: not valid UTF-8 on a strict filesystem",
			o->target, path);
		return -1;
	}
	err = ext2fs_dir_iterate(fs, parent, 0, NULL, sibling_cb, &c);
	if (err) {
		gp_warn("%s: %s: reading its parent: %s", o->target, path,
			error_message(err));
		return err;
	}
	if (c.clash) {
		gp_warn("%s: %s: its name folds to one that already exists in its casefolded parent",
			o->target, path);
		return -1;
	}
	return 0;
}

static errcode_t make_dir(const struct create_opts *o, ext2_filsys fs,
			  ext2_ino_t parent, bool parent_cf,
			  const struct layout_dir *d, ext2_ino_t *ino)
{
	const char *slash = strrchr(d->path, '/');
	const char *name = slash ? slash + 1 : d->path;
	struct ext2_inode inode;
	errcode_t err;

	if (parent_cf && check_folded_name(o, fs, parent, d->path, name))
		return -1;
	err = ext2fs_new_inode(fs, parent, LINUX_S_IFDIR | 0755, NULL, ino);
	if (!err) {
		err = ext2fs_mkdir(fs, parent, *ino, name);
		if (err == EXT2_ET_DIR_NO_SPACE) {
			err = ext2fs_expand_dir(fs, parent);
			if (!err)
				err = ext2fs_mkdir(fs, parent, *ino, name);
		}
	}
	if (!err)
		err = ext2fs_read_inode(fs, *ino, &inode);
	if (err) {
		gp_warn("%s: %s: %s", o->target, d->path, error_message(err));
		return err;
	}
	if (d->casefold)
		inode.i_flags |= CASEFOLD_FL;
	else
		inode.i_flags &= ~(__u32)CASEFOLD_FL;
	if (o->have_owner) {
		inode.i_uid = (__u16)(o->uid & 0xffff);
		ext2fs_set_i_uid_high(inode, o->uid >> 16);
		inode.i_gid = (__u16)(o->gid & 0xffff);
		ext2fs_set_i_gid_high(inode, o->gid >> 16);
	}
	err = ext2fs_write_inode(fs, *ino, &inode);
	if (err)
		gp_warn("%s: %s: %s", o->target, d->path, error_message(err));
	return err;
}

/* Create the layout's directories on the new, unmounted filesystem. */
static int lay_out(const struct create_opts *o, const struct layout *l)
{
	ext2_filsys fs = NULL;
	ext2_ino_t *inos = xcalloc(l->count, sizeof(*inos));
	size_t i, j, plen;
	errcode_t err;
	int rc = -1;

	err = ext2fs_open2(o->target, NULL, EXT2_FLAG_RW | EXT2_FLAG_64BITS,
			   0, 0, unix_io_manager, &fs);
	if (err) {
		gp_warn("%s: %s", o->target, error_message(err));
		free(inos);
		return -1;
	}
	if (!fs->encoding) {
		gp_warn("%s: libext2fs does not know the filesystem's encoding",
			o->target);
		goto out;
	}
	err = ext2fs_read_bitmaps(fs);
	if (err) {
		gp_warn("%s: %s", o->target, error_message(err));
		goto out;
	}
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
		if (make_dir(o, fs, parent, parent_cf, &l->dirs[i], &inos[i]))
			goto out;
		if (o->progress)
			fprintf(stderr, "\r%s: laying out the library: %zu/%zu",
				o->target, i + 1, l->count);
	}
	if (o->progress)
		fputc('\n', stderr);
	err = ext2fs_close_free(&fs);
	if (err) {
		gp_warn("%s: writing the filesystem: %s", o->target,
			error_message(err));
		goto out;
	}
	rc = 0;
out:
	if (fs)
		ext2fs_free(fs);
	free(inos);
	return rc;
}

static int create(const struct create_opts *o, const struct layout *l)
{
	struct stat st;
	bool created = false;
	uint64_t size = 0;
	int fd;

	if (stat(o->target, &st) < 0) {
		if (errno != ENOENT || !o->have_size) {
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

int cmd_create(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "label", required_argument, NULL, 'L' },
		{ "owner", required_argument, NULL, 'o' },
		{ "strict", no_argument, NULL, 's' },
		{ "layout", required_argument, NULL, 'l' },
		{ "size", required_argument, NULL, 'S' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct create_opts o = { .label = DEFAULT_LABEL };
	struct layout l;
	size_t i, ncf = 0;
	const char *why;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "L:o:sl:S:fh", longopts, NULL)) != -1) {
		switch (c) {
		case 'L':
			o.label = optarg;
			break;
		case 'o':
			if (!parse_owner(optarg, &o.uid, &o.gid, &why)) {
				fprintf(stderr, "gamepart: create: --owner %s: %s; see 'gamepart create --help'\n",
					optarg, why);
				return EXIT_TROUBLE;
			}
			o.have_owner = true;
			break;
		case 's':
			o.strict = true;
			break;
		case 'l':
			o.layout_file = optarg;
			break;
		case 'S':
			if (!parse_size(optarg, &o.size))
				return usage_error("--size: invalid size '%s' (a number with an optional K, M, G or T suffix)",
						   optarg);
			o.have_size = true;
			break;
		case 'f':
			o.force = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_NOTHING_FOUND;
		default:
			return usage_error("%s: unknown option or missing argument",
					   argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return usage_error("%s", optind < argc ? "one TARGET expected" :
				   "no TARGET given");
	o.target = argv[optind];
	if (!*o.label || strlen(o.label) > LABEL_MAX)
		return usage_error("--label: '%s' must be 1 to 16 bytes", o.label);
	o.progress = isatty(STDERR_FILENO);

	if (o.layout_file) {
		if (layout_read(&l, o.layout_file))
			return EXIT_TROUBLE;
	} else {
		layout_default(&l);
	}
	if (create(&o, &l)) {
		layout_free(&l);
		return EXIT_TROUBLE;
	}
	for (i = 0; i < l.count; i++)
		ncf += l.dirs[i].casefold;
	printf("%s: ext4, casefold utf8-12.1%s, label '%s', %zu director%s (%zu casefolded)\n",
	       o.target, o.strict ? " strict" : "", o.label, l.count,
	       l.count == 1 ? "y" : "ies", ncf);
	layout_free(&l);
	return EXIT_NOTHING_FOUND;
}
