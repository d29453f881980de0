/* SPDX-License-Identifier: BSD-2-Clause */
/* The log's histogram encoding (hist_codec.h; grammar in docs/log-format.md).
 *
 * A number is written in 5-bit groups, least significant first; each group g
 * is the base64url character of value g, or g + 32 when more groups follow
 * (the digit scheme of source-map VLQs, unsigned).  So 0..31 take one
 * character, up to 1023 two, up to 32767 three, and 2^64 - 1 thirteen.  A
 * bin is two numbers: the empty bins skipped since the previous one, then
 * its count. */
#include "probe/hist_codec.h"
#include "lib/util.h"

static const char b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static size_t put_number(char *out, uint64_t v)
{
	size_t n = 0;

	while (v >= 32) {
		out[n++] = b64url[32 | (v & 31)];
		v >>= 5;
	}
	out[n++] = b64url[v];
	return n;
}

/* ---- writing ------------------------------------------------------------- */

static void flush(struct hist_enc *e)
{
	json_str_piece(e->j, e->buf, e->n);
	e->n = 0;
}

void hist_enc_begin(struct hist_enc *e, struct json *j, const char *key)
{
	e->j = j;
	e->next = 0;
	e->n = 0;
	json_str_open(j, key);
}

void hist_enc_add(struct hist_enc *e, uint64_t value, uint64_t count)
{
	size_t bin;

	if (!count)
		return;
	bin = hist_bin_of(value);
	if (hist_bin_low(bin) != value || bin < e->next) {
		e->j->overflow = true; /* never a histogram that says something else */
		return;
	}
	if (e->n + 2 * HIST_CODEC_MAX_DIGITS > sizeof e->buf)
		flush(e);
	e->n += put_number(e->buf + e->n, bin - e->next);
	e->n += put_number(e->buf + e->n, count);
	e->next = bin + 1;
}

void hist_enc_end(struct hist_enc *e)
{
	flush(e);
	json_str_close(e->j);
}

void hist_encode(struct json *j, const char *key, const struct hist *h)
{
	struct hist_enc e;
	uint64_t value, count;
	size_t cursor = 0;

	hist_enc_begin(&e, j, key);
	while (hist_next(h, &cursor, &value, &count) && !j->overflow)
		hist_enc_add(&e, value, count);
	hist_enc_end(&e);
}
