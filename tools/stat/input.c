/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe stat` input (tools/stat/input.h): ministat's line rules, made
 * fast for big inputs of short lines, such as tests/bench/ministat.sh's two
 * files of 1,000,000 lines like "1050.4" (it prints the times):
 *  - a line of at most 8 bytes seen before is counted by its bytes, from a
 *    cache of up to 4,096 such lines (its value is a function of its bytes
 *    and the options), without being parsed again;
 *  - a plain decimal ("1050.4\n") is converted 8 bytes at a time, or digit
 *    by digit when longer, exactly (see plain_line);
 *  - anything else takes the general rules, with strtod for unusual forms.
 * Files are streamed through a 256 KB buffer (tools/stat/input_fd.c).
 * tests/unit/test_stat_input.c checks the number parser against strtod and
 * tests/unit/test_stat_lines.c the reader against a strtok + strtod replica
 * of ministat's. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tools/stat/input.h"

/* Powers of ten that are exact doubles (10^22 < 2^53 * 2^22). */
static const double pow10_exact[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* Plain decimals with at most 19 significant digits whose mantissa fits 2^53
 * and whose scale is within 10^±22 are exact with one IEEE multiply or
 * divide (both operands exact), so they equal strtod's correctly rounded
 * result; anything else (hex, inf, nan, long mantissas, leading blanks) goes
 * to strtod. */
int stat_input_number(char *s, char *e, double *out)
{
	const char *p = s;
	unsigned long long m = 0;
	int neg = 0, digits = 0, scale = 0, any = 0;
	char save, *end;

	if (p < e && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < e && (unsigned)(*p - '0') < 10; p++, any = 1) {
		if (m || *p != '0')
			digits++;
		m = m * 10 + (unsigned)(*p - '0');
		if (digits > 19)
			goto slow;
	}
	if (p < e && *p == '.') {
		for (p++; p < e && (unsigned)(*p - '0') < 10; p++, any = 1) {
			if (m || *p != '0')
				digits++;
			m = m * 10 + (unsigned)(*p - '0');
			scale--;
			if (digits > 19)
				goto slow;
		}
	}
	if (p < e && (*p == 'e' || *p == 'E')) {
		int es = 0, eneg = 0, ed = 0;
		p++;
		if (p < e && (*p == '-' || *p == '+'))
			eneg = *p++ == '-';
		for (; p < e && (unsigned)(*p - '0') < 10 && es < 10000; p++, ed++)
			es = es * 10 + (*p - '0');
		if (!ed)
			goto slow;
		scale += eneg ? -es : es;
	}
	if (p != e || !any || m > (1ull << 53) || scale < -22 || scale > 22)
		goto slow;
	*out = scale >= 0 ? (double)m * pow10_exact[scale] : (double)m / pow10_exact[-scale];
	if (neg)
		*out = -*out;
	return 1;
slow:
	save = *e;
	*e = '\0';
	*out = strtod(s, &end);
	*e = save;
	return end == e && e != s;
}

/* Non-zero in each byte of x (8 characters, the first in the low byte)
 * that is not a digit: a digit's high nibble is 3 and stays 3 when 6 is
 * added (0x3a..0x3f become 0x40..).  A carry out of a byte only starts at
 * 0xfa, a non-digit, so it cannot hide the first non-digit. */
static inline uint64_t non_digits(uint64_t x)
{
	uint64_t t = (x & 0xf0f0f0f0f0f0f0f0ull) |
		     (((x + 0x0606060606060606ull) & 0xf0f0f0f0f0f0f0f0ull) >> 4);

	return t ^ 0x3333333333333333ull;
}

/* The value of the first k (1..8) digits of x: shifted to the top they are
 * an 8-digit number with leading zeros, which three multiplies combine
 * (pairs, then quads, then all eight). */
static inline uint64_t digits_value(uint64_t x, int k)
{
	x = (x - 0x3030303030303030ull) << (8 * (8 - k));
	x = (x * 10 + (x >> 8)) & 0x00ff00ff00ff00ffull;
	x = (x * 100 + (x >> 16)) & 0x0000ffff0000ffffull;
	return (x * 10000 + (x >> 32)) & 0xffffffffull;
}

/* The short line of plain_line, when the number and its '\n' are within the
 * 8 bytes at p: "1050\n", "1050.4\n", "-51092.4\n".  The digits either side
 * of the point are joined in one word and converted at once (~35
 * instructions, against ~80 a digit at a time).  Returns the '\n' or NULL. */
static inline char *short_line(char *p, double *out)
{
	uint64_t x, t, lo, hi;
	int whole, frac;

	memcpy(&x, p, 8);
	if (!(t = non_digits(x)))
		return NULL;
	whole = __builtin_ctzll(t) / 8;
	if (p[whole] == '\n' && whole) {
		*out = (double)(int64_t)digits_value(x, whole);
		return p + whole;
	}
	if (p[whole] != '.' || whole > 6 || !(t >>= 8 * (whole + 1)))
		return NULL;
	frac = __builtin_ctzll(t) / 8;
	if (p[whole + 1 + frac] != '\n' || whole + frac == 0)
		return NULL;
	lo = x & ((1ull << (8 * whole)) - 1);
	hi = x >> (8 * (whole + 1));
	*out = (double)(int64_t)digits_value(lo | hi << (8 * whole), whole + frac);
	if (frac)
		*out /= pow10_exact[frac];
	return p + whole + 1 + frac;
}

/* A line that is exactly [-]digits[.digits] with 1 to 15 digits, then '\n':
 * the mantissa is below 10^15 < 2^53 and the scale at most 10^15, both exact,
 * so one division rounds it as strtod does.  Returns the '\n', or NULL for
 * any other line (which then takes the general rules).  end: the first byte
 * past the data, readable. */
static inline char *plain_line(char *p, const char *end, double *out)
{
	uint64_t m = 0;
	unsigned d;
	int neg = *p == '-', whole, frac = 0;
	char *s;
	double v;

	p += neg;
	if (end - p >= 8 && (s = short_line(p, &v))) {
		*out = neg ? -v : v;
		return s;
	}
	for (s = p; (d = (unsigned char)*p - '0') < 10; p++)
		m = m * 10 + d;
	whole = (int)(p - s);
	if (*p == '.') {
		for (s = ++p; (d = (unsigned char)*p - '0') < 10; p++)
			m = m * 10 + d;
		frac = (int)(p - s);
	}
	if (*p != '\n' || whole + frac == 0 || whole + frac > 15)
		return NULL;
	v = (double)(int64_t)m;
	if (frac)
		v /= pow10_exact[frac];
	*out = neg ? -v : v;
	return p;
}

static int is_space(unsigned char c) /* isspace() in the C locale */
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

void stat_input_delims(unsigned char set[256], const char *delim)
{
	for (; *delim; delim++)
		set[(unsigned char)*delim] = 1;
}

void stat_input_init(struct stat_input *in, const unsigned char delim[256], int column,
		     stat_input_sink sink, void *ctx)
{
	const char *plain = "0123456789.-";

	in->delim = delim;
	in->column = column;
	in->line = 0;
	in->nvalues = 0;
	in->sum = 0;
	in->seen = NULL;
	in->nseen = in->hits = in->misses = 0;
	in->seen_off = 0;
	in->sink = sink;
	in->ctx = ctx;
	in->nbatch = 0;
	/* The short path reads a line as one token in column 1: only right when
	 * no character of a plain number splits tokens. */
	in->fast = column == 1;
	for (; *plain; plain++)
		if (delim[(unsigned char)*plain])
			in->fast = 0;
}

void stat_input_use_cache(struct stat_input *in)
{
	if (!in->seen)
		in->seen = calloc(STAT_INPUT_CACHE_SLOTS, sizeof *in->seen);
}

static int take(struct stat_input *in, double v)
{
	in->sum += v;
	in->nvalues++;
	in->last = v;
	in->batch[in->nbatch++] = v;
	if (in->nbatch < STAT_INPUT_BATCH)
		return STAT_INPUT_OK;
	in->nbatch = 0;
	return in->sink(in->ctx, in->batch, NULL, STAT_INPUT_BATCH) ? STAT_INPUT_OK
								     : STAT_INPUT_NOMEM;
}

static int flush_cache(struct stat_input *in)
{
	double v[256];
	uint64_t count[256];
	size_t i, n = 0;
	int ok = 1;

	for (i = 0; i < STAT_INPUT_CACHE_SLOTS && ok; i++) {
		if (!in->seen[i].text || !in->seen[i].count)
			continue;
		v[n] = in->seen[i].v;
		count[n++] = in->seen[i].count;
		if (n == 256 || i == STAT_INPUT_CACHE_SLOTS - 1) {
			ok = in->sink(in->ctx, v, count, n);
			n = 0;
		}
	}
	if (ok && n)
		ok = in->sink(in->ctx, v, count, n);
	free(in->seen);
	in->seen = NULL;
	return ok;
}

int stat_input_finish(struct stat_input *in)
{
	size_t n = in->nbatch;
	int ok = 1;

	in->nbatch = 0;
	if (n)
		ok = in->sink(in->ctx, in->batch, NULL, n);
	if (in->seen)
		ok = flush_cache(in) && ok;
	return ok ? STAT_INPUT_OK : STAT_INPUT_NOMEM;
}

/* The cache's slot for the line at p (8 bytes readable), or NULL when the
 * line is longer than 8 bytes with its '\n' (not cached).  *text is the
 * line's key and *len its length; the slot holds the key when the line was
 * seen before, else it is the free slot for it.  The first '\n' is the
 * lowest zero byte of x ^ 0x0a.. (the lowest flag of the classic test is
 * exact), and z ^ (z - 1) masks the bytes up to it. */
static inline struct stat_line_seen *seen_slot(struct stat_line_seen *seen, const char *p,
					       uint64_t *text, int *len)
{
	uint64_t x, z, key;
	size_t i;

	memcpy(&x, p, 8);
	z = x ^ 0x0a0a0a0a0a0a0a0aull;
	z = (z - 0x0101010101010101ull) & ~z & 0x8080808080808080ull;
	if (!z)
		return NULL;
	*len = __builtin_ctzll(z) / 8 + 1;
	*text = key = x & (z ^ (z - 1));
	i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 51); /* 13 bits: 8192 slots */
	while (seen[i].text != key && seen[i].text)
		i = (i + 1) & (STAT_INPUT_CACHE_SLOTS - 1);
	return &seen[i];
}

/* After a line of [p, p+len) gave value v by the rules: remember it.  Zeros
 * are not kept (their signs' order must reach the sink), nor more lines than
 * half the slots; a cache that misses more than it hits after 65,536 lines
 * is no help and is no longer asked. */
static void remember(struct stat_input *in, struct stat_line_seen *slot, uint64_t text,
		     double v)
{
	if (++in->misses > 65536 && in->misses > in->hits)
		in->seen_off = 1;
	if (v == 0 || in->nseen >= STAT_INPUT_CACHE_SLOTS / 2)
		return;
	slot->text = text;
	slot->v = v;
	in->nseen++;
}

/* ministat's line rules, for the line [p, e): it ends at a NUL (as strlen
 * sees it); trailing white space is dropped; the line is split on any of the
 * delimiter characters (runs count as one, as with strtok); a token starting
 * with '#' at or before the wanted column makes the line a comment; a line
 * without that column is skipped; the column must be a number, all of it, or
 * the input is rejected naming the line. */
static int general_line(struct stat_input *in, char *p, char *e)
{
	const unsigned char *delim = in->delim;
	char *z, *t = NULL;
	int col = 0;
	double v;

	if ((z = memchr(p, '\0', (size_t)(e - p))))
		e = z;
	while (e > p && is_space((unsigned char)e[-1]))
		e--;
	while (p < e) {
		while (p < e && delim[(unsigned char)*p])
			p++;
		if (p == e || *p == '#')
			break;
		t = p;
		while (p < e && !delim[(unsigned char)*p])
			p++;
		if (++col == in->column)
			break;
	}
	if (col != in->column || !t || *t == '#')
		return STAT_INPUT_OK;
	if (!stat_input_number(t, p, &v))
		return STAT_INPUT_INVALID;
	return take(in, v);
}

/* The line [p, e) by the rules: the short path or the general one. */
static inline int one_line(struct stat_input *in, char *p, char *e, const char *end)
{
	double v;

	in->line++;
	if (in->fast && plain_line(p, end, &v) == e)
		return take(in, v);
	return general_line(in, p, e);
}

/* Lines the cache knows, from p on, as long as it knows them: their values
 * are added to *sum, *hits counts them; returns where it stopped.  When it
 * stops at a short line it does not know, *slot and *text are for it. */
static inline char *seen_lines(struct stat_line_seen *seen, char *p, const char *end,
			       double *sum, size_t *hits, struct stat_line_seen **slot,
			       uint64_t *text, int *len)
{
	struct stat_line_seen *at = NULL;
	double s = *sum;
	size_t h = *hits;

	for (;;) {
		if (end - p < 8 || !(at = seen_slot(seen, p, text, len)) || !at->text)
			break;
		s += at->v;
		at->count++;
		h++;
		p += *len;
	}
	*slot = end - p < 8 ? NULL : at;
	*sum = s;
	*hits = h;
	return p;
}

int stat_input_feed(struct stat_input *in, char *buf, size_t len, int at_eof, size_t *used)
{
	char *p = buf, *end = buf + len, save = *end, *e;
	struct stat_line_seen *slot, *seen = in->seen_off ? NULL : in->seen;
	int rc = STAT_INPUT_OK, n = 0;
	uint64_t text = 0;
	size_t hits = 0, before;
	double v;

	*end = '\n'; /* stops the short path's scans at the end of the bytes */
	while (p < end && rc == STAT_INPUT_OK) {
		if (seen) {
			p = seen_lines(seen, p, end, &in->sum, &hits, &slot, &text, &n);
			in->line += hits;
			in->nvalues += hits;
			in->hits += hits;
			hits = 0;
			if (slot) { /* a short line not seen yet */
				before = in->nvalues;
				rc = one_line(in, p, p + n - 1, end);
				if (rc == STAT_INPUT_OK && in->nvalues > before)
					remember(in, slot, text, in->last);
				seen = in->seen_off ? NULL : seen;
				p += n;
				continue;
			}
			if (p >= end)
				break;
		}
		if (in->fast && (e = plain_line(p, end, &v)) && (e < end || at_eof)) {
			in->line++;
			rc = take(in, v);
			p = e + 1;
			continue;
		}
		e = memchr(p, '\n', (size_t)(end - p));
		if (!e) {
			if (!at_eof)
				break;
			e = end;
		}
		in->line++;
		rc = general_line(in, p, e);
		p = e + 1;
	}
	*end = save;
	*used = (size_t)((p < end ? p : end) - buf);
	return rc;
}

static int push_values(void *ctx, const double *v, const uint64_t *count, size_t n)
{
	struct stat_values *ds = ctx;

	for (size_t i = 0; count && i < n; i++)
		for (uint64_t c = 0; c < count[i]; c++)
			if (!push_values(ctx, &v[i], NULL, 1))
				return 0;
	if (count)
		return 1;

	if (ds->n + n > ds->cap) {
		size_t cap = ds->cap ? ds->cap : 4096;
		double *nv;

		while (cap < ds->n + n)
			cap *= 2;
		if (!(nv = realloc(ds->v, cap * sizeof *nv)))
			return 0;
		ds->v = nv;
		ds->cap = cap;
	}
	memcpy(ds->v + ds->n, v, n * sizeof *v);
	ds->n += n;
	return 1;
}

int stat_input_parse(char *buf, size_t len, const unsigned char delim[256], int column,
		     struct stat_values *out, size_t *bad_line)
{
	struct stat_input in;
	size_t used;
	int rc;

	stat_input_init(&in, delim, column, push_values, out);
	rc = stat_input_feed(&in, buf, len, 1, &used);
	if (rc == STAT_INPUT_OK)
		rc = stat_input_finish(&in);
	if (rc == STAT_INPUT_INVALID)
		*bad_line = in.line;
	return rc;
}
