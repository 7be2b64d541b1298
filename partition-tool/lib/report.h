/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Findings about names, collected while walking and printed at the end,
 * for people or as JSON:
 *   {"scanned": N,
 *    "collisions": [{"dir": D, "names": [N1, N2, ..]}],
 *    "invalid": [{"dir": D, "name": N}],
 *    "ignorable": [{"dir": D, "name": N}]}
 * In JSON strings, each byte that is not part of valid UTF-8 is written
 * as the four characters \xNN.  Output is sorted: directories in the
 * order they were reported, names by their bytes.
 */
#ifndef GAMEPART_REPORT_H
#define GAMEPART_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct report;
struct dir_entry;
struct json_object;

struct report *report_new(void);
void report_free(struct report *r);

/*
 * Start a directory: the findings that follow are in DIR (a path for
 * people and JSON, as bytes), which is casefolded (+F) or not.
 */
void report_dir(struct report *r, const char *dir, bool casefolded);
/* COUNT more names were examined. */
void report_scanned(struct report *r, size_t count);
/* Names of the current directory that are one name once folded. */
void report_collision(struct report *r, const struct dir_entry *const *names,
		      size_t n);
/* A name that is not valid in the encoding (STRICT: it would be refused). */
void report_invalid(struct report *r, const char *name, size_t len,
		    bool strict);
/* A name containing the ignorable code point CP (the first one). */
void report_ignorable(struct report *r, const char *name, size_t len,
		      uint32_t cp);

size_t report_collisions(const struct report *r);

/* Print; -1 (with a message) if the output failed. */
int report_print_human(struct report *r, FILE *out);
int report_print_json(struct report *r, FILE *out);
/* ROOT as gamepart prints JSON: indented, '/' unescaped. */
const char *report_json_text(struct json_object *root);
/*
 * ROOT, as report_json_text() gives it, in a new file NAME in the
 * directory DIRFD, given to UID:GID through its descriptor (unless UID is
 * (uid_t)-1) and synced; 0, or -1 with errno and no file left.
 */
int report_write_json(struct json_object *root, int dirfd, const char *name,
		      uid_t uid, gid_t gid);
/* The report as the JSON object report_print_json() prints; the caller
   owns it (json_object_put). */
struct json_object *report_json(struct report *r);

/*
 * NAME as text: bytes that are not part of valid UTF-8 become \xNN.
 * For people (HUMAN), also control characters, and '\' and '"' are
 * escaped, so that the name can be quoted.  Malloc'ed.
 */
char *report_escape(const char *name, size_t len, bool human);

/*
 * NAME with each code point beyond ASCII as <U+XXXX> (and invalid bytes
 * as \xNN), so that spellings that print alike (NFC and NFD) can be told
 * apart.  Malloc'ed.
 */
char *report_spelled(const char *name, size_t len);

#endif
