// SPDX-License-Identifier: GPL-2.0
/*
 * Names landing in a casefolded directory (landing.h): every name taken
 * is one class of fold_classes, whose number finds the entry holding it.
 */
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "landing.h"
#include "util.h"

struct name_holder {
	const struct landing_entry *entry;
	bool renamed;		/* holds a ' (case conflict N)' name */
};

struct entries {
	struct landing_entry *v;
	size_t count, cap;
};

struct landing {
	const struct folder *folder;
	enum collision_policy policy;
	struct entries held, arriving;
	struct fold_classes *classes;
	/* Every arriving name, which no conflict name may take (held ones
	   are classes from the start); NULL until a rename needs it. */
	struct fold_classes *reserved;
	struct name_holder *holders;	/* by class number */
	size_t nholders;
	struct landing_decision *decisions;
	char **new_names;	/* the ' (case conflict N)' names given */
	size_t nnew, new_cap;
};

struct landing *landing_new(const struct folder *f,
			    enum collision_policy policy)
{
	struct landing *l = xcalloc(1, sizeof(*l));

	l->folder = f;
	l->policy = policy;
	return l;
}

void landing_free(struct landing *l)
{
	if (!l)
		return;
	while (l->nnew)
		free(l->new_names[--l->nnew]);
	free(l->new_names);
	free(l->decisions);
	free(l->holders);
	fold_classes_free(l->classes);
	fold_classes_free(l->reserved);
	free(l->held.v);
	free(l->arriving.v);
	free(l);
}

static void entries_add(struct entries *to, const struct landing_entry *e)
{
	XGROW(to->v, to->cap, to->count);
	to->v[to->count++] = *e;
}

void landing_hold(struct landing *l, const char *name, size_t len,
		  bool is_dir, size_t ref)
{
	entries_add(&l->held, &(struct landing_entry){
		.name = name, .len = len, .is_dir = is_dir, .ref = ref,
		.held = true });
}

void landing_arrive(struct landing *l, const char *name, size_t len,
		    bool is_dir, size_t source, size_t ref)
{
	entries_add(&l->arriving, &(struct landing_entry){
		.name = name, .len = len, .is_dir = is_dir, .source = source,
		.ref = ref });
}

/* ENTRY holds the class numbered INDEX. */
static void set_holder(struct landing *l, size_t index,
		       const struct landing_entry *entry, bool renamed)
{
	if (index >= l->nholders) {
		size_t n = l->nholders ? 2 * l->nholders : 64;

		while (n <= index)
			n *= 2;
		l->holders = xrealloc(l->holders, n * sizeof(*l->holders));
		l->nholders = n;
	}
	l->holders[index] = (struct name_holder){ entry, renamed };
}

int landing_order(enum collision_policy policy, const char *a, size_t alen,
		  bool a_dir, const char *b, size_t blen, bool b_dir)
{
	if (policy == ON_COLLISION_MERGE && a_dir != b_dir)
		return a_dir ? -1 : 1;
	return bytes_cmp(a, alen, b, blen);
}

/* Source by source, then landing_order(); CTX points to the policy. */
static int arrival_order(const void *a, const void *b, void *ctx)
{
	const struct landing_entry *x = a, *y = b;

	if (x->source != y->source)
		return x->source < y->source ? -1 : 1;
	return landing_order(*(const enum collision_policy *)ctx, x->name,
			     x->len, x->is_dir, y->name, y->len, y->is_dir);
}

/*
 * Every arriving name, folded once more, made on the first rename: most
 * landings rename nothing.
 */
static void reserve_arrivals(struct landing *l)
{
	l->reserved = fold_classes_new(l->folder);
	for (size_t i = 0; i < l->arriving.count; i++) {
		bool made;

		fold_classes_index(l->reserved, l->arriving.v[i].name,
				   l->arriving.v[i].len, &made);
	}
}

/* D, an arrival that collides, under the first free conflict name. */
static void rename_arrival(struct landing *l, struct landing_decision *d)
{
	const struct landing_entry *e = d->entry;

	if (!l->reserved)
		reserve_arrivals(l);
	d->fate = LANDING_UNNAMED;
	for (unsigned int k = 1; k < 100000; k++) {
		size_t len, index;
		bool made;
		char *name = conflict_name(e->name, e->len, k, &len);

		if (!name)
			return;
		if (fold_classes_lookup(l->reserved, name, len) != FOLD_NO_CLASS ||
		    fold_classes_lookup(l->classes, name, len) != FOLD_NO_CLASS) {
			free(name);
			continue;
		}
		index = fold_classes_index(l->classes, name, len, &made);
		set_holder(l, index, e, true);
		XGROW(l->new_names, l->new_cap, l->nnew);
		l->new_names[l->nnew++] = name;
		d->fate = LANDING_RENAMED;
		d->name = name;
		d->len = len;
		return;
	}
}

static void decide(struct landing *l, struct landing_decision *d)
{
	const struct landing_entry *e = d->entry;
	bool made;
	size_t index = fold_classes_index(l->classes, e->name, e->len, &made);
	const struct name_holder *h;

	d->name = e->name;
	d->len = e->len;
	if (made) {
		set_holder(l, index, e, false);
		d->fate = LANDING_TAKEN;
		return;
	}
	h = &l->holders[index];
	d->met = h->entry;
	/* A conflict name is never met (it folds like no name of the
	   landing), so H holds a name of its own. */
	if (h->entry->is_dir && e->is_dir && !h->renamed &&
	    h->entry->len == e->len && !memcmp(h->entry->name, e->name, e->len))
		d->fate = LANDING_JOINED;
	else if (l->policy == ON_COLLISION_FAIL)
		d->fate = LANDING_COLLIDED;
	else if (l->policy == ON_COLLISION_MERGE && h->entry->is_dir &&
		 e->is_dir && !h->renamed)
		d->fate = LANDING_MERGED;
	else
		rename_arrival(l, d);
}

const struct landing_decision *landing_decide(struct landing *l,
					      size_t *count)
{
	size_t i;

	fold_classes_free(l->classes);
	fold_classes_free(l->reserved);
	l->classes = fold_classes_new(l->folder);
	l->reserved = NULL;
	for (i = 0; i < l->held.count; i++) {
		bool made;
		size_t index = fold_classes_index(l->classes, l->held.v[i].name,
						  l->held.v[i].len, &made);

		/* A directory that is not casefolded may hold two. */
		if (made)
			set_holder(l, index, &l->held.v[i], false);
	}
	if (l->arriving.count)
		qsort_r(l->arriving.v, l->arriving.count,
			sizeof(*l->arriving.v), arrival_order, &l->policy);
	free(l->decisions);
	l->decisions = xcalloc(l->arriving.count + 1, sizeof(*l->decisions));
	for (i = 0; i < l->arriving.count; i++) {
		l->decisions[i].entry = &l->arriving.v[i];
		decide(l, &l->decisions[i]);
	}
	*count = l->arriving.count;
	return l->decisions;
}
