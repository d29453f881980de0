/* SPDX-License-Identifier: BSD-2-Clause */
/* A JSON reader for the log's records (docs/log-format.md): parses one
 * document into a node pool the caller lends, with decoded strings in a
 * buffer the caller lends too (never more bytes than the input), so that a
 * hostile line costs no allocation.  Host side only: the image writes
 * records and never parses one.  tools/lib/logread.c feeds it one record
 * line at a time; the tools read records through the typed decoder
 * (tools/lib/logschema.h), which walks the nodes with lr_get/lr_path.
 *
 * Numbers keep their text (LR_NUM str/len) so a record can be copied out
 * exactly, and carry the value as double and, when integral, as int64/uint64:
 * a 64-bit counter value past 2^53 does not survive a double. */
#ifndef TOOLS_LIB_JSON_PARSE_H
#define TOOLS_LIB_JSON_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define LR_DEPTH_MAX 32             /* JSON nesting; records use at most 4 */

enum lr_kind { LR_NULL, LR_BOOL, LR_NUM, LR_STR, LR_ARR, LR_OBJ };

struct lr_node {
	uint8_t kind;     /* enum lr_kind */
	bool b;           /* LR_BOOL */
	bool is_int;      /* LR_NUM: integer literal that fits int64 (neg) or uint64 */
	bool neg;         /* LR_NUM integer: negative, value in i */
	const char *key;  /* member name inside an object (decoded), else NULL */
	const char *str;  /* LR_STR: decoded, NUL-terminated (may hold NULs: see len);
			   * LR_NUM: the number as written, in the parsed text (not terminated) */
	size_t len;       /* LR_STR, LR_NUM: bytes of str; LR_ARR/LR_OBJ: number of members */
	int64_t i;        /* LR_NUM integer */
	uint64_t u;       /* LR_NUM non-negative integer */
	double d;         /* LR_NUM: every number, integers too */
	struct lr_node *child, *next;
};

struct lr_doc {
	struct lr_node *nodes;
	size_t cap, used;
	char *strs;       /* decoded strings; needs at most the input length */
	size_t strcap, strused;
	const char *err;  /* why the last parse failed */
	size_t err_at;    /* byte offset of the failure */
};

void lr_doc_init(struct lr_doc *d, struct lr_node *nodes, size_t ncap, char *strs, size_t scap);
/* Parses exactly one JSON value filling s[0..n) (surrounding blanks allowed).
 * Returns the root, or NULL with d->err set.  Strings decode \u00XX to the
 * byte XX (the writer's lossless escape of firmware bytes), others to UTF-8. */
const struct lr_node *lr_parse(struct lr_doc *d, const char *s, size_t n);

const struct lr_node *lr_get(const struct lr_node *obj, const char *key); /* NULL if absent */
const struct lr_node *lr_path(const struct lr_node *obj, const char *dotted); /* "cost_ns.p50" */
const struct lr_node *lr_at(const struct lr_node *arr, size_t i);
bool lr_num(const struct lr_node *n, double *out);    /* false unless a number */
bool lr_uint(const struct lr_node *n, uint64_t *out); /* false unless a non-negative integer */
const char *lr_str(const struct lr_node *n);          /* NULL unless a string */
bool lr_true(const struct lr_node *n);

#endif
