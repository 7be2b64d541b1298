// SPDX-License-Identifier: GPL-2.0
/*
 * tree-manifest: the manifest of a mounted tree, as JSON, the one the
 * conversion and import tests compare before and after.
 *
 *   tree-manifest DIR
 *
 * For DIR and every entry below it, by its path relative to DIR ("." for
 * DIR): inode, mode, owner, mtime in nanoseconds and extended attributes
 * of every namespace (hex values); for a file also its link count, size
 * and the SHA-256 of its data; for a symbolic link its link count, size
 * and target; for a directory its chattr flags but casefold and the hash
 * index, which a conversion changes (null where the filesystem has
 * none).  progs/library-tree describes the tree the tests make.
 *
 * The output is byte for byte what Python's json.dump(indent=1,
 * sort_keys=True) writes for the same records, names decoded from UTF-8
 * with surrogateescape, so that library-tree's compare and imported read
 * it as their own.  It is C because the tests run it in TCG guests,
 * dozens of times a test, where a Python interpreter costs most of a
 * second to start.
 *
 * Exits 0, or 1 with a message naming the path when an entry cannot be
 * read (nothing is skipped).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#ifndef FS_CASEFOLD_FL
#define FS_CASEFOLD_FL 0x40000000
#endif

struct entry {
	char *path;		/* relative to DIR, as bytes */
	uint32_t *key;		/* the path as Python decodes it */
	size_t key_len;
	char *record;		/* the JSON object, indented as an entry */
};

static struct entry *entries;
static size_t n_entries, entries_size;

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("tree-manifest: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		die("out of memory");
	return p;
}

/*
 * Decode S as Python's bytes.decode("utf-8", "surrogateescape") does:
 * a well-formed sequence gives its code point, any other byte U+DC00 plus
 * the byte.  Returns the number of code points written to OUT, which has
 * room for LEN.
 */
static size_t decode(const unsigned char *s, size_t len, uint32_t *out)
{
	size_t i = 0, n = 0;

	while (i < len) {
		unsigned char c = s[i];
		size_t need = 0;
		uint32_t cp = 0, lo = 0x80, hi = 0xbf;

		if (c < 0x80) {
			out[n++] = c;
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			need = 1;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			need = 2;
			cp = c & 0x0f;
			if (c == 0xe0)
				lo = 0xa0;
			else if (c == 0xed)
				hi = 0x9f;	/* no encoded surrogates */
		} else if (c >= 0xf0 && c <= 0xf4) {
			need = 3;
			cp = c & 0x07;
			if (c == 0xf0)
				lo = 0x90;
			else if (c == 0xf4)
				hi = 0x8f;
		}
		if (need && i + need < len) {
			size_t k;

			for (k = 1; k <= need; k++) {
				unsigned char b = s[i + k];

				if (b < (k == 1 ? lo : 0x80) ||
				    b > (k == 1 ? hi : 0xbf))
					break;
				cp = cp << 6 | (b & 0x3f);
			}
			if (k > need) {
				out[n++] = cp;
				i += need + 1;
				continue;
			}
		}
		out[n++] = 0xdc00 + c;
		i++;
	}
	return n;
}

/* A growing string. */
struct buf {
	char *s;
	size_t len, size;
};

static void put(struct buf *b, const char *s, size_t len)
{
	if (b->len + len + 1 > b->size) {
		b->size = (b->len + len + 1) * 2;
		b->s = xrealloc(b->s, b->size);
	}
	memcpy(b->s + b->len, s, len);
	b->len += len;
	b->s[b->len] = '\0';
}

static void putf(struct buf *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof(tmp))
		die("internal error: a field longer than %zu bytes", sizeof(tmp));
	put(b, tmp, len);
}

/* Code points as a JSON string, escaped as Python's ensure_ascii does. */
static void put_string(struct buf *b, const uint32_t *cp, size_t n)
{
	size_t i;

	put(b, "\"", 1);
	for (i = 0; i < n; i++) {
		uint32_t c = cp[i];
		char ch = (char)c;

		if (c == '"' || c == '\\') {
			put(b, "\\", 1);
			put(b, &ch, 1);
		} else if (c == '\n') {
			put(b, "\\n", 2);
		} else if (c == '\r') {
			put(b, "\\r", 2);
		} else if (c == '\t') {
			put(b, "\\t", 2);
		} else if (c == '\b') {
			put(b, "\\b", 2);
		} else if (c == '\f') {
			put(b, "\\f", 2);
		} else if (c >= 0x20 && c <= 0x7e) {
			put(b, &ch, 1);
		} else if (c > 0xffff) {
			c -= 0x10000;
			putf(b, "\\u%04x\\u%04x", 0xd800 + (c >> 10),
			     0xdc00 + (c & 0x3ff));
		} else {
			putf(b, "\\u%04x", c);
		}
	}
	put(b, "\"", 1);
}

static void put_bytes_string(struct buf *b, const char *s, size_t len)
{
	uint32_t *cp = xmalloc(len * sizeof(*cp));

	put_string(b, cp, decode((const unsigned char *)s, len, cp));
	free(cp);
}

static int compare_keys(const uint32_t *a, size_t na, const uint32_t *b,
			size_t nb)
{
	size_t i;

	for (i = 0; i < na && i < nb; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return na < nb ? -1 : na > nb;
}

static int compare_entries(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return compare_keys(x->key, x->key_len, y->key, y->key_len);
}

static int compare_names(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	uint32_t *kx = xmalloc(strlen(x) * sizeof(*kx));
	uint32_t *ky = xmalloc(strlen(y) * sizeof(*ky));
	int r = compare_keys(kx, decode((const unsigned char *)x, strlen(x), kx),
			     ky, decode((const unsigned char *)y, strlen(y), ky));

	free(kx);
	free(ky);
	return r;
}

/*
 * The list of PATH's attribute names (NAME is NULL) or the value of
 * NAME, in *DATA; its size, or -1 with errno set.  Asked again if it
 * grew between the two calls, as another process may add to it.
 */
static ssize_t read_xattr(const char *path, const char *name, char **data)
{
	for (;;) {
		ssize_t size = name ? lgetxattr(path, name, NULL, 0)
				    : llistxattr(path, NULL, 0);

		if (size < 0)
			return -1;
		*data = xrealloc(NULL, size);
		size = name ? lgetxattr(path, name, *data, size)
			    : llistxattr(path, *data, size);
		if (size >= 0 || errno != ERANGE)
			return size;
		free(*data);
	}
}

/* "xattrs": {NAME: HEX, ...}, sorted by name, for the entry at PATH. */
static void put_xattrs(struct buf *b, const char *path)
{
	char *list, *name, **names;
	ssize_t size = read_xattr(path, NULL, &list);
	size_t n = 0, i;

	put(b, "  \"xattrs\": {", 13);
	if (size <= 0) {
		/* Python's manifest takes an error here for no attributes. */
		if (size == 0)
			free(list);
		put(b, "}\n", 2);
		return;
	}
	names = xmalloc(size * sizeof(*names));
	for (name = list; name < list + size; name += strlen(name) + 1)
		names[n++] = name;
	qsort(names, n, sizeof(*names), compare_names);
	for (i = 0; i < n; i++) {
		char *value;
		ssize_t k, len = read_xattr(path, names[i], &value);

		if (len < 0)
			die("%s: reading %s: %s", path, names[i], strerror(errno));
		put(b, i ? ",\n   " : "\n   ", i ? 5 : 4);
		put_bytes_string(b, names[i], strlen(names[i]));
		put(b, ": \"", 3);
		for (k = 0; k < len; k++)
			putf(b, "%02x", (unsigned char)value[k]);
		put(b, "\"", 1);
		free(value);
	}
	put(b, "\n  }\n", 5);
	free(names);
	free(list);
}

static void put_sha256(struct buf *b, const char *path)
{
	unsigned char data[1 << 16], md[EVP_MAX_MD_SIZE];
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned int md_len, i;
	ssize_t got;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		die("%s: SHA-256 is not available", path);
	while ((got = read(fd, data, sizeof(data))) > 0)
		EVP_DigestUpdate(ctx, data, got);
	if (got < 0)
		die("%s: %s", path, strerror(errno));
	close(fd);
	EVP_DigestFinal_ex(ctx, md, &md_len);
	EVP_MD_CTX_free(ctx);
	put(b, "  \"sha256\": \"", 13);
	for (i = 0; i < md_len; i++)
		putf(b, "%02x", md[i]);
	put(b, "\",\n", 3);
}

/* Python's hex() of the directory's flags, or null without any. */
static void put_flags(struct buf *b, const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int flags;

	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0) {
		put(b, "  \"flags\": null,\n", 17);
	} else {
		long v = flags & ~(FS_CASEFOLD_FL | FS_INDEX_FL);

		putf(b, "  \"flags\": \"%s0x%lx\",\n", v < 0 ? "-" : "",
		     v < 0 ? -v : v);
	}
	close(fd);
}

/* Adds the entry at PATH, REL relative to the root; returns its mode. */
static mode_t add_entry(const char *path, const char *rel)
{
	struct buf b = { 0 };
	struct entry *e;
	struct stat st;

	if (lstat(path, &st) < 0)
		die("%s: %s", path, strerror(errno));
	put(&b, "{\n", 2);
	if (S_ISDIR(st.st_mode))
		put_flags(&b, path);
	putf(&b, "  \"ino\": %llu,\n", (unsigned long long)st.st_ino);
	putf(&b, "  \"mode\": \"0o%o\",\n", st.st_mode);
	putf(&b, "  \"mtime_ns\": %lld,\n",
	     (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec);
	if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))
		putf(&b, "  \"nlink\": %llu,\n",
		     (unsigned long long)st.st_nlink);
	putf(&b, "  \"owner\": \"%u:%u\",\n", st.st_uid, st.st_gid);
	if (S_ISREG(st.st_mode))
		put_sha256(&b, path);
	if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))
		putf(&b, "  \"size\": %lld,\n", (long long)st.st_size);
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t len = readlink(path, target, sizeof(target));

		if (len < 0)
			die("%s: %s", path, strerror(errno));
		put(&b, "  \"target\": ", 12);
		put_bytes_string(&b, target, len);
		put(&b, ",\n", 2);
	}
	put_xattrs(&b, path);
	put(&b, " }", 2);

	if (n_entries == entries_size) {
		entries_size = entries_size ? 2 * entries_size : 1024;
		entries = xrealloc(entries, entries_size * sizeof(*entries));
	}
	e = &entries[n_entries++];
	e->path = strdup(rel);
	e->key = xmalloc(strlen(rel) * sizeof(*e->key));
	e->key_len = decode((const unsigned char *)rel, strlen(rel), e->key);
	e->record = b.s;
	if (!e->path)
		die("out of memory");
	return st.st_mode;
}

/* Every entry below the directory PATH (REL relative to the root). */
static void walk(const char *path, const char *rel)
{
	DIR *dir = opendir(path);
	struct dirent *d;

	if (!dir)
		die("%s: %s", path, strerror(errno));
	while ((errno = 0, d = readdir(dir))) {
		char *child, *child_rel;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (asprintf(&child, "%s/%s", path, d->d_name) < 0 ||
		    asprintf(&child_rel, "%s%s%s", rel, *rel ? "/" : "",
			     d->d_name) < 0)
			die("out of memory");
		/* Into directories, not through links to them. */
		if (S_ISDIR(add_entry(child, child_rel)))
			walk(child, child_rel);
		free(child);
		free(child_rel);
	}
	if (errno)
		die("%s: reading it: %s", path, strerror(errno));
	closedir(dir);
}

int main(int argc, char **argv)
{
	struct buf out = { 0 };
	size_t i;

	if (argc != 2) {
		fputs("usage: tree-manifest DIR\n", stderr);
		return 2;
	}
	add_entry(argv[1], ".");
	walk(argv[1], "");
	qsort(entries, n_entries, sizeof(*entries), compare_entries);
	put(&out, "{", 1);
	for (i = 0; i < n_entries; i++) {
		put(&out, i ? ",\n " : "\n ", i ? 3 : 2);
		put_bytes_string(&out, entries[i].path, strlen(entries[i].path));
		put(&out, ": ", 2);
		put(&out, entries[i].record, strlen(entries[i].record));
	}
	put(&out, "\n}\n", 3);
	if (fwrite(out.s, 1, out.len, stdout) != out.len || fflush(stdout))
		die("writing the manifest: %s", strerror(errno));
	return 0;
}
