/* SPDX-License-Identifier: BSD-2-Clause */
/* A log written into memory and read back, record by record, through the
 * probe's own JSON reader (tools/lib/json_parse.h): for the tests of the record
 * writers. */
#ifndef TESTS_LOG_CAPTURE_H
#define TESTS_LOG_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/crc32.h"
#include "tools/lib/json_parse.h"
#include "probe/log.h"

#define CAPTURE_NODES 200000

struct capture {
	char *buf;
	size_t len, cap;
	struct log log;
	struct lr_doc doc;
	struct lr_node *nodes;
	char *strs;
};

static struct capture cap;

static inline void capture_sink(void *ctx, const char *s, size_t n)
{
	struct capture *c = ctx;
	if (c->len + n > c->cap) {
		c->cap = (c->len + n) * 2;
		c->buf = realloc(c->buf, c->cap);
	}
	memcpy(c->buf + c->len, s, n);
	c->len += n;
}

static inline void capture_reset(void)
{
	cap.len = 0;
	if (!cap.nodes) {
		cap.nodes = malloc(CAPTURE_NODES * sizeof *cap.nodes);
		cap.strs = malloc(LOG_RECORD_MAX);
	}
	log_init(&cap.log, capture_sink, &cap);
}

/* Line k (from 0): its crc checked and its JSON parsed; NULL if bad, or if
 * its type is not `type`.  *bytes gets the line's length with its "\n". */
static inline const struct lr_node *capture_line(size_t k, const char *type, size_t *bytes)
{
	const char *s = cap.buf, *e;
	const struct lr_node *root;
	unsigned crc;
	size_t n;

	for (size_t i = 0; i < k && s; i++) {
		s = memchr(s, '\n', cap.len - (size_t)(s - cap.buf));
		s = s ? s + 1 : NULL;
	}
	if (!s || !(e = memchr(s, '\n', cap.len - (size_t)(s - cap.buf))))
		return NULL;
	n = (size_t)(e - s);
	if (bytes)
		*bytes = n + 1;
	if (n < 18 || memcmp(e - 18, ",\"crc\":\"", 8) || sscanf(e - 10, "%8x", &crc) != 1 ||
	    crc != crc32_update(0, s, n - 18))
		return NULL;
	lr_doc_init(&cap.doc, cap.nodes, CAPTURE_NODES, cap.strs, LOG_RECORD_MAX);
	root = lr_parse(&cap.doc, s, n);
	if (!root || !lr_str(lr_get(root, "type")) || strcmp(lr_str(lr_get(root, "type")), type))
		return NULL;
	return root;
}

static inline size_t capture_lines(void)
{
	size_t n = 0;
	for (size_t i = 0; i < cap.len; i++)
		n += cap.buf[i] == '\n';
	return n;
}

/* The members of a JSON object, in order, are exactly these keys. */
static inline bool capture_keys_are(const struct lr_node *obj, const char *const *keys, size_t n)
{
	const struct lr_node *m;
	size_t i = 0;

	if (!obj || obj->kind != LR_OBJ)
		return false;
	for (m = obj->child; m; m = m->next, i++)
		if (i >= n || !m->key || strcmp(m->key, keys[i]))
			return false;
	return i == n;
}

static inline bool capture_u64(const struct lr_node *obj, const char *key, uint64_t want)
{
	uint64_t v;
	return lr_uint(lr_get(obj, key), &v) && v == want;
}

static inline bool capture_is_null(const struct lr_node *n) { return n && n->kind == LR_NULL; }

#endif
