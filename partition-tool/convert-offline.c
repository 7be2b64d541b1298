// SPDX-License-Identifier: GPL-2.0
/*
 * gamepart convert --offline: the libext2fs side of converting an
 * unmounted filesystem (see cmd-convert.c for the plan and the policy).
 *
 * A directory is converted in place, keeping its inode: its entries are
 * read into memory, its blocks are freed, +F is set and the entries are
 * linked into fresh blocks, under a hash index built with the casefolded
 * hash when they do not fit in one block.  libext2fs inserts each entry
 * into the index and splits leaves as the kernel would, so no name is
 * ever mangled the way e2fsck -D mangles duplicates: the plan has made
 * every name unique under folding first.
 *
 * libext2fs has no journal.  Every block is written through its undo I/O
 * manager (see target_set_undo_file()), which saves the block's old
 * contents to an undo file before overwriting it; e2undo replays that
 * file to roll an interrupted run back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <et/com_err.h>
#include <e2p/e2p.h>
#include <ext2fs/ext2_fs.h>
#include <ext2fs/ext2fs.h>

#include "gamepart.h"
#include "convert.h"

/* ---- the undo file ---- */

/* "E2UNDO02", then the header fields up to the state (see undo_io.c). */
#define UNDO_MAGIC		"E2UNDO02"
#define UNDO_STATE_OFFSET	44
#define UNDO_STATE_FINISHED	0x1

int undo_file_state(const char *path)
{
	unsigned char hdr[UNDO_STATE_OFFSET + 4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return errno == ENOENT ? UNDO_NONE : -1;
	n = pread(fd, hdr, sizeof(hdr), 0);
	close(fd);
	if (n < 0)
		return -1;
	/*
	 * The header is written with the first block's record, before the
	 * block itself: without it (the file made, zeroed, or cut short),
	 * nothing was written to the filesystem.
	 */
	if (n < (ssize_t)sizeof(hdr) ||
	    !memcmp(hdr, "\0\0\0\0\0\0\0\0", 8))
		return UNDO_EMPTY;
	if (memcmp(hdr, UNDO_MAGIC, 8)) {
		errno = EINVAL;
		return -1;
	}
	/* Little-endian on disk. */
	return hdr[UNDO_STATE_OFFSET] & UNDO_STATE_FINISHED ? UNDO_FINISHED :
	       UNDO_UNFINISHED;
}

char *convert_undo_file(const char *target)
{
	const char *dir = getenv("E2FSPROGS_UNDO_DIR");
	const char *base = strrchr(target, '/');

	base = base ? base + 1 : target;
	return xasprintf("%s/gamepart-convert-%s.e2undo",
			 dir && *dir ? dir : ".", base);
}

char *offline_interrupted(const char *target)
{
	char *undo = convert_undo_file(target);

	if (undo_file_state(undo) == UNDO_UNFINISHED)
		return undo;
	free(undo);
	return NULL;
}

errcode_t offline_enable_casefold(ext2_filsys fs)
{
	const struct ext2fs_nls_table *table;

	table = ext2fs_load_nls_table(EXT4_ENC_UTF8_12_1);
	if (!table)
		return EXT2_ET_UNIMPLEMENTED;
	ext2fs_set_feature_casefold(fs->super);
	fs->super->s_encoding = EXT4_ENC_UTF8_12_1;
	fs->super->s_encoding_flags = e2p_get_encoding_flags(EXT4_ENC_UTF8_12_1);
	fs->encoding = table;
	ext2fs_mark_super_dirty(fs);
	return 0;
}

/* ---- rebuilding one directory ---- */

struct entry {
	char *name;		/* NUL-terminated: ext2fs_link wants it so */
	ext2_ino_t ino;
	int type;		/* EXT2_FT_* */
};

struct entries {
	struct entry *v;
	size_t n, cap;
	ext2_ino_t parent;
	size_t bytes;		/* the records they need, '.' and '..' too */
	errcode_t err;
};

static int read_entry(ext2_ino_t dir, int which, struct ext2_dir_entry *de,
		      int offset, int blocksize, char *buf, void *priv)
{
	struct entries *es = priv;
	size_t len = ext2fs_dirent_name_len(de);
	struct entry *e;

	(void)dir;
	(void)offset;
	(void)blocksize;
	(void)buf;
	if (!de->inode)
		return 0;
	if (which == DIRENT_DOT_DOT_FILE) {
		es->parent = de->inode;
		return 0;
	}
	if (which == DIRENT_DOT_FILE)
		return 0;
	if (es->n == es->cap) {
		es->cap = es->cap ? 2 * es->cap : 64;
		es->v = xrealloc(es->v, es->cap * sizeof(*es->v));
	}
	e = &es->v[es->n++];
	e->name = xmalloc(len + 1);
	memcpy(e->name, de->name, len);
	e->name[len] = '\0';
	e->ino = de->inode;
	e->type = ext2fs_dirent_file_type(de);
	es->bytes += EXT2_DIR_REC_LEN(len);
	return 0;
}

static void free_entries(struct entries *es)
{
	for (size_t i = 0; i < es->n; i++)
		free(es->v[i].name);
	free(es->v);
}

/* Give E the name the plan chose for it, if any. */
static void apply_renames(struct entries *es, const struct rename *renames,
			  size_t nrenames)
{
	for (size_t i = 0; i < nrenames; i++) {
		const struct rename *r = &renames[i];

		for (size_t k = 0; k < es->n; k++) {
			struct entry *e = &es->v[k];

			if (e->ino != r->ino || strlen(e->name) != r->oldlen ||
			    memcmp(e->name, r->old, r->oldlen))
				continue;
			es->bytes += EXT2_DIR_REC_LEN(r->newlen) -
				     EXT2_DIR_REC_LEN(r->oldlen);
			free(e->name);
			e->name = xstrdup(r->new);
			break;
		}
	}
}

/* Append logical block LBLK to directory INO; its physical block in *PBLK. */
static errcode_t add_block(ext2_filsys fs, ext2_ino_t ino,
			   struct ext2_inode *inode, blk64_t lblk,
			   blk64_t *pblk)
{
	errcode_t err;

	err = ext2fs_inode_size_set(fs, inode, (lblk + 1) * fs->blocksize);
	if (!err)
		err = ext2fs_fallocate(fs, EXT2_FALLOCATE_FORCE_INIT |
					   EXT2_FALLOCATE_ZERO_BLOCKS,
				       ino, inode, ~0ULL, lblk, 1);
	if (!err)
		err = ext2fs_write_inode(fs, ino, inode);
	if (!err)
		err = ext2fs_bmap2(fs, ino, inode, NULL, 0, lblk, NULL, pblk);
	return err;
}

/*
 * Block 0 of an indexed directory: '.', '..' spanning the block, the
 * index root after them pointing at the one leaf, block 1.
 */
static errcode_t write_index_root(ext2_filsys fs, ext2_ino_t ino,
				  ext2_ino_t parent, blk64_t pblk)
{
	bool filetype = ext2fs_has_feature_filetype(fs->super);
	int csum = ext2fs_has_feature_metadata_csum(fs->super) ?
		   (int)sizeof(struct ext2_dx_tail) : 0;
	struct ext2_dir_entry *de;
	struct ext2_dx_root_info *info;
	struct ext2_dx_countlimit *cl;
	struct ext2_dx_entry *first;
	char *buf;
	errcode_t err;

	err = ext2fs_get_memzero(fs->blocksize, &buf);
	if (err)
		return err;
	de = (struct ext2_dir_entry *)buf;
	de->inode = ino;
	ext2fs_dirent_set_name_len(de, 1);
	ext2fs_dirent_set_file_type(de, filetype ? EXT2_FT_DIR : 0);
	de->name[0] = '.';
	err = ext2fs_set_rec_len(fs, EXT2_DIR_REC_LEN(1), de);
	de = (struct ext2_dir_entry *)(buf + EXT2_DIR_REC_LEN(1));
	de->inode = parent;
	ext2fs_dirent_set_name_len(de, 2);
	ext2fs_dirent_set_file_type(de, filetype ? EXT2_FT_DIR : 0);
	de->name[0] = de->name[1] = '.';
	if (!err)
		err = ext2fs_set_rec_len(fs, fs->blocksize - EXT2_DIR_REC_LEN(1),
					 de);
	/* After '.' (12 bytes) and the 12-byte header of '..'. */
	info = (struct ext2_dx_root_info *)(buf + 24);
	info->hash_version = fs->super->s_def_hash_version;
	info->info_length = sizeof(*info);
	cl = (struct ext2_dx_countlimit *)(buf + 24 + sizeof(*info));
	cl->limit = ext2fs_cpu_to_le16((fs->blocksize - (24 + sizeof(*info)) -
					csum) / sizeof(struct ext2_dx_entry));
	cl->count = ext2fs_cpu_to_le16(1);
	/* The first entry's hash is the count and limit; its block is 1. */
	first = (struct ext2_dx_entry *)cl;
	first->block = ext2fs_cpu_to_le32(1);
	if (!err)
		err = ext2fs_write_dir_block4(fs, pblk, buf, 0, ino);
	ext2fs_free_mem(&buf);
	return err;
}

/* An empty directory block (no '.', no '..'), or one with just them. */
static errcode_t write_dir_block(ext2_filsys fs, ext2_ino_t ino,
				 ext2_ino_t dot, ext2_ino_t parent, blk64_t pblk)
{
	char *buf;
	errcode_t err = ext2fs_new_dir_block(fs, dot, parent, &buf);

	if (err)
		return err;
	err = ext2fs_write_dir_block4(fs, pblk, buf, 0, ino);
	ext2fs_free_mem(&buf);
	return err;
}

/* Whether ES fits in one block beside '.' and '..'. */
static bool fits_one_block(ext2_filsys fs, const struct entries *es)
{
	size_t room = fs->blocksize;

	if (ext2fs_has_feature_metadata_csum(fs->super))
		room -= sizeof(struct ext2_dir_entry_tail);
	return es->bytes + 2 * EXT2_DIR_REC_LEN(2) <= room;
}

errcode_t offline_convert_dir(ext2_filsys fs, ext2_ino_t ino,
			      const struct rename *renames, size_t nrenames,
			      size_t *linked, offline_step_fn step, void *ctx)
{
	struct entries es = { 0 };
	struct ext2_inode inode;
	bool indexed;
	blk64_t pblk;
	errcode_t err;
	size_t i;

	err = ext2fs_read_inode(fs, ino, &inode);
	if (err)
		return err;
	if (inode.i_flags & EXT4_INLINE_DATA_FL)
		return EXT2_ET_INLINE_DATA_CANT_ITERATE;
	err = ext2fs_dir_iterate2(fs, ino, 0, NULL, read_entry, &es);
	if (err)
		goto out;
	if (!es.parent) {
		err = EXT2_ET_DIR_CORRUPTED;
		goto out;
	}
	apply_renames(&es, renames, nrenames);
	indexed = ext2fs_has_feature_dir_index(fs->super) &&
		  !fits_one_block(fs, &es);

	/* From here until the last link, the entries live only in ES. */
	err = ext2fs_punch(fs, ino, &inode, NULL, 0, ~0ULL);
	if (err)
		goto out;
	err = ext2fs_read_inode(fs, ino, &inode);
	if (err)
		goto out;
	inode.i_flags |= EXT4_CASEFOLD_FL;
	inode.i_flags &= ~EXT2_INDEX_FL;
	if (indexed)
		inode.i_flags |= EXT2_INDEX_FL;
	err = ext2fs_inode_size_set(fs, &inode, 0);
	if (!err)
		err = ext2fs_write_inode(fs, ino, &inode);
	if (err)
		goto out;
	step(ctx, "old directory blocks freed");

	err = add_block(fs, ino, &inode, 0, &pblk);
	if (!err)
		err = indexed ? write_index_root(fs, ino, es.parent, pblk) :
		      write_dir_block(fs, ino, ino, es.parent, pblk);
	if (!err && indexed) {
		err = add_block(fs, ino, &inode, 1, &pblk);
		if (!err)
			err = write_dir_block(fs, ino, 0, 0, pblk);
	}
	if (err)
		goto out;
	step(ctx, "new directory blocks written");

	for (i = 0; i < es.n; i++) {
		const struct entry *e = &es.v[i];

		err = ext2fs_link(fs, ino, e->name, e->ino, e->type);
		/* Only a directory without an index grows this way. */
		if (err == EXT2_ET_DIR_NO_SPACE && !indexed) {
			err = ext2fs_expand_dir(fs, ino);
			if (!err)
				err = ext2fs_link(fs, ino, e->name, e->ino,
						  e->type);
		}
		if (err)
			goto out;
		++*linked;
		step(ctx, "entries linked");
	}
out:
	free_entries(&es);
	return err;
}
