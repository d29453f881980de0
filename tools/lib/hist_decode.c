/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading the log's histograms, either schema's form (hist_decode.h).  Host
 * side only: the image writes histograms and never reads one back. */
#include "tools/lib/hist_decode.h"
#include "lib/util.h"

static int digit_of(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '-')
		return 62;
	if (c == '_')
		return 63;
	return -1;
}

/* ---- reading ------------------------------------------------------------- */

static const char omitted[] = "omitted:"; /* ':' is not a digit: never a histogram */

int hist_dec_init(struct hist_dec *d, const struct lr_node *hist)
{
	tp_memset(d, 0, sizeof *d);
	d->form = HIST_FORM_NONE;
	if (hist && hist->kind == LR_ARR) {
		d->form = HIST_FORM_PAIRS;
		d->pair = hist->child;
	} else if (hist && hist->kind == LR_STR) {
		hist_dec_init_str(d, hist->str, hist->len);
	}
	return d->form;
}

void hist_dec_init_str(struct hist_dec *d, const char *s, size_t len)
{
	tp_memset(d, 0, sizeof *d);
	d->s = s;
	d->len = len;
	if (len >= sizeof omitted - 1 && !tp_memcmp(s, omitted, sizeof omitted - 1))
		d->form = HIST_FORM_OMITTED;
	else
		d->form = HIST_FORM_COMPACT;
}

static int fail(struct hist_dec *d, const char *why)
{
	d->err = why;
	return -1;
}

/* One number at d->at; false with d->err set when there is none. */
static bool get_number(struct hist_dec *d, uint64_t *out)
{
	uint64_t v = 0;

	for (unsigned shift = 0; d->at < d->len; shift += 5) {
		int c = digit_of(d->s[d->at++]);
		uint64_t g;
		if (c < 0) {
			fail(d, "a character that is not a base64url digit");
			return false;
		}
		g = (uint64_t)(c & 31);
		if (shift > 60 || (shift == 60 && g > 15)) {
			fail(d, "a number past 64 bits");
			return false;
		}
		v |= g << shift;
		if (c < 32) {
			if (g == 0 && shift) {
				fail(d, "a number not in its shortest form");
				return false;
			}
			*out = v;
			return true;
		}
	}
	fail(d, "the string ends inside a number");
	return false;
}

static int next_pair(struct hist_dec *d, uint64_t *value, uint64_t *count)
{
	const struct lr_node *p = d->pair;

	if (!p)
		return 0;
	d->pair = p->next;
	if (p->kind != LR_ARR || p->len != 2 || !lr_uint(lr_at(p, 0), value) || !lr_uint(lr_at(p, 1), count))
		return fail(d, "a bin that is not [value, count] in whole numbers");
	if (*count == 0)
		return fail(d, "a bin with a count of 0");
	if (d->any && *value <= d->last)
		return fail(d, "values not in increasing order");
	return 1;
}

static int next_compact(struct hist_dec *d, uint64_t *value, uint64_t *count)
{
	uint64_t skip;

	if (d->at == d->len)
		return 0;
	if (!get_number(d, &skip))
		return -1;
	if (d->at == d->len)
		return fail(d, "a skip without its count");
	if (!get_number(d, count))
		return -1;
	if (*count == 0)
		return fail(d, "a bin with a count of 0");
	if (skip >= HIST_CODEC_BINS || d->next + skip >= HIST_CODEC_BINS)
		return fail(d, "a bin past the last bin");
	d->next += skip;
	*value = hist_bin_low((size_t)d->next);
	d->next++;
	return 1;
}

int hist_dec_next(struct hist_dec *d, uint64_t *value, uint64_t *count)
{
	int r;

	if (d->err)
		return -1;
	if (d->form == HIST_FORM_PAIRS)
		r = next_pair(d, value, count);
	else if (d->form == HIST_FORM_COMPACT)
		r = next_compact(d, value, count);
	else
		r = 0;
	if (r == 1) {
		d->last = *value;
		d->any = true;
	}
	return r;
}
