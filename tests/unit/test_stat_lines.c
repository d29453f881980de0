/* SPDX-License-Identifier: BSD-2-Clause */
/* tools/stat/input.c and input_fd.c, the reader: random inputs (plain
 * numbers of every length, which take the 8-byte short path or the digit
 * loop, signs and zeros, exponents, blanks, CRLF, comments, NULs, several
 * columns and delimiter sets) give what a replica of ministat's reader
 * (fgets-sized lines, strlen, isspace, strtok, strtod) gives: the same
 * values in the same order without the line cache (non-ASCII bytes included), the same multiset, sum
 * (bits) and zeros' signs in order with it, fed in random chunks as a file
 * is read, and through stat_input_fd from a file and a pipe; the same bad
 * line when one is not a number. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools/stat/input.h"
#include "tests/unit/check.h"
#include "tests/unit/xorshift.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t next(void) /* xorshift64*: reproducible runs */
{
	return xorshift64_star(&rng);
}

struct got {
	double *v; /* in order, then the counted repeats */
	size_t n, cap, in_order;
	int counted_seen;
};

static void put(struct got *g, double v)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 1024;
		g->v = realloc(g->v, g->cap * sizeof *g->v);
	}
	g->v[g->n++] = v;
}

/* Values once each must come before any repeats and stay in order; repeats
 * are kept at the end (their order does not matter). */
static int sink(void *ctx, const double *v, const uint64_t *count, size_t n)
{
	struct got *g = ctx;

	for (size_t i = 0; i < n; i++) {
		if (!count) {
			if (g->counted_seen)
				return 0; /* an order the reader does not promise */
			put(g, v[i]);
			g->in_order++;
		} else {
			g->counted_seen = 1;
			for (uint64_t c = 0; c < count[i]; c++)
				put(g, v[i]);
		}
	}
	return 1;
}

/* ministat's reader, as tools/stat/input.c documents its rules. */
static int reference(const char *data, size_t len, const char *delim, int column, struct got *g,
		     double *sum, size_t *bad)
{
	size_t line = 0, i = 0;
	char *buf = malloc(len + 1);

	*sum = 0;
	while (i < len) {
		size_t j = i, k;
		char *t, *endp;
		int col;

		while (j < len && data[j] != '\n')
			j++;
		memcpy(buf, data + i, j - i);
		buf[j - i] = '\0';
		line++;
		k = strlen(buf);
		while (k > 0 && isspace((unsigned char)buf[k - 1]))
			buf[--k] = '\0';
		for (col = 1, t = strtok(buf, delim); t && *t != '#'; col++, t = strtok(NULL, delim))
			if (col == column)
				break;
		i = j + 1;
		if (!t || *t == '#')
			continue;
		double d = strtod(t, &endp);
		if (*endp) {
			*bad = line;
			free(buf);
			return STAT_INPUT_INVALID;
		}
		put(g, d);
		*sum += d;
	}
	free(buf);
	return STAT_INPUT_OK;
}

static void random_plain(char *s, int *k)
{
	int whole = (int)(next() % 9), frac = next() % 3 ? (int)(next() % 9) : -1;

	if (next() % 4 == 0)
		s[(*k)++] = '-';
	for (int i = 0; i < whole; i++)
		s[(*k)++] = (char)('0' + next() % 10);
	if (frac >= 0) {
		s[(*k)++] = '.';
		for (int i = 0; i < frac; i++)
			s[(*k)++] = (char)('0' + next() % 10);
	}
}

/* A random input of about `lines` lines; `invalid`: one may be junk. */
static size_t random_input(char *s, int lines, int columns, int invalid, int repeats)
{
	static const char *const odd[] = { "# note", "", "  ", "\r", "1e3", "-0", "0", "+5",
					   "0x1p4", "inf", "1.5E-7", "\t", "7.", ".25", "#1",
					   "123456789012.5", "0000000000000001", "#\x8b\xff",
					   "\xfa" };
	static const char *const pool[] = { "1050.4", "1003", "-0", "0.0", "51092.4", "7" };
	size_t k = 0;

	for (int l = 0; l < lines; l++) {
		int c, kk = (int)k;

		for (c = 0; c < columns; c++) {
			if (c)
				s[kk++] = " \t,;"[next() % 4];
			if (repeats && next() % 3)
				kk += sprintf(s + kk, "%s", pool[next() % 6]);
			else if (next() % 6 == 0)
				kk += sprintf(s + kk, "%s", odd[next() % (sizeof odd / sizeof odd[0])]);
			else
				random_plain(s, &kk);
		}
		if (next() % 40 == 0)
			s[kk++] = "  \r\t"[next() % 4];
		if (next() % 200 == 0) {
			s[kk++] = '\0';
			s[kk++] = '5';
		}
		if (invalid && next() % 300 == 0)
			kk += sprintf(s + kk, "x");
		s[kk++] = '\n';
		k = (size_t)kk;
	}
	if (next() % 2 && k)
		k--; /* no final newline */
	return k;
}

static int cmp_bits(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(double));
}

/* got (from the reader) holds what ref holds: in order when cached is 0,
 * else the same multiset and the same zeros in the same order. */
static int same_values(struct got *got, struct got *ref, int cached)
{
	size_t zi = 0, zr = 0;

	if (got->n != ref->n)
		return 0;
	if (!cached)
		return !ref->n || !memcmp(got->v, ref->v, ref->n * sizeof *ref->v);
	for (size_t i = 0; i < ref->n; i++) { /* the zeros, in input order */
		if (ref->v[i] != 0)
			continue;
		while (zi < got->in_order && got->v[zi] != 0)
			zi++;
		if (zi == got->in_order || signbit(got->v[zi]) != signbit(ref->v[i]))
			return 0;
		zi++;
		zr++;
	}
	if (!ref->n)
		return 1;
	qsort(got->v, got->n, sizeof *got->v, cmp_bits);
	qsort(ref->v, ref->n, sizeof *ref->v, cmp_bits);
	return !memcmp(got->v, ref->v, ref->n * sizeof *ref->v);
}

/* Feeds data in random chunks, as input_fd.c does with read(2). */
static int feed_chunked(struct stat_input *in, const char *data, size_t len)
{
	char *buf = malloc(len + 1);
	size_t have = 0, off = 0, used;
	int rc;

	for (;;) {
		size_t take = off < len ? 1 + (size_t)(next() % 300) : 0;
		if (take > len - off)
			take = len - off;
		memcpy(buf + have, data + off, take);
		have += take;
		off += take;
		rc = stat_input_feed(in, buf, have, take == 0, &used);
		if (rc != STAT_INPUT_OK || take == 0)
			break;
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	free(buf);
	return rc == STAT_INPUT_OK ? stat_input_finish(in) : rc;
}

/* Through stat_input_fd: from a file, or (pipe) from a pipe a child fills. */
static int read_fd(const char *data, size_t len, int pipe_it, struct stat_input *in)
{
	char path[] = "/tmp/test_stat_lines.XXXXXX";
	int fd, p[2], rc;
	pid_t pid = -1;

	if (!pipe_it) {
		if ((fd = mkstemp(path)) < 0 || write(fd, data, len) != (ssize_t)len)
			return -100;
		unlink(path);
		lseek(fd, 0, SEEK_SET);
	} else {
		if (pipe(p) != 0 || (pid = fork()) < 0)
			return -100;
		if (pid == 0) {
			close(p[0]);
			for (size_t off = 0; off < len;) {
				ssize_t w = write(p[1], data + off, len - off < 5000 ? len - off : 5000);
				if (w <= 0)
					_exit(1);
				off += (size_t)w;
			}
			_exit(0);
		}
		close(p[1]);
		fd = p[0];
	}
	rc = stat_input_fd(in, fd);
	close(fd);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return rc;
}

static const char *const delims[] = { " \t", ",", " \t,;", ";", " ", "-", ".", ",\t", "0" };

/* One random input through the three ways in; 0 when any differs. */
static int one_case(int lines, int columns, int invalid, int repeats, int way, int *cached_lines)
{
	const char *delim = delims[next() % (sizeof delims / sizeof delims[0])];
	int column = columns > 1 && next() % 2 ? 1 + (int)(next() % (uint64_t)(columns + 1)) : 1;
	char *s = malloc((size_t)lines * ((size_t)columns * 40 + 8) + 16), *buf;
	size_t len = random_input(s, lines, columns, invalid, repeats), rbad = 0, abad = 0;
	unsigned char set[256] = { 0 };
	struct got ref = { 0 }, b = { 0 };
	struct stat_values vals = { 0 };
	struct stat_input in;
	double rsum;
	int rrc, arc, brc, ok;

	stat_input_delims(set, delim);
	rrc = reference(s, len, delim, column, &ref, &rsum, &rbad);
	buf = malloc(len + 1);
	memcpy(buf, s, len);
	arc = stat_input_parse(buf, len, set, column, &vals, &abad);
	ok = arc == rrc && !memcmp(buf, s, len) &&
	     (rrc != STAT_INPUT_OK ? abad == rbad
				   : vals.n == ref.n && (!ref.n || !memcmp(vals.v, ref.v, ref.n * sizeof *ref.v)));
	stat_input_init(&in, set, column, sink, &b);
	stat_input_use_cache(&in);
	brc = way == 0 ? feed_chunked(&in, s, len) : read_fd(s, len, way == 2, &in);
	ok = ok && brc == rrc &&
	     (rrc != STAT_INPUT_OK ? in.line == rbad
				   : in.nvalues == ref.n && !memcmp(&in.sum, &rsum, sizeof rsum) &&
					     same_values(&b, &ref, 1));
	if (!ok)
		printf("  delim \"%s\" column %d: rc %d/%d/%d, bad line %zu/%zu/%zu, n %zu/%zu/%zu\n",
		       delim, column, rrc, arc, brc, rbad, abad, in.line, ref.n, vals.n, b.n);
	*cached_lines += (int)in.hits;
	free(in.seen);
	free(vals.v);
	free(ref.v);
	free(b.v);
	free(buf);
	free(s);
	return ok;
}

static void test_random(void)
{
	static const char *const way[] = { "fed in random chunks", "from a file", "from a pipe" };
	int bad = 0, cases = 0, cached = 0;

	for (int w = 0; w < 3; w++) {
		for (int i = 0; i < (w ? 40 : 400); i++, cases++)
			bad += !one_case(1 + (int)(next() % 400), 1 + (int)(next() % 3), 0, i % 2, w, &cached);
		check(bad == 0, "reader: %d random inputs %s, as ministat reads them", cases, way[w]);
	}
	check(cached > 1000, "reader: the line cache was used (%d lines)", cached);
	bad = 0;
	for (int i = 0; i < 300; i++)
		bad += !one_case(1 + (int)(next() % 400), 1 + (int)(next() % 3), 1, i % 2, 0, &cached);
	check(bad == 0, "reader: 300 inputs with junk lines: the same bad line as ministat");
}

/* A line longer than the reader's 256 KB buffer, and a file of 200,000 short
 * lines of ~3,000 distinct values (the cache's own case). */
static void test_big(void)
{
	size_t len = 700000, k = 0;
	char *s = malloc(len + 2000000);
	unsigned char set[256] = { 0 };
	struct got ref = { 0 }, b = { 0 };
	struct stat_input in;
	double rsum;
	size_t rbad;
	int rc;

	memset(s, ' ', len);
	k = len;
	k += (size_t)sprintf(s + k, "5\n1\n2\n");
	for (int i = 0; i < 200000; i++)
		k += (size_t)sprintf(s + k, "%d.%d\n", 1000 + (int)(next() % 300), (int)(next() % 10));
	stat_input_delims(set, " \t");
	reference(s, k, " \t", 1, &ref, &rsum, &rbad);
	stat_input_init(&in, set, 1, sink, &b);
	stat_input_use_cache(&in);
	rc = read_fd(s, k, 0, &in);
	check(COND(rc == STAT_INPUT_OK) && COND(ref.n == 200003) && COND(in.nvalues == ref.n) &&
		      COND(!memcmp(&in.sum, &rsum, sizeof rsum)) && COND(same_values(&b, &ref, 1)) &&
		      COND(in.hits > 190000),
	      "reader: a 700 KB line, then 200000 short lines (%zu from the cache)", in.hits);
	free(ref.v);
	free(b.v);
	free(s);
}

int main(void)
{
	test_random();
	test_big();
	return check_done();
}
