// SPDX-License-Identifier: GPL-2.0
/*
 * Collecting findings about names and printing them, for people or as
 * JSON (json-c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "util.h"
#include "fold.h"
#include "report.h"
#include "dirread.h"

struct rname {
	char *s;
	size_t len;
};

struct rdir {
	char *path;
	bool casefolded;
};

struct collision {
	size_t dir;
	struct rname *names;
	size_t n;
};

struct single {
	size_t dir;
	struct rname name;
	uint32_t cp;		/* ignorable: the code point */
	bool strict;		/* invalid: on a strict filesystem */
};

struct report {
	unsigned long long scanned, dirs;
	/* The current directory, kept in dirs[] once it has a finding. */
	char *cur;
	bool cur_casefolded, cur_kept;
	struct rdir *dir;
	size_t ndir, capdir;
	struct collision *coll;
	size_t ncoll, capcoll;
	struct single *inval;
	size_t ninval, capinval;
	struct single *ign;
	size_t nign, capign;
};

#define GROW(arr, n, cap)						\
	do {								\
		if ((n) == (cap)) {					\
			(cap) = (cap) ? 2 * (cap) : 16;			\
			(arr) = xrealloc((arr), (cap) * sizeof(*(arr)));	\
		}							\
	} while (0)

struct report *report_new(void)
{
	return xcalloc(1, sizeof(struct report));
}

void report_free(struct report *r)
{
	size_t i, j;

	if (!r)
		return;
	if (!r->cur_kept)
		free(r->cur);
	for (i = 0; i < r->ndir; i++)
		free(r->dir[i].path);
	for (i = 0; i < r->ncoll; i++) {
		for (j = 0; j < r->coll[i].n; j++)
			free(r->coll[i].names[j].s);
		free(r->coll[i].names);
	}
	for (i = 0; i < r->ninval; i++)
		free(r->inval[i].name.s);
	for (i = 0; i < r->nign; i++)
		free(r->ign[i].name.s);
	free(r->dir);
	free(r->coll);
	free(r->inval);
	free(r->ign);
	free(r);
}

void report_dir(struct report *r, const char *dir, bool casefolded)
{
	if (!r->cur_kept)
		free(r->cur);
	r->cur = xstrdup(dir);
	r->cur_casefolded = casefolded;
	r->cur_kept = false;
	r->dirs++;
}

void report_scanned(struct report *r, size_t count)
{
	r->scanned += count;
}

/* The index of the current directory in dir[], adding it if needed. */
static size_t current_dir(struct report *r)
{
	if (!r->cur_kept) {
		GROW(r->dir, r->ndir, r->capdir);
		r->dir[r->ndir].path = r->cur ? r->cur : xstrdup(".");
		r->dir[r->ndir].casefolded = r->cur_casefolded;
		r->ndir++;
		r->cur_kept = true;
	}
	return r->ndir - 1;
}

static struct rname copy_name(const char *s, size_t len)
{
	struct rname n = { xmalloc(len + 1), len };

	memcpy(n.s, s, len);
	n.s[len] = '\0';
	return n;
}

static int cmp_rname(const struct rname *a, const struct rname *b)
{
	return bytes_cmp(a->s, a->len, b->s, b->len);
}

static int cmp_rname_q(const void *a, const void *b)
{
	return cmp_rname(a, b);
}

void report_collision(struct report *r, const struct dir_entry *const *names,
		      size_t n)
{
	struct collision *c;
	size_t i;

	GROW(r->coll, r->ncoll, r->capcoll);
	c = &r->coll[r->ncoll++];
	c->dir = current_dir(r);
	c->n = n;
	c->names = xcalloc(n, sizeof(*c->names));
	for (i = 0; i < n; i++)
		c->names[i] = copy_name(names[i]->name, names[i]->len);
	qsort(c->names, n, sizeof(*c->names), cmp_rname_q);
}

static struct single single(struct report *r, const char *name, size_t len,
			    uint32_t cp, bool strict)
{
	struct single s = {
		.dir = current_dir(r), .name = copy_name(name, len),
		.cp = cp, .strict = strict,
	};

	return s;
}

void report_invalid(struct report *r, const char *name, size_t len,
		    bool strict)
{
	GROW(r->inval, r->ninval, r->capinval);
	r->inval[r->ninval++] = single(r, name, len, 0, strict);
}

void report_ignorable(struct report *r, const char *name, size_t len,
		      uint32_t cp)
{
	GROW(r->ign, r->nign, r->capign);
	r->ign[r->nign++] = single(r, name, len, cp, false);
}

size_t report_collisions(const struct report *r)
{
	return r->ncoll;
}

static int cmp_collision(const void *a, const void *b)
{
	const struct collision *x = a, *y = b;

	if (x->dir != y->dir)
		return x->dir < y->dir ? -1 : 1;
	return cmp_rname(&x->names[0], &y->names[0]);
}

static int cmp_single(const void *a, const void *b)
{
	const struct single *x = a, *y = b;

	if (x->dir != y->dir)
		return x->dir < y->dir ? -1 : 1;
	return cmp_rname(&x->name, &y->name);
}

static void sort(struct report *r)
{
	/* qsort() must not be given NULL, even for nothing to sort. */
	if (r->ncoll)
		qsort(r->coll, r->ncoll, sizeof(*r->coll), cmp_collision);
	if (r->ninval)
		qsort(r->inval, r->ninval, sizeof(*r->inval), cmp_single);
	if (r->nign)
		qsort(r->ign, r->nign, sizeof(*r->ign), cmp_single);
}

char *report_escape(const char *name, size_t len, bool human)
{
	const unsigned char *s = (const unsigned char *)name;
	char *out = xmalloc(4 * len + 1), *o = out;
	size_t i = 0;
	uint32_t cp;

	while (i < len) {
		size_t n = utf8_sequence(s + i, len - i, &cp);
		if (!n || (human && (cp < 0x20 || cp == 0x7f))) {
			o += sprintf(o, "\\x%02x", s[i]);
			i++;
			continue;
		}
		if (human && (cp == '\\' || cp == '"'))
			*o++ = '\\';
		memcpy(o, s + i, n);
		o += n;
		i += n;
	}
	*o = '\0';
	return out;
}

/*
 * NAME with every code point beyond ASCII written <U+XXXX>: two spellings
 * that a terminal draws alike (NFC "é" and NFD "e" + U+0301) show how
 * they differ.  Bytes that are not UTF-8 are written \xNN.
 */
char *report_spelled(const char *name, size_t len)
{
	const unsigned char *s = (const unsigned char *)name;
	char *out = xmalloc(10 * len + 1), *o = out;
	size_t i = 0;
	uint32_t cp;

	while (i < len) {
		size_t n = utf8_sequence(s + i, len - i, &cp);

		if (!n)
			o += sprintf(o, "\\x%02x", s[i++]);
		else if (cp < 0x20 || cp == 0x7f)
			o += sprintf(o, "\\x%02x", (unsigned int)cp);
		else if (cp < 0x80)
			*o++ = (char)cp;
		else
			o += sprintf(o, "<U+%04X>", (unsigned int)cp);
		i += n ? n : 0;
	}
	*o = '\0';
	return out;
}

static bool has_non_ascii(const struct collision *c)
{
	for (size_t j = 0; j < c->n; j++)
		for (size_t i = 0; i < c->names[j].len; i++)
			if ((unsigned char)c->names[j].s[i] >= 0x80)
				return true;
	return false;
}

static void print_quoted(FILE *out, const struct rname *n)
{
	char *e = report_escape(n->s, n->len, true);

	fprintf(out, "\"%s\"", e);
	free(e);
}

int report_print_human(struct report *r, FILE *out)
{
	size_t c = 0, v = 0, g = 0, d, j;

	sort(r);
	for (d = 0; d < r->ndir; d++) {
		char *dir = report_escape(r->dir[d].path,
					  strlen(r->dir[d].path), true);

		for (; c < r->ncoll && r->coll[c].dir == d; c++) {
			fprintf(out, "%s: %s: ", dir, r->dir[d].casefolded ?
				"collide" :
				"would collide once casefolded");
			for (j = 0; j < r->coll[c].n; j++) {
				if (j)
					fputs(", ", out);
				print_quoted(out, &r->coll[c].names[j]);
			}
			fputc('\n', out);
			if (!has_non_ascii(&r->coll[c]))
				continue;
			fputs("    spelled: ", out);
			for (j = 0; j < r->coll[c].n; j++) {
				char *sp = report_spelled(r->coll[c].names[j].s,
						   r->coll[c].names[j].len);

				fprintf(out, "%s\"%s\"", j ? ", " : "", sp);
				free(sp);
			}
			fputc('\n', out);
		}
		for (; v < r->ninval && r->inval[v].dir == d; v++) {
			fprintf(out, "%s: invalid UTF-8: ", dir);
			print_quoted(out, &r->inval[v].name);
			fputs(r->inval[v].strict ?
			      " (this strict filesystem refuses it in a casefolded directory)\n" :
			      " (compared as opaque bytes)\n", out);
		}
		for (; g < r->nign && r->ign[g].dir == d; g++) {
			fprintf(out, "%s: ignorable U+%04X: ", dir,
				(unsigned int)r->ign[g].cp);
			print_quoted(out, &r->ign[g].name);
			fputs(" (the name without it reaches the same file)\n",
			      out);
		}
		free(dir);
	}
	fprintf(out, "%llu name%s in %llu director%s: %zu collision group%s, %zu invalid UTF-8, %zu with ignorable code points\n",
		r->scanned, r->scanned == 1 ? "" : "s", r->dirs,
		r->dirs == 1 ? "y" : "ies", r->ncoll, r->ncoll == 1 ? "" : "s",
		r->ninval, r->nign);
	return ferror(out) ? -1 : 0;
}

static json_object *jstring(const char *s, size_t len)
{
	char *e = report_escape(s, len, false);
	json_object *j = json_object_new_string(e);

	free(e);
	if (!j)
		gp_die("out of memory");
	return j;
}

static json_object *jnew(json_object *j)
{
	if (!j)
		gp_die("out of memory");
	return j;
}

static json_object *jsingles(const struct report *r, const struct single *s,
			     size_t n)
{
	json_object *arr = jnew(json_object_new_array());
	size_t i;

	for (i = 0; i < n; i++) {
		json_object *o = jnew(json_object_new_object());
		const char *dir = r->dir[s[i].dir].path;

		json_object_object_add(o, "dir", jstring(dir, strlen(dir)));
		json_object_object_add(o, "name",
				       jstring(s[i].name.s, s[i].name.len));
		json_object_array_add(arr, o);
	}
	return arr;
}

json_object *report_json(struct report *r)
{
	json_object *root = jnew(json_object_new_object());
	json_object *coll = jnew(json_object_new_array());
	size_t i, j;

	sort(r);
	json_object_object_add(root, "scanned",
			       jnew(json_object_new_int64((int64_t)r->scanned)));
	for (i = 0; i < r->ncoll; i++) {
		json_object *o = jnew(json_object_new_object());
		json_object *names = jnew(json_object_new_array());
		json_object *spellings = jnew(json_object_new_array());
		const char *dir = r->dir[r->coll[i].dir].path;

		for (j = 0; j < r->coll[i].n; j++) {
			const struct rname *n = &r->coll[i].names[j];
			char *sp = report_spelled(n->s, n->len);

			json_object_array_add(names, jstring(n->s, n->len));
			json_object_array_add(spellings,
					      jnew(json_object_new_string(sp)));
			free(sp);
		}
		json_object_object_add(o, "dir", jstring(dir, strlen(dir)));
		json_object_object_add(o, "names", names);
		json_object_object_add(o, "spelled", spellings);
		json_object_array_add(coll, o);
	}
	json_object_object_add(root, "collisions", coll);
	json_object_object_add(root, "invalid",
			       jsingles(r, r->inval, r->ninval));
	json_object_object_add(root, "ignorable",
			       jsingles(r, r->ign, r->nign));
	return root;
}

int report_print_json(struct report *r, FILE *out)
{
	json_object *root = report_json(r);

	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE),
	      out);
	fputc('\n', out);
	json_object_put(root);
	return ferror(out) ? -1 : 0;
}

const char *report_json_text(json_object *root)
{
	return json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
}

int report_write_json(json_object *root, int dirfd, const char *name,
		      uid_t uid, gid_t gid)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			0644);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	int ret = -1;

	if (f) {
		fputs(report_json_text(root), f);
		fputc('\n', f);
		/* Through the descriptor, never a name that could have been
		   swapped meanwhile. */
		ret = fflush(f) == 0 &&
		      (uid == (uid_t)-1 || fchown(fd, uid, gid) == 0) &&
		      fsync(fd) == 0 ? 0 : -1;
		if (fclose(f) != 0)
			ret = -1;
	} else if (fd >= 0) {
		close(fd);
	}
	/* No half file: it would pass for the whole one. */
	if (ret < 0 && fd >= 0) {
		int err = errno;

		unlinkat(dirfd, name, 0);
		errno = err;
	}
	return ret;
}
