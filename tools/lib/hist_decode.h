/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading a histogram of the log (probe/hist_codec.h has the two forms), in
 * either schema's form, from the parsed member (tools/lib/json_parse.h) or
 * from the encoded string.  Host side only: the image writes histograms and
 * never reads one back. */
#ifndef TOOLS_LIB_HIST_DECODE_H
#define TOOLS_LIB_HIST_DECODE_H

#include "probe/hist_codec.h"
#include "tools/lib/json_parse.h"

enum hist_form {
	HIST_FORM_NONE,    /* absent, null, or not a histogram at all */
	HIST_FORM_OMITTED, /* the string "omitted: …": the writer left it out */
	HIST_FORM_PAIRS,   /* schema 1: [[value, count], …] */
	HIST_FORM_COMPACT, /* schema 2: the encoded string */
};

struct hist_dec {
	int form;               /* enum hist_form */
	const struct lr_node *pair; /* PAIRS: the next [value, count] */
	const char *s;          /* COMPACT: the string, and where the next pair starts */
	size_t len, at;
	uint64_t next;          /* COMPACT: index of the bin after the last one */
	uint64_t last;          /* the last value given, for the order check */
	bool any;
	const char *err;        /* why the histogram is malformed; NULL while it is not */
};

/* Returns the form.  hist is the member's node (lr_get(record, "hist")),
 * NULL allowed. */
int hist_dec_init(struct hist_dec *d, const struct lr_node *hist);
/* The same for an encoded string that is not in a parsed document. */
void hist_dec_init_str(struct hist_dec *d, const char *s, size_t len);
/* The next bin, in increasing value order: 1 with *value and *count (>= 1)
 * set, 0 at the end, -1 when the histogram is malformed (d->err says how;
 * every later call returns -1 too).  NONE and OMITTED give 0 at once. */
int hist_dec_next(struct hist_dec *d, uint64_t *value, uint64_t *count);

#endif
