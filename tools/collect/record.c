/* SPDX-License-Identifier: BSD-2-Clause */
/* A record line checked before it is kept (record.h). */
#include "tools/collect/record.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/xalloc.h"
#include "tools/lib/logread.h"

bool record_check(struct record_check *rc, char *s, size_t *n, struct record_info *info, char *why, size_t cap)
{
	struct lr_doc doc;
	const struct lr_node *root, *type, *seq;
	uint32_t stored = 0, computed = 0;
	int crc;

	*n = lr_clean_line(s, *n);
	if (*n > LR_LINE_MAX) {
		snprintf(why, cap, "a line of %zu bytes: no record is longer than %u", *n, LR_LINE_MAX);
		return false;
	}
	if (!*n || s[0] != '{') {
		snprintf(why, cap, "not a record (a record is one JSON object)");
		return false;
	}
	crc = lr_record_crc(s, *n, &stored, &computed);
	if (crc == LR_CRC_MISSING) {
		snprintf(why, cap, "record without a valid crc member (cut or damaged)");
		return false;
	}
	if (crc == LR_CRC_BAD) {
		snprintf(why, cap, "bad record crc (stored %08x, computed %08x)", stored, computed);
		return false;
	}
	/* A node per two bytes, as logset.c gives a record it keeps, up to its
	 * reader's pool. */
	if (*n > rc->cap) {
		rc->nnodes = *n / 2 + 8 < RECORD_NODES_MAX ? *n / 2 + 8 : RECORD_NODES_MAX;
		rc->nodes = xrealloc(rc->nodes, rc->nnodes * sizeof *rc->nodes);
		rc->strs = xrealloc(rc->strs, *n + 16);
		rc->cap = *n;
	}
	lr_doc_init(&doc, rc->nodes, rc->nnodes, rc->strs, rc->cap + 16);
	root = lr_parse(&doc, s, *n);
	type = root && root->kind == LR_OBJ ? root->child : NULL;
	seq = type ? type->next : NULL;
	if (!root) {
		snprintf(why, cap, "crc good but not JSON (%s at byte %zu)", doc.err, doc.err_at);
		return false;
	}
	if (!type || strcmp(type->key, "type") || !lr_str(type) || !seq || strcmp(seq->key, "seq") ||
	    !lr_uint(seq, &info->seq)) {
		snprintf(why, cap, "crc good but \"type\", \"seq\" not first");
		return false;
	}
	info->is_end = !strcmp(lr_str(type), "end");
	return true;
}

void record_check_free(struct record_check *rc)
{
	free(rc->nodes);
	free(rc->strs);
	memset(rc, 0, sizeof *rc);
}

bool record_name_ok(const char *s, size_t max)
{
	size_t k;

	if (!s || !s[0] || s[0] == '.')
		return false;
	for (k = 0; s[k]; k++) {
		char c = s[k];
		if (k >= max || !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
				  c == '.' || c == '_' || c == '-'))
			return false;
	}
	return true;
}
