/* SPDX-License-Identifier: BSD-2-Clause */
/* A histogram as the log writes it (docs/log-format.md, "Histograms").
 *
 * Schema 1 wrote `hist` as [[value, count], …]: about 11 bytes a bin, a
 * third of a default run's 19–29 KB of records.  Schema 2 writes it as a string
 * of (skip, count) pairs over the bin index of probe/hist.h, each number in
 * 5-bit groups, least significant first, one base64url character a group
 * (32 added while more groups follow): 2–4 bytes a bin.  Counting bins
 * rather than values keeps the log buckets above HIST_EXACT as small as the
 * exact bins: neighbouring buckets are one index apart, not 128 cycles or
 * more.
 *
 * The encoder writes into the JSON writer (probe/json.h); the decoder walks
 * the parsed member (probe/json_parse.h) in either schema's form.  Both are
 * freestanding: compiled into the image and into the tools. */
#ifndef PROBE_HIST_CODEC_H
#define PROBE_HIST_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "probe/hist.h"
#include "probe/json.h"
#include "probe/json_parse.h"

#define HIST_CODEC_MAX_DIGITS 13 /* ceil(64 / 5): the most one 64-bit number takes */
#define HIST_CODEC_BINS (HIST_EXACT + HIST_LOG_BUCKETS) /* 22784 bin indices */

/* ---- writing ------------------------------------------------------------- */

struct hist_enc {
	struct json *j;
	uint64_t next;  /* index of the bin after the last one written */
	char buf[64];   /* characters not yet handed to the writer */
	size_t n;
};

void hist_enc_begin(struct hist_enc *e, struct json *j, const char *key);
/* One bin: value must be a bin's lower bound (hist_bin_low) above the last
 * one added; a count of 0 adds nothing.  A value that breaks this cannot be
 * written truthfully, so the writer is marked overflowed: the log writer
 * then replaces the record with an `overflow` note instead of emitting it. */
void hist_enc_add(struct hist_enc *e, uint64_t value, uint64_t count);
void hist_enc_end(struct hist_enc *e);

/* The whole histogram, every non-empty bin. */
void hist_encode(struct json *j, const char *key, const struct hist *h);

/* ---- reading ------------------------------------------------------------- */

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
