// SPDX-License-Identifier: GPL-2.0
/*
 * Folding names through libext2fs's copy of the kernel's UTF-8 tables.
 *
 * libext2fs keeps the folded form of a name private, but its public
 * functions are enough: ext2fs_casefold_cmp() decides equality exactly as
 * the kernel's utf8_strncasecmp() does, ext2fs_dirhash2() with
 * EXT4_CASEFOLD_FL hashes the folded name (so equal names share a hash,
 * which makes it a bucket key), and ext2fs_check_encoded_name() is the
 * kernel's utf8_validate().  Whether a code point is ignorable is learnt
 * from the comparison itself: c is dropped by folding exactly when "x"
 * followed by c compares equal to "x".
 *
 * Most names are ASCII, and walking the tables costs far more than reading
 * a directory.  The fold of each ASCII character is learnt once from the
 * same functions (the character it compares equal to whose plain hash is
 * its folded hash), and ASCII names are then folded byte by byte, as the
 * kernel's ASCII fast path does.  If the tables ever disagreed with that
 * (an ASCII character folding to several bytes, or ignorable), the fast
 * path stays off.  The key of an ASCII name is computed in the pass that
 * finds it ASCII; names beyond ASCII are remembered (see struct key_slot).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <ext2fs/ext2fs.h>

#include "util.h"
#include "fold.h"
#include "dirread.h"

#define CODE_POINTS 0x110000u

/* Any hash of the folded bytes does as a bucket key; this one is cheap. */
#define KEY_HASH EXT2_HASH_LEGACY_UNSIGNED

/*
 * Names beyond ASCII are folded through libext2fs's tables, which costs
 * far more than reading them; but libraries repeat names from directory
 * to directory (each level's, each language's, each mod's copy of the
 * same files).  The key of each such name is remembered, by its bytes,
 * in a direct-mapped cache: a name met again costs a hash of its bytes
 * and a comparison; so does judging it (fold_examine()).  Both are
 * functions of the bytes, so the cache changes no result.
 */
#define KEY_CACHE_SLOTS	(1u << 16)

struct key_slot {
	uint64_t hash;		/* bytes_hash() of the name; 0 for an empty slot */
	char *name;
	size_t len;
	bool has_key, has_kind;
	uint32_t key;		/* fold_key() */
	enum fold_kind kind;	/* fold_examine() */
	uint32_t ignorable_cp;
};

struct folder {
	const struct ext2fs_nls_table *table;
	int flags;
	bool ascii_fast;
	unsigned char ascii_fold[128];
	/*
	 * Bits of memory per code point: whether it is ignorable, and
	 * whether libext2fs takes it at all, each with a "decided" bit.
	 */
	unsigned char *decided;
	unsigned char *ignorable;
	unsigned char *checked;
	unsigned char *valid;
	/* Not part of the rules: memory, so written through a const folder. */
	struct key_slot *keys;
};

/* Eight bytes at a time: most names are ASCII, and each is looked at. */
static bool is_ascii(const char *name, size_t len)
{
	uint64_t high = 0, word;
	size_t i = 0;

	for (; i + sizeof(word) <= len; i += sizeof(word)) {
		memcpy(&word, name + i, sizeof(word));
		high |= word;
	}
	for (; i < len; i++)
		high |= (unsigned char)name[i];
	return !(high & 0x8080808080808080ull);
}

static uint32_t plain_hash(const char *name, size_t len)
{
	ext2_dirhash_t hash = 0, minor = 0;

	ext2fs_dirhash(KEY_HASH, name, (int)len, NULL, &hash, &minor);
	return hash;
}

static uint32_t folded_hash(const struct folder *f, const char *name,
			    size_t len)
{
	ext2_dirhash_t hash = 0, minor = 0;

	if (ext2fs_dirhash2(KEY_HASH, name, (int)len, f->table,
			    EXT4_CASEFOLD_FL, NULL, &hash, &minor))
		/*
		 * Not UTF-8: libext2fs 1.47.0 then fails with -ENAMETOOLONG
		 * (its casefold tests an unsigned char for -1, so it misses
		 * the error and fills its buffer), where the kernel hashes
		 * the name as it is.  So do we.
		 */
		return plain_hash(name, len);
	return hash;
}

/* NAME (ASCII, at most 255 bytes) folded through f->ascii_fold into BUF. */
static void ascii_lower(const struct folder *f, const char *name, size_t len,
			char *buf)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (char)f->ascii_fold[(unsigned char)name[i]];
}

static bool ignorable(struct folder *f, uint32_t cp, const unsigned char *seq,
		      size_t seqlen);

/*
 * The key of an ASCII name in the pass that finds it ASCII: its bytes
 * folded through f->ascii_fold and hashed as KEY_HASH hashes bytes (the
 * legacy htree hash of unsigned bytes: two running words, each byte
 * mixed in by a multiplication, kept below 2^31, the result doubled),
 * without the copy and the call.  learn_ascii() holds it to libext2fs's
 * own on names of every length, and the fast path stays off if they ever
 * differ.  False if NAME is not ASCII.
 */
static bool ascii_key(const struct folder *f, const char *name, size_t len,
		      uint32_t *key)
{
	const unsigned char *s = (const unsigned char *)name;
	uint32_t cur = 0x12a3fe2du, prev = 0x37abe8f9u;

	for (size_t i = 0; i < len; i++) {
		uint32_t next;

		if (s[i] & 0x80)
			return false;
		next = prev + (cur ^ (f->ascii_fold[s[i]] * 7152373u));
		if (next & 0x80000000u)
			next -= 0x7fffffffu;
		prev = cur;
		cur = next;
	}
	*key = cur << 1;
	return true;
}

/*
 * Learn the fold of each ASCII character from libext2fs, and check that
 * folding ASCII names byte by byte gives what it gives; see the top.
 */
static void learn_ascii(struct folder *f)
{
	static const char *const samples[] = {
		"ReadMe.TXT", "steamapps", "ShaderCache", "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
		"abcdefghijklmnopqrstuvwxyz0123456789 !#$%&'()+,-.;=@[]^_`{}~",
	};
	char buf[256];
	int c, d;
	size_t i;

	for (c = 1; c < 128; c++) {
		char cc = (char)c;
		unsigned char uc = (unsigned char)c;
		uint32_t want = folded_hash(f, &cc, 1);
		int found = 0;

		if (ignorable(f, (uint32_t)c, &uc, 1))
			return;
		for (d = 1; d < 128; d++) {
			char dc = (char)d;

			if (!ext2fs_casefold_cmp(f->table, &uc, 1,
						 (const unsigned char *)&dc, 1) &&
			    plain_hash(&dc, 1) == want) {
				f->ascii_fold[c] = (unsigned char)d;
				found++;
			}
		}
		if (found != 1)
			return;
	}
	for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		size_t len = strlen(samples[i]);

		ascii_lower(f, samples[i], len, buf);
		if (plain_hash(buf, len) != folded_hash(f, samples[i], len))
			return;
	}
	/* ascii_key() against libext2fs: names of every length, all bytes. */
	for (i = 1; i < sizeof(buf); i++) {
		uint32_t key;

		for (size_t k = 0; k < i; k++)
			buf[k] = (char)(1 + (i * 31 + k * 17) % 127);
		if (!ascii_key(f, buf, i, &key) ||
		    key != folded_hash(f, buf, i))
			return;
	}
	f->ascii_fast = true;
}

struct folder *folder_new(int encoding, int encoding_flags)
{
	const struct ext2fs_nls_table *table = ext2fs_load_nls_table(encoding);
	struct folder *f;

	if (!table)
		return NULL;
	f = xcalloc(1, sizeof(*f));
	f->table = table;
	f->flags = encoding_flags;
	f->decided = xcalloc(CODE_POINTS / CHAR_BIT, 1);
	f->ignorable = xcalloc(CODE_POINTS / CHAR_BIT, 1);
	f->checked = xcalloc(CODE_POINTS / CHAR_BIT, 1);
	f->valid = xcalloc(CODE_POINTS / CHAR_BIT, 1);
	f->keys = xcalloc(KEY_CACHE_SLOTS, sizeof(*f->keys));
	learn_ascii(f);
	return f;
}

void folder_free(struct folder *f)
{
	if (!f)
		return;
	free(f->decided);
	free(f->ignorable);
	free(f->checked);
	free(f->valid);
	for (size_t i = 0; i < KEY_CACHE_SLOTS; i++)
		free(f->keys[i].name);
	free(f->keys);
	free(f);
}

bool folder_strict(const struct folder *f)
{
	return f->flags & EXT4_ENC_STRICT_MODE_FL;
}

static bool bit(const unsigned char *map, uint32_t n);
static void set_bit(unsigned char *map, uint32_t n);

/* Whether libext2fs takes the code point CP, encoded as SEQ; memoized. */
static bool valid_code_point(struct folder *f, uint32_t cp,
			     const unsigned char *seq, size_t seqlen)
{
	if (!bit(f->checked, cp)) {
		char buf[4], *pos = NULL;

		memcpy(buf, seq, seqlen);
		if (!ext2fs_check_encoded_name(f->table, buf, seqlen, &pos))
			set_bit(f->valid, cp);
		set_bit(f->checked, cp);
	}
	return bit(f->valid, cp);
}

/*
 * A hash of the bytes for the cache's index, eight at a time (a
 * multiply and a shift a word); never 0, the empty slot's mark.  Two
 * names with one hash only cost a fold: the slot also holds the name.
 */
static uint64_t bytes_hash(const char *name, size_t len)
{
	uint64_t h = len * 0x9e3779b97f4a7c15ull, word;
	size_t i = 0;

	for (; i < len; i += sizeof(word)) {
		size_t n = len - i < sizeof(word) ? len - i : sizeof(word);

		word = 0;
		memcpy(&word, name + i, n);
		h = (h ^ word) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	return h ? h : 1;
}

/* The cache's slot for NAME, claimed for it if another name held it. */
static struct key_slot *name_slot(const struct folder *f, const char *name,
				  size_t len)
{
	uint64_t h = bytes_hash(name, len);
	struct key_slot *slot = &f->keys[h & (KEY_CACHE_SLOTS - 1)];

	if (slot->hash == h && slot->len == len &&
	    !memcmp(slot->name, name, len))
		return slot;
	free(slot->name);
	slot->name = xmalloc(len ? len : 1);
	memcpy(slot->name, name, len);
	slot->len = len;
	slot->hash = h;
	slot->has_key = slot->has_kind = false;
	return slot;
}

/*
 * What a name is to the filesystem, in one pass over its code points.
 * The kernel's utf8_validate() is well-formed UTF-8 whose every code point
 * its tables take, so validity is decided one code point at a time, each
 * asked of libext2fs once; ignorable code points likewise (see the top).
 * The guest test gamepart-check-agrees-with-kernel holds both to what the
 * kernel does.
 */
static enum fold_kind examine_code_points(struct folder *f, const char *name,
					  size_t len, uint32_t *ignorable_cp)
{
	const unsigned char *s = (const unsigned char *)name;
	enum fold_kind kind = FOLD_PLAIN;
	size_t i = 0;
	uint32_t cp;

	while (i < len) {
		size_t n = utf8_sequence(s + i, len - i, &cp);

		if (!n || !valid_code_point(f, cp, s + i, n))
			return FOLD_INVALID;
		if (kind == FOLD_PLAIN && ignorable(f, cp, s + i, n)) {
			*ignorable_cp = cp;
			kind = FOLD_IGNORABLE;
		}
		i += n;
	}
	return kind;
}

enum fold_kind fold_examine(struct folder *f, const char *name, size_t len,
			    uint32_t *ignorable_cp)
{
	struct key_slot *slot;

	if (f->ascii_fast && is_ascii(name, len))
		return FOLD_PLAIN;
	slot = name_slot(f, name, len);
	if (!slot->has_kind) {
		slot->kind = examine_code_points(f, name, len,
						 &slot->ignorable_cp);
		slot->has_kind = true;
	}
	if (slot->kind == FOLD_IGNORABLE)
		*ignorable_cp = slot->ignorable_cp;
	return slot->kind;
}

uint32_t fold_key(const struct folder *f, const char *name, size_t len)
{
	struct key_slot *slot;
	uint32_t key;

	if (f->ascii_fast && ascii_key(f, name, len, &key))
		return key;
	slot = name_slot(f, name, len);
	if (!slot->has_key) {
		slot->key = folded_hash(f, name, len);
		slot->has_key = true;
	}
	return slot->key;
}

bool fold_equal(const struct folder *f, const char *a, size_t alen,
		const char *b, size_t blen)
{
	/*
	 * The kernel's ext4_ci_compare(): the folded comparison, and where
	 * it fails on invalid UTF-8 (non-strict), the bytes themselves.
	 */
	if (!ext2fs_casefold_cmp(f->table, (const unsigned char *)a, alen,
				 (const unsigned char *)b, blen))
		return true;
	return alen == blen && !memcmp(a, b, alen);
}

static bool bit(const unsigned char *map, uint32_t n)
{
	return map[n / CHAR_BIT] & (1u << (n % CHAR_BIT));
}

static void set_bit(unsigned char *map, uint32_t n)
{
	map[n / CHAR_BIT] |= 1u << (n % CHAR_BIT);
}

static bool ignorable(struct folder *f, uint32_t cp, const unsigned char *seq,
		      size_t seqlen)
{
	if (!bit(f->decided, cp)) {
		unsigned char probe[1 + 4];

		probe[0] = 'x';
		memcpy(probe + 1, seq, seqlen);
		if (!ext2fs_casefold_cmp(f->table, probe, 1 + seqlen,
					 (const unsigned char *)"x", 1))
			set_bit(f->ignorable, cp);
		set_bit(f->decided, cp);
	}
	return bit(f->ignorable, cp);
}

size_t utf8_sequence(const unsigned char *s, size_t len, uint32_t *cp)
{
	uint32_t c, min;
	size_t n, i;

	if (!len)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		c = s[0] & 0x1f;
		min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		c = s[0] & 0x0f;
		min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		c = s[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}
