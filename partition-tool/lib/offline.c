// SPDX-License-Identifier: GPL-2.0
/*
 * Changes to an unmounted filesystem through libext2fs (see offline.h).
 *
 * A directory is made casefolded in place, keeping its inode: its
 * entries are read into memory, its blocks are freed, +F is set and the
 * entries are linked into fresh blocks, under a hash index built with
 * the casefolded hash when they do not fit in one block.  libext2fs
 * inserts each entry into the index and splits leaves as the kernel
 * would, so no name is ever mangled the way e2fsck -D mangles
 * duplicates: the caller has made every name unique under folding.
 */
#include <string.h>

#include <e2p/e2p.h>
#include <ext2fs/ext2_fs.h>
#include <ext2fs/ext2fs.h>

#include "crash.h"
#include "fold.h"
#include "offline.h"
#include "util.h"

errcode_t offline_mkdir(ext2_filsys fs, ext2_ino_t parent, const char *name,
			const struct offline_dir_attrs *a, ext2_ino_t *ino)
{
	struct ext2_inode inode;
	errcode_t err;

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
	if (err)
		return err;
	if (a->casefold)
		inode.i_flags |= EXT4_CASEFOLD_FL;
	else
		inode.i_flags &= ~(__u32)EXT4_CASEFOLD_FL;
	if (a->have_owner) {
		inode.i_uid = (__u16)(a->uid & 0xffff);
		ext2fs_set_i_uid_high(inode, a->uid >> 16);
		inode.i_gid = (__u16)(a->gid & 0xffff);
		ext2fs_set_i_gid_high(inode, a->gid >> 16);
	}
	return ext2fs_write_inode(fs, *ino, &inode);
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
	/* Without the feature no directory was casefolded. */
	offline_set_no_compat_fallback(fs);
	return 0;
}

void offline_set_no_compat_fallback(ext2_filsys fs)
{
	/*
	 * Kernels that search a casefolded directory linearly after every
	 * hashed miss (upstream since 9e28059d5664, unless this flag is set)
	 * then need not.  mke2fs and tune2fs 1.47.0 cannot set it; Linux 6.1
	 * and e2fsck 1.47.0 accept it and ignore it.
	 */
	fs->super->s_encoding_flags |= EXT4_ENC_NO_COMPAT_FALLBACK_FL;
	ext2fs_mark_super_dirty(fs);
}

bool offline_needs_fsck(ext2_filsys fs)
{
	return !(fs->super->s_state & EXT2_VALID_FS) ||
	       (fs->super->s_state & EXT2_ERROR_FS);
}

errcode_t offline_changes_begin(ext2_filsys fs)
{
	fs->super->s_state &= ~EXT2_VALID_FS;
	ext2fs_mark_super_dirty(fs);
	return ext2fs_flush(fs);
}

void offline_changes_end(ext2_filsys fs)
{
	fs->super->s_state |= EXT2_VALID_FS;
	ext2fs_mark_super_dirty(fs);
}

/* ---- rebuilding one directory ---- */

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
 * Block 0 of an indexed directory: '.', '..' spanning the block, and the
 * index root after them pointing at the one leaf, block 1.  Written by
 * hand because libext2fs 1.47 has no public call that gives a directory
 * an index: ext2fs_link() extends one (its dx_link) but never makes one,
 * and e2fsck -D makes them in e2fsck's own rehash.c.  Where the count and
 * limit go is asked of libext2fs (ext2fs_get_dx_countlimit).
 */
static errcode_t write_index_root(ext2_filsys fs, ext2_ino_t ino,
				  ext2_ino_t parent, blk64_t pblk)
{
	int filetype = ext2fs_has_feature_filetype(fs->super) ? EXT2_FT_DIR : 0;
	int csum = ext2fs_has_feature_metadata_csum(fs->super) ?
		   (int)sizeof(struct ext2_dx_tail) : 0;
	struct ext2_dir_entry *dot, *dotdot;
	struct ext2_dx_root_info *info;
	struct ext2_dx_countlimit *cl;
	struct ext2_dx_entry *first;
	int cl_offset;
	char *buf;
	errcode_t err;

	err = ext2fs_get_memzero(fs->blocksize, &buf);
	if (err)
		return err;
	dot = (struct ext2_dir_entry *)buf;
	dot->inode = ino;
	ext2fs_dirent_set_name_len(dot, 1);
	ext2fs_dirent_set_file_type(dot, filetype);
	dot->name[0] = '.';
	err = ext2fs_set_rec_len(fs, EXT2_DIR_REC_LEN(1), dot);
	dotdot = (struct ext2_dir_entry *)(buf + EXT2_DIR_REC_LEN(1));
	dotdot->inode = parent;
	ext2fs_dirent_set_name_len(dotdot, 2);
	ext2fs_dirent_set_file_type(dotdot, filetype);
	dotdot->name[0] = dotdot->name[1] = '.';
	if (!err)
		err = ext2fs_set_rec_len(fs, fs->blocksize - EXT2_DIR_REC_LEN(1),
					 dotdot);
	/* The root information follows the name of '..'. */
	info = (struct ext2_dx_root_info *)((char *)dotdot + EXT2_DIR_REC_LEN(2));
	info->hash_version = fs->super->s_def_hash_version;
	info->info_length = sizeof(*info);
	if (!err)
		err = ext2fs_get_dx_countlimit(fs, dot, &cl, &cl_offset);
	if (!err) {
		cl->limit = ext2fs_cpu_to_le16((fs->blocksize - cl_offset -
						csum) / sizeof(*first));
		cl->count = ext2fs_cpu_to_le16(1);
		/* The first entry's hash is the count and limit. */
		first = (struct ext2_dx_entry *)cl;
		first->block = ext2fs_cpu_to_le32(1);
		err = ext2fs_write_dir_block4(fs, pblk, buf, 0, ino);
	}
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

/* Whether records of REC_BYTES fit in one block beside '.' and '..'. */
static bool fits_one_block(ext2_filsys fs, size_t rec_bytes)
{
	size_t room = fs->blocksize;

	if (ext2fs_has_feature_metadata_csum(fs->super))
		room -= sizeof(struct ext2_dir_entry_tail);
	return rec_bytes + 2 * EXT2_DIR_REC_LEN(2) <= room;
}

/* The entries of D with the names RENAME gives them, NUL-terminated. */
static char **new_names(const struct dir_entries *d, offline_rename_fn rename,
			void *ctx, size_t *rec_bytes)
{
	char **names = xcalloc(d->count, sizeof(*names));

	*rec_bytes = 0;
	for (size_t i = 0; i < d->count; i++) {
		const char *to = rename ? rename(ctx, &d->v[i]) : NULL;

		names[i] = xstrdup(to ? to : d->v[i].name);
		*rec_bytes += EXT2_DIR_REC_LEN(strlen(names[i]));
	}
	return names;
}

errcode_t offline_rebuild_casefolded(ext2_filsys fs, ext2_ino_t ino,
				     offline_rename_fn rename, void *ctx,
				     size_t *linked, struct crash_hook *hook)
{
	struct dir_entries d;
	struct ext2_inode inode;
	char **names = NULL;
	size_t rec_bytes, i;
	bool indexed;
	blk64_t pblk;
	errcode_t err;

	err = ext2fs_read_inode(fs, ino, &inode);
	if (err)
		return err;
	if (inode.i_flags & EXT4_INLINE_DATA_FL)
		return EXT2_ET_INLINE_DATA_CANT_ITERATE;
	err = dirread_offline(fs, ino, &d);
	if (err)
		return err;
	if (!d.parent) {
		err = EXT2_ET_DIR_CORRUPTED;
		goto out;
	}
	names = new_names(&d, rename, ctx, &rec_bytes);
	indexed = ext2fs_has_feature_dir_index(fs->super) &&
		  !fits_one_block(fs, rec_bytes);

	/* From here until the last link, the entries live only in D. */
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
	crash_point(hook, "old directory blocks freed");

	err = add_block(fs, ino, &inode, 0, &pblk);
	if (!err)
		err = indexed ? write_index_root(fs, ino, (ext2_ino_t)d.parent, pblk) :
		      write_dir_block(fs, ino, ino, (ext2_ino_t)d.parent, pblk);
	if (!err && indexed) {
		err = add_block(fs, ino, &inode, 1, &pblk);
		if (!err)
			err = write_dir_block(fs, ino, 0, 0, pblk);
	}
	if (err)
		goto out;
	crash_point(hook, "new directory blocks written");

	for (i = 0; i < d.count; i++) {
		ext2_ino_t child = (ext2_ino_t)d.v[i].ino;

		err = ext2fs_link(fs, ino, names[i], child, d.v[i].ftype);
		/* Only a directory without an index grows this way. */
		if (err == EXT2_ET_DIR_NO_SPACE && !indexed) {
			err = ext2fs_expand_dir(fs, ino);
			if (!err)
				err = ext2fs_link(fs, ino, names[i], child,
						  d.v[i].ftype);
		}
		if (err)
			goto out;
		++*linked;
		crash_point(hook, "entries linked");
	}
out:
	if (names)
		for (i = 0; i < d.count; i++)
			free(names[i]);
	free(names);
	dir_entries_free(&d);
	return err;
}
