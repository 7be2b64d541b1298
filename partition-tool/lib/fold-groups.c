// SPDX-License-Identifier: GPL-2.0
/*
 * Grouping names that fold alike (see fold.h): by their bucket key,
 * fold_key(), in a hash table, then fold_equal() within a bucket.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dirread.h"
#include "fold.h"
#include "util.h"

/*
 * Grouping: entries are chained by bucket key in an open-addressing table
 * (one slot per key, twice as many slots as entries); a chain with more
 * than one entry is split into classes of equal names.  Chains are almost
 * always of length one, so the cost is one hash per name.
 */
struct bucket {
	uint32_t key;
	size_t head;		/* first entry + 1; 0 for an empty slot */
};

size_t fold_groups(const struct folder *f, const struct dir_entry *entries,
		   size_t count, fold_group_fn fn, void *ctx)
{
	struct bucket *slots;
	size_t *next, *members, *tail;
	const struct dir_entry **group;
	bool *placed;
	size_t nslots = 16, groups = 0, i;

	if (count < 2)
		return 0;
	while (nslots < 2 * count)
		nslots *= 2;
	slots = xcalloc(nslots, sizeof(*slots));
	next = xcalloc(count, sizeof(*next));
	tail = xcalloc(nslots, sizeof(*tail));
	for (i = 0; i < count; i++) {
		uint32_t key = fold_key(f, entries[i].name, entries[i].len);
		size_t s = (key * 2654435761u) & (nslots - 1);

		while (slots[s].head && slots[s].key != key)
			s = (s + 1) & (nslots - 1);
		if (!slots[s].head) {
			slots[s].key = key;
			slots[s].head = i + 1;
		} else {
			next[tail[s] - 1] = i + 1;
		}
		tail[s] = i + 1;
	}
	free(tail);

	members = xcalloc(count, sizeof(*members));
	group = xcalloc(count, sizeof(*group));
	placed = xcalloc(count, sizeof(*placed));
	for (size_t s = 0; s < nslots; s++) {
		size_t n = 0, m, e;

		if (!slots[s].head || !next[slots[s].head - 1])
			continue;
		for (e = slots[s].head; e; e = next[e - 1])
			members[n++] = e - 1;
		/* Split the chain into classes: each unplaced member leads one. */
		for (m = 0; m < n; m++) {
			const struct dir_entry *lead = &entries[members[m]];
			size_t g = 0;

			if (placed[members[m]])
				continue;
			group[g++] = lead;
			for (size_t o = m + 1; o < n; o++) {
				const struct dir_entry *other =
					&entries[members[o]];

				if (!placed[members[o]] &&
				    fold_equal(f, lead->name, lead->len,
					       other->name, other->len)) {
					placed[members[o]] = true;
					group[g++] = other;
				}
			}
			if (g > 1) {
				fn(ctx, group, g);
				groups++;
			}
		}
	}
	free(placed);
	free(group);
	free(members);
	free(next);
	free(slots);
	return groups;
}

/*
 * Classes grow one name at a time, so the table grows with them: open
 * addressing on the bucket key, one slot per class leader, chains of
 * leaders that share a key compared with fold_equal().
 */
struct fold_classes {
	const struct folder *f;
	struct class_slot {
		uint32_t key;
		size_t leader;	/* index of the class's first name + 1; 0 empty */
	} *slots;
	size_t nslots;
	char **names;		/* the leaders' names, in the order they came */
	size_t *lens;
	size_t count, cap;
};

struct fold_classes *fold_classes_new(const struct folder *f)
{
	struct fold_classes *c = xcalloc(1, sizeof(*c));

	c->f = f;
	c->nslots = 64;
	c->slots = xcalloc(c->nslots, sizeof(*c->slots));
	return c;
}

void fold_classes_free(struct fold_classes *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->count; i++)
		free(c->names[i]);
	free(c->names);
	free(c->lens);
	free(c->slots);
	free(c);
}

static size_t class_slot(const struct fold_classes *c, uint32_t key,
			 size_t from)
{
	return (from + key * 2654435761u) & (c->nslots - 1);
}

static void classes_grow(struct fold_classes *c)
{
	struct class_slot *old = c->slots;
	size_t oldn = c->nslots;

	c->nslots *= 2;
	c->slots = xcalloc(c->nslots, sizeof(*c->slots));
	for (size_t i = 0; i < oldn; i++) {
		size_t s;

		if (!old[i].leader)
			continue;
		for (s = class_slot(c, old[i].key, 0); c->slots[s].leader;
		     s = (s + 1) & (c->nslots - 1))
			;
		c->slots[s] = old[i];
	}
	free(old);
}

/* The slot of NAME's class, or the empty slot where it would go. */
static size_t class_find(const struct fold_classes *c, const char *name,
			 size_t len, uint32_t key)
{
	size_t s;

	for (s = class_slot(c, key, 0); c->slots[s].leader;
	     s = (s + 1) & (c->nslots - 1)) {
		size_t l = c->slots[s].leader - 1;

		if (c->slots[s].key == key &&
		    fold_equal(c->f, name, len, c->names[l], c->lens[l]))
			break;
	}
	return s;
}

size_t fold_classes_lookup(const struct fold_classes *c, const char *name,
			   size_t len)
{
	size_t s = class_find(c, name, len, fold_key(c->f, name, len));

	return c->slots[s].leader ? c->slots[s].leader - 1 : FOLD_NO_CLASS;
}

size_t fold_classes_index(struct fold_classes *c, const char *name,
			  size_t len, bool *made)
{
	uint32_t key = fold_key(c->f, name, len);
	size_t s = class_find(c, name, len, key), index = c->count;

	*made = !c->slots[s].leader;
	if (!*made)
		return c->slots[s].leader - 1;
	/* A new class: this name leads it.  Only leaders are kept. */
	if (c->count == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->names = xrealloc(c->names, c->cap * sizeof(*c->names));
		c->lens = xrealloc(c->lens, c->cap * sizeof(*c->lens));
	}
	c->names[index] = xmalloc(len + 1);
	memcpy(c->names[index], name, len);
	c->names[index][len] = '\0';
	c->lens[index] = len;
	c->count++;
	c->slots[s].key = key;
	c->slots[s].leader = index + 1;
	if (c->count * 2 > c->nslots)
		classes_grow(c);
	return index;
}

const char *fold_classes_add(struct fold_classes *c, const char *name,
			     size_t len, size_t *leader_len)
{
	bool made;
	size_t index = fold_classes_index(c, name, len, &made);

	*leader_len = c->lens[index];
	return c->names[index];
}
