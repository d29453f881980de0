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
 * The encoder writes into the JSON writer (lib/json.h), in the image and
 * in the tools; the host's decoder is tools/lib/hist_decode.h. */
#ifndef PROBE_HIST_CODEC_H
#define PROBE_HIST_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "probe/hist.h"
#include "lib/json.h"

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

#endif
