/* SPDX-License-Identifier: BSD-2-Clause */
/* One record line as a sender hands it over, checked by the log reader's
 * own rules (tools/lib/logread.h): its `crc` member, then a JSON object
 * whose first members are "type" and "seq".  Each receiving thread owns one
 * struct record_check: the parse needs a node pool, grown to the largest
 * record seen, never past the reader's bounds (LR_LINE_MAX bytes,
 * RECORD_NODES_MAX nodes), whatever --max-body allows. */
#ifndef TOOLS_COLLECT_RECORD_H
#define TOOLS_COLLECT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tools/lib/json_parse.h"

/* The node pool of the log reader's own (tools/lib/logset.c): a record
 * that needs more is one no reader takes, so the check needs no more. */
#define RECORD_NODES_MAX (128u * 1024u)

struct record_check {
	struct lr_node *nodes;
	char *strs;
	size_t cap;    /* bytes of record the pool is sized for (at most LR_LINE_MAX) */
	size_t nnodes; /* nodes in it (at most RECORD_NODES_MAX) */
};

struct record_info {
	uint64_t seq;
	bool is_end;
};

/* s[0..n) without its line end; CR and ANSI sequences are removed first
 * (in place: *n is the new length).  true with *info set, or false with the
 * reason in why. */
bool record_check(struct record_check *rc, char *s, size_t *n, struct record_info *info, char *why, size_t cap);
void record_check_free(struct record_check *rc);

/* A machine or boot identity that is safe as a file name: 1 to max
 * characters of [A-Za-z0-9._-], not starting with a dot. */
bool record_name_ok(const char *s, size_t max);

#endif
