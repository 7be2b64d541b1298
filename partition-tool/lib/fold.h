/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Folding names exactly as the kernel does for one filesystem, through
 * libext2fs (the tables e2fsck uses): UTF-8 12.1, NFD plus full case
 * folding, ignorable code points dropped, invalid UTF-8 compared as opaque
 * bytes (or refused, on a strict filesystem).
 */
#ifndef GAMEPART_FOLD_H
#define GAMEPART_FOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ext2fs/ext2_fs.h>

struct folder;
struct dir_entry;

/*
 * s_encoding_flags bit 1: no name was hashed under other folding rules, so
 * a hashed miss needs no linear search (folding itself is unchanged).  The
 * kernel's SB_ENC_NO_COMPAT_FALLBACK_FL (upstream commit 9e28059d5664);
 * e2fsprogs 1.47.0 does not define it.
 */
#ifndef EXT4_ENC_NO_COMPAT_FALLBACK_FL
#define EXT4_ENC_NO_COMPAT_FALLBACK_FL	0x0002
#endif

/*
 * The encodings of the gamepart kernel series (kernel-patches, part 4):
 * NFKD with full case folding, and names compared as Windows compares
 * them.  e2fsprogs-patches defines them; neither upstream nor e2fsprogs
 * 1.47.0 does.
 */
#ifndef EXT4_ENC_UTF8_NFKD_12_1
#define EXT4_ENC_UTF8_NFKD_12_1		0xff01
#endif
#ifndef EXT4_ENC_UTF8_WINDOWS_12_1
#define EXT4_ENC_UTF8_WINDOWS_12_1	0xff02
#endif

/*
 * The rules of a filesystem with superblock fields s_encoding (e.g.
 * EXT4_ENC_UTF8_12_1) and s_encoding_flags (EXT4_ENC_STRICT_MODE_FL).
 * NULL when libext2fs does not know the encoding.
 */
struct folder *folder_new(int encoding, int encoding_flags);
void folder_free(struct folder *f);
bool folder_strict(const struct folder *f);


/*
 * A bucket key: names the filesystem treats as the same name have the
 * same key (the casefolded directory hash of libext2fs); different names
 * usually differ.  Grouping a directory costs O(N) with it.
 */
uint32_t fold_key(const struct folder *f, const char *name, size_t len);

/* Whether the filesystem treats A and B as the same name in a +F directory. */
bool fold_equal(const struct folder *f, const char *a, size_t alen,
		const char *b, size_t blen);

/* What a name is to the filesystem. */
enum fold_kind {
	FOLD_INVALID,		/* not valid in the encoding: opaque bytes */
	FOLD_PLAIN,		/* valid, nothing dropped by folding */
	FOLD_IGNORABLE,		/* valid, with a code point folding drops
				   (U+200B, U+00AD, ...): a shorter name
				   reaches the same file */
};

/*
 * NAME examined in one pass; for FOLD_IGNORABLE, the first such code
 * point is stored in *IGNORABLE_CP.  Each code point is decided once,
 * from libext2fs's own functions, and remembered.
 */
enum fold_kind fold_examine(struct folder *f, const char *name, size_t len,
			    uint32_t *ignorable_cp);

/*
 * The groups of names among ENTRIES (one directory) that the filesystem
 * would treat as one name in a +F directory: FN is called once per group
 * of two or more, with the group's entries in directory order.  Returns
 * the number of groups.  Runs in time linear in COUNT (plus the size of
 * the groups).
 */
typedef void (*fold_group_fn)(void *ctx, const struct dir_entry *const *group,
			      size_t n);
size_t fold_groups(const struct folder *f, const struct dir_entry *entries,
		   size_t count, fold_group_fn fn, void *ctx);

/*
 * Names sorted into classes as they come: each class is the names the
 * filesystem treats as one name in a +F directory, and is known by the
 * first of them that was added.
 */
struct fold_classes;

struct fold_classes *fold_classes_new(const struct folder *f);
void fold_classes_free(struct fold_classes *c);
/*
 * Add NAME; the first name added that folds like it (NAME's own copy
 * when none did), its length in *LEADER_LEN.  Valid until
 * fold_classes_free().
 */
const char *fold_classes_add(struct fold_classes *c, const char *name,
			     size_t len, size_t *leader_len);
/*
 * Classes are numbered from 0 in the order they were made.  The number
 * of NAME's class, made with NAME as its leader if none folds like it
 * (*MADE says so).
 */
size_t fold_classes_index(struct fold_classes *c, const char *name,
			  size_t len, bool *made);
/* The number of NAME's class, or FOLD_NO_CLASS when none folds like it. */
#define FOLD_NO_CLASS ((size_t)-1)
size_t fold_classes_lookup(const struct fold_classes *c, const char *name,
			   size_t len);

/*
 * The length of the well-formed UTF-8 sequence (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF) at S, at most LEN bytes,
 * with its code point in *CP; 0 when S does not start with one.
 */
size_t utf8_sequence(const unsigned char *s, size_t len, uint32_t *cp);

#endif
