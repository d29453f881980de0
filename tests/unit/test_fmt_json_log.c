/* SPDX-License-Identifier: BSD-2-Clause */
/* lib/fmt.c against libc's snprintf, lib/json.c byte for byte, and
 * probe/log.c checked line by line with a CRC-32 computed independently, by
 * zlib's crc32() (the same polynomial, reflected, as every reader uses). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <limits.h>
#include <math.h>
#include <zlib.h>
#include "lib/fmt.h"
#include "lib/json.h"
#include "probe/log.h"
#include "lib/crc32.h"
#include "tests/unit/check.h"
#include "tests/unit/xorshift.h"

/* ---- an independent CRC-32: zlib's --------------------------------------- */

static uint32_t crc_ref(uint32_t crc, const void *data, size_t n)
{
	return (uint32_t)crc32((uLong)crc, data, (uInt)n);
}

static void test_crc32(void)
{
	unsigned char buf[4096];
	uint32_t whole;
	int ok = 1;

	check(crc32_update(0, "123456789", 9) == 0xCBF43926u, "crc32: check value of \"123456789\" is cbf43926 (got %08x)",
	      crc32_update(0, "123456789", 9));
	check(crc_ref(0, "123456789", 9) == 0xCBF43926u, "crc32: zlib's crc32 gives the check value too");
	check(crc32_update(0, "", 0) == 0, "crc32: empty input gives 0");
	check(crc32_update(0x12345678u, "", 0) == 0x12345678u, "crc32: empty input leaves a running crc unchanged");
	srand(7);
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)rand();
	whole = crc32_update(0, buf, sizeof buf);
	check(whole == crc_ref(0, buf, sizeof buf), "crc32: 4096 random bytes agree with zlib's crc32");
	for (size_t cut = 0; cut <= sizeof buf; cut += 257)
		ok &= crc32_update(crc32_update(0, buf, cut), buf + cut, sizeof buf - cut) == whole;
	check(ok, "crc32: continuing a crc over any split equals the crc of the whole");
}

/* ---- tp_snprintf against libc ------------------------------------------- */

/* Formats with both and compares text and return value, for the full buffer
 * and for every smaller capacity down to 0 (truncation), with guard bytes
 * after the capacity that must stay untouched. */
static int fmt_same(const char *what, const char *fmt, ...)
{
	char want[256], got[256 + 16];
	va_list ap, ap2;
	int nw, ng, ok = 1;
	size_t cap;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	nw = vsnprintf(want, sizeof want, fmt, ap);
	va_end(ap);
	for (cap = 0; cap <= (size_t)nw + 1 && ok; cap++) {
		va_list ap3;
		va_copy(ap3, ap2);
		memset(got, '#', sizeof got);
		ng = tp_vsnprintf(got, cap, fmt, ap3);
		va_end(ap3);
		if (ng != nw)
			ok = 0;
		if (cap && (strncmp(got, want, cap - 1) || got[cap - 1 < (size_t)nw ? cap - 1 : (size_t)nw] != 0))
			ok = 0;
		for (size_t i = cap; i < cap + 8; i++)
			if (got[i] != '#')
				ok = 0;
	}
	if (!ok) {
		size_t bad = cap - 1;
		ng = tp_vsnprintf(got, sizeof got, fmt, ap2);
		check(0, "fmt %s: \"%s\" gives \"%s\" (%d), libc \"%s\" (%d) (first wrong at cap %zu)", what, fmt,
		      got, ng, want, nw, bad);
	}
	va_end(ap2);
	return ok;
}

/* The format without the printf attribute: formats gcc would refuse. */
static int tpf(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = tp_vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	return n;
}

static void test_fmt_integers(void)
{
	static const int ints[] = { 0, 1, -1, 7, 42, -42, 99999, -99999, 123456, INT_MAX, INT_MIN };
	static const unsigned uints[] = { 0, 1, 9, 10, 255, 4096, 0xdeadbeefu, UINT_MAX };
	static const long long lls[] = { 0, -1, 1234567890123LL, -1234567890123LL, LLONG_MAX, LLONG_MIN };
	static const unsigned long long ulls[] = { 0, 1, 18446744073709551615ULL, 9223372036854775808ULL,
						   10000000000000000000ULL };
	int ok = 1;

	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
		int v = ints[i];
		ok &= fmt_same("%d", "%d", v);
		ok &= fmt_same("%i", "[%i]", v);
		ok &= fmt_same("%5d", "%5d|", v);
		ok &= fmt_same("%-5d", "%-5d|", v);
		ok &= fmt_same("%05d", "%05d|", v);
		ok &= fmt_same("%-012d", "%-012d|", v);
		ok &= fmt_same("%*d", "%*d|", 9, v);
	}
	check(ok, "fmt: %%d %%i with width, '-', '0' and '*' match libc for 11 values");
	ok = 1;
	for (size_t i = 0; i < sizeof uints / sizeof uints[0]; i++) {
		unsigned v = uints[i];
		ok &= fmt_same("%u", "%u", v);
		ok &= fmt_same("%x", "%x", v);
		ok &= fmt_same("%X", "%X", v);
		ok &= fmt_same("%08x", "0x%08x", v);
		ok &= fmt_same("%-10u", "%-10u.", v);
		ok &= fmt_same("%2x", "%2x.", v);
	}
	check(ok, "fmt: %%u %%x %%X with width and flags match libc");
	ok = 1;
	for (size_t i = 0; i < sizeof lls / sizeof lls[0]; i++) {
		ok &= fmt_same("%lld", "%lld", lls[i]);
		ok &= fmt_same("%ld", "%ld", (long)lls[i]);
		ok &= fmt_same("%25lld", "%25lld", lls[i]);
		ok &= fmt_same("%025lld", "%025lld", lls[i]);
	}
	for (size_t i = 0; i < sizeof ulls / sizeof ulls[0]; i++) {
		ok &= fmt_same("%llu", "%llu", ulls[i]);
		ok &= fmt_same("%llx", "%llx", ulls[i]);
		ok &= fmt_same("%016llX", "%016llX", ulls[i]);
		ok &= fmt_same("%zu", "%zu", (size_t)ulls[i]);
		ok &= fmt_same("%lu", "%lu", (unsigned long)ulls[i]);
	}
	check(ok, "fmt: %%lld %%ld %%llu %%llx %%zu %%lu at the 64-bit extremes match libc");
}

static void test_fmt_strings(void)
{
	char buf[64];
	int ok = 1, x;

	ok &= fmt_same("%s", "<%s>", "hello");
	ok &= fmt_same("%s empty", "<%s>", "");
	ok &= fmt_same("%.3s", "<%.3s>", "abcdef");
	ok &= fmt_same("%.3s short", "<%.3s>", "ab");
	ok &= fmt_same("%.0s", "<%.0s>", "abc");
	ok &= fmt_same("%8s", "<%8s>", "abc");
	ok &= fmt_same("%-8s", "<%-8s>", "abc");
	ok &= fmt_same("%-8.2s", "<%-8.2s>", "abc");
	ok &= fmt_same("%.*s", "<%.*s>", 4, "abcdefgh");
	ok &= fmt_same("%c", "<%c>", 'z');
	ok &= fmt_same("%3c", "<%3c>", 'z');
	ok &= fmt_same("%-3c", "<%-3c>", 'z');
	ok &= fmt_same("%%", "100%% of %d", 5);
	ok &= fmt_same("%p", "%p", (void *)&x);
	ok &= fmt_same("%p const", "%p", (void *)(uintptr_t)0x1234abcdu);
	ok &= fmt_same("%24p", "[%24p]", (void *)&x);
	ok &= fmt_same("%-24p", "[%-24p]", (void *)&x);
	ok &= fmt_same("mixed", "%s=%d (%5.2s) %x %c%%", "key", -17, "xyz", 0xabcu, '!');
	check(ok, "fmt: %%s %%.3s %%c %%p %%%% with width and precision match libc");

	check(COND(tpf(buf, sizeof buf, "%s", (const char *)NULL) == 6) && COND(!strcmp(buf, "(null)")),
	      "fmt: a NULL %%s prints (null)");
	check(COND(tpf(buf, sizeof buf, "a%qb") == 4) && COND(!strcmp(buf, "a%qb")),
	      "fmt: an unknown conversion is printed as is (got \"%s\")", buf);
	check(COND(tpf(buf, sizeof buf, "abc%") == 4) && COND(!strcmp(buf, "abc%")),
	      "fmt: a trailing lone %% is printed and the format ends there (got \"%s\")", buf);
}

static void test_fmt_truncation(void)
{
	char buf[16];
	int n;

	memset(buf, 'x', sizeof buf);
	n = tp_snprintf(buf, 0, "%s", "hello");
	check(COND(n == 5) && COND(buf[0] == 'x'), "fmt: cap 0 writes nothing and returns the full length");
	n = tp_snprintf(buf, 1, "%s", "hello");
	check(COND(n == 5) && COND(buf[0] == 0) && COND(buf[1] == 'x'), "fmt: cap 1 writes only the NUL");
	n = tp_snprintf(buf, 4, "%d", 123456);
	check(COND(n == 6) && COND(!strcmp(buf, "123")) && COND(buf[4] == 'x'),
	      "fmt: cap 4 keeps 3 digits + NUL, returns 6");
	n = tp_snprintf(buf, 6, "%.3f", 3.14159);
	check(COND(n == 5) && COND(!strcmp(buf, "3.142")), "fmt: an exact fit (5 chars, cap 6) is complete");
	n = tp_snprintf(buf, 5, "%.3f", 3.14159);
	check(COND(n == 5) && COND(!strcmp(buf, "3.14")), "fmt: one short (cap 5) truncates to 4 chars and returns 5");
}

/* Is v * 10^dec within eps of a half?  Those values are where half-up (ours)
 * and libc's exact-binary rounding may differ, or where the product's own
 * rounding decides. */
static int near_half(double v, int dec, double eps)
{
	long double x = fabsl((long double)v);
	for (int i = 0; i < dec; i++)
		x *= 10;
	x -= floorl(x);
	return fabsl(x - 0.5L) < eps;
}

static void test_fmt_fixed(void)
{
	static const char *fmts[] = { "%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%.5f", "%.6f", "%.7f", "%.8f", "%.9f" };
	static const double fixed[] = { 0, 1, -1, 0.1, 0.01, 0.999, 9.9999999999, 3.14159265358979, -2.71828182845904,
					123.456, 99.995001, 1e-12, -1e-12, 4095.75, 0.000000001, 0.0000000014 };
	uint64_t rng = 12345;
	char buf[64];
	int ok = 1, tried = 0;

	for (int d = 0; d < 10; d++)
		for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
			if (!near_half(fixed[i], d, 1e-3))
				ok &= fmt_same(fmts[d], fmts[d], fixed[i]);
	check(ok, "fmt: %%.0f..%%.9f of 16 chosen values (none on a half) match libc");

	/* Random values of every magnitude that keeps value * 10^dec under 1e12:
	 * there the double product is exact to 1e-4, so any digit differences would
	 * be ours. */
	ok = 1;
	for (int t = 0; t < 20000; t++) {
		int d = t % 10;
		double mag, v;
		xorshift64(&rng);
		mag = pow(10, (double)(rng % 13) - (double)d);
		v = (double)(rng >> 11) / 9007199254740992.0 * mag * ((rng >> 3) & 1 ? -1 : 1);
		if (near_half(v, d, 1e-3))
			continue;
		tried++;
		ok &= fmt_same(fmts[d], fmts[d], v);
		if (!ok)
			break;
	}
	check(COND(ok) && COND(tried > 19000), "fmt: %d random values at %%.0f..%%.9f match libc", tried);

	/* Exact binary halves: documented half up (libc rounds these to even). */
	tp_snprintf(buf, sizeof buf, "%.0f", 0.5);
	check(!strcmp(buf, "1"), "fmt: %%.0f of 0.5 rounds half up to 1 (got %s)", buf);
	tp_snprintf(buf, sizeof buf, "%.0f", 2.5);
	check(!strcmp(buf, "3"), "fmt: %%.0f of 2.5 rounds half up to 3 (got %s)", buf);
	tp_snprintf(buf, sizeof buf, "%.0f", -2.5);
	check(!strcmp(buf, "-3"), "fmt: %%.0f of -2.5 rounds away from zero to -3 (got %s)", buf);
	tp_snprintf(buf, sizeof buf, "%.2f", 0.125);
	check(!strcmp(buf, "0.13"), "fmt: %%.2f of 0.125 gives 0.13 (got %s)", buf);
	tp_snprintf(buf, sizeof buf, "%.3f", 1.0625);
	check(!strcmp(buf, "1.063"), "fmt: %%.3f of 1.0625 gives 1.063 (got %s)", buf);
	tp_snprintf(buf, sizeof buf, "%.1f", 9.96);
	check(!strcmp(buf, "10.0"), "fmt: %%.1f of 9.96 carries into the units (got %s)", buf);
	tp_snprintf(buf, sizeof buf, "%.2f", 0.999);
	check(!strcmp(buf, "1.00"), "fmt: %%.2f of 0.999 carries to 1.00 (got %s)", buf);
	tp_snprintf(buf, sizeof buf, "%.9f", 0.9999999996);
	check(!strcmp(buf, "1.000000000"), "fmt: %%.9f of 0.9999999996 carries to 1.000000000 (got %s)", buf);

	ok = fmt_same("%f", "%f", 1.5);
	ok &= fmt_same("%f", "%f", -1234.567);
	ok &= fmt_same("%10.3f", "[%10.3f]", 3.14159);
	ok &= fmt_same("%-10.3f", "[%-10.3f]", 3.14159);
	ok &= fmt_same("%010.3f", "[%010.3f]", -3.14159);
	ok &= fmt_same("%.2f nan", "%.2f", (double)NAN);
	ok &= fmt_same("%6.2f nan", "[%6.2f]", (double)NAN);
	ok &= fmt_same("%.2f inf", "%.2f", (double)INFINITY);
	ok &= fmt_same("%.2f -inf", "%.2f", -(double)INFINITY);
	ok &= fmt_same("%.0f large", "%.0f", 1e15);
	ok &= fmt_same("%.3f large", "%.3f", 123456789012.5678);
	ok &= fmt_same("%.1f 1e17", "%.1f", 1e17);
	ok &= fmt_same("%.0f 2^63", "%.0f", 9223372036854775808.0);
	check(ok, "fmt: %%f default precision, width, flags, nan, inf, large values match libc");

	/* Finite values are printed as numbers, whatever the precision: only a
	 * value past 2^64 has no digits to give. */
	ok = fmt_same("%.6f 1e14", "%.6f", 1e14);
	ok &= fmt_same("%.9f 2e10", "%.9f", 2e10);
	ok &= fmt_same("%f 3e13", "%f", 3e13);
	check(ok, "fmt: a finite value under 2^64 is never printed as inf at high precision");
}

/* ---- the JSON writer ---------------------------------------------------- */

static void build_doc(struct json *j)
{
	json_object_begin(j, NULL);
	json_str(j, "s", "plain");
	json_u64(j, "u", 18446744073709551615ULL);
	json_i64(j, "i", INT64_MIN);
	json_bool(j, "t", true);
	json_bool(j, "f", false);
	json_null(j, "n");
	json_str(j, "ns", NULL);
	json_array_begin(j, "a");
	json_u64(j, NULL, 1);
	json_object_begin(j, NULL);
	json_array_begin(j, "e");
	json_array_end(j);
	json_object_end(j);
	json_pair_u64(j, 7, 300);
	json_array_end(j);
	json_object_begin(j, "o");
	json_fixed(j, "x", 2.5, 2);
	json_fixed(j, "nan", NAN, 2);
	json_fixed(j, "inf", INFINITY, 1);
	json_fixed(j, "neg", -0.125, 3);
	json_hex32(j, "h", 0x0a1b2c3du);
	json_object_end(j);
	json_object_end(j);
}

static const char doc_text[] =
	"{\"s\":\"plain\",\"u\":18446744073709551615,\"i\":-9223372036854775808,\"t\":true,\"f\":false,"
	"\"n\":null,\"ns\":null,\"a\":[1,{\"e\":[]},[7,300]],"
	"\"o\":{\"x\":2.50,\"nan\":null,\"inf\":null,\"neg\":-0.125,\"h\":\"0a1b2c3d\"}}";

static void test_json(void)
{
	char buf[512], small[600];
	struct json j;
	int ok = 1;
	size_t full = strlen(doc_text);

	json_init(&j, buf, sizeof buf);
	build_doc(&j);
	check(COND(!j.overflow) && COND(j.depth == 0) && COND(!strcmp(buf, doc_text)) && COND(j.len == full),
	      "json: nesting, every value kind: %s", buf);

	json_init(&j, buf, sizeof buf);
	json_object_begin(&j, NULL);
	json_str(&j, "k\"\\", "q\" b\\ \n\t\r\x01\x1f\x7f\x80\xff~ok");
	json_object_end(&j);
	check(!strcmp(buf, "{\"k\\\"\\\\\":\"q\\\" b\\\\ \\u000a\\u0009\\u000d\\u0001\\u001f\\u007f\\u0080\\u00ff~ok\"}"),
	      "json: quotes, backslashes, control, DEL and high bytes escaped in keys and values: %s", buf);

	/* Every capacity: the flag exactly when the document does not fit with its
	 * NUL, never a byte past cap, and what was written is a prefix. */
	for (size_t cap = 0; cap <= full + 2; cap++) {
		memset(small, '#', sizeof small);
		json_init(&j, small, cap);
		build_doc(&j);
		if (j.overflow != (cap < full + 1))
			ok = 0;
		for (size_t i = cap; i < sizeof small; i++)
			if (small[i] != '#')
				ok = 0;
		if (cap && (j.len >= cap || small[j.len] != 0 || strncmp(small, doc_text, j.len)))
			ok = 0;
	}
	check(ok, "json: at every capacity 0..%zu overflow is flagged exactly when it does not fit, nothing past cap",
	      full + 2);

	/* first[] has JSON_MAX_DEPTH slots, slot 0 for the top level: 15 open
	 * containers fit, the 16th is refused. */
	json_init(&j, buf, sizeof buf);
	for (int d = 0; d < JSON_MAX_DEPTH - 1; d++)
		json_array_begin(&j, NULL);
	ok = !j.overflow && j.depth == JSON_MAX_DEPTH - 1;
	json_array_begin(&j, NULL);
	check(COND(ok) && COND(j.overflow) && COND(j.depth == JSON_MAX_DEPTH - 1),
	      "json: %d nested containers fit, one more sets overflow", JSON_MAX_DEPTH - 1);

	/* json_fixed promises a number or null: never a bare inf/nan token. */
	ok = 1;
	for (int d = 0; d <= 9; d++) {
		static const double vals[] = { 2e17, -2e17, 5e14, 1e11, 9.99e17 };
		for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
			json_init(&j, buf, sizeof buf);
			json_array_begin(&j, NULL);
			json_fixed(&j, NULL, vals[i], d);
			json_array_end(&j);
			if (strstr(buf, "inf") || strstr(buf, "nan")) {
				if (ok)
					check(0, "json: json_fixed(%g, %d) wrote %s", vals[i], d, buf);
				ok = 0;
			}
		}
	}
	check(ok, "json: json_fixed of a finite value under 1e18 is a JSON number at every precision");
}

/* ---- the log writer ----------------------------------------------------- */

struct mem {
	char *buf;
	size_t len, cap;
	int calls, bad_calls; /* calls that were not exactly one line ending in "\n" */
};

static void mem_sink(void *ctx, const char *s, size_t n)
{
	struct mem *m = ctx;
	if (!n || s[n - 1] != '\n' || memchr(s, '\n', n - 1))
		m->bad_calls++;
	m->calls++;
	if (m->len + n > m->cap) {
		m->cap = (m->len + n) * 2;
		m->buf = realloc(m->buf, m->cap);
	}
	memcpy(m->buf + m->len, s, n);
	m->len += n;
}

/* One record line (without its "\n"): type and seq first, the crc last and
 * right.  Returns 1 when it checks out; why says what did not. */
static int line_ok(const char *s, size_t n, const char *type, unsigned seq, char *why, size_t why_len)
{
	char head[96];
	unsigned crc;
	size_t h = (size_t)snprintf(head, sizeof head, "{\"type\":\"%s\",\"seq\":%u,", type, seq);

	if (n < h + 18 || memcmp(s, head, h)) {
		snprintf(why, why_len, "does not start with %s", head);
		return 0;
	}
	if (memcmp(s + n - 18, ",\"crc\":\"", 8) || memcmp(s + n - 2, "\"}", 2) ||
	    sscanf(s + n - 10, "%8x", &crc) != 1) {
		snprintf(why, why_len, "does not end with ,\"crc\":\"xxxxxxxx\"}");
		return 0;
	}
	for (size_t i = n - 10; i < n - 2; i++)
		if (!strchr("0123456789abcdef", s[i])) {
			snprintf(why, why_len, "crc is not 8 lower-case hex digits");
			return 0;
		}
	if (crc != crc_ref(0, s, n - 18)) {
		snprintf(why, why_len, "crc %08x, bytes give %08x", crc, crc_ref(0, s, n - 18));
		return 0;
	}
	return 1;
}

static const char *find_member(const char *line, size_t n, const char *key)
{
	char pat[64];
	size_t k = (size_t)snprintf(pat, sizeof pat, "\"%s\":", key);
	for (size_t i = 0; i + k <= n; i++)
		if (!memcmp(line + i, pat, k))
			return line + i + k;
	return NULL;
}

/* Every line the writer sent: one record each, in order, its CRC right; the
 * overflow record names what it lost; the end record sums up the rest. */
static void check_log_lines(const struct mem *m, const char *const *types, size_t nlines)
{
	char why[128];
	size_t pos = 0;
	uint32_t crc_all = 0;
	uint64_t bytes = 0;
	int ok = 1, seq_ok = 1;
	const char *end = NULL;
	size_t end_len = 0;

	for (size_t i = 0; i < nlines; i++) {
		const char *nl = memchr(m->buf + pos, '\n', m->len - pos);
		size_t n;
		if (!nl) {
			check(0, "log: line %zu missing", i);
			ok = 0;
			break;
		}
		n = (size_t)(nl - (m->buf + pos));
		if (!line_ok(m->buf + pos, n, types[i], (unsigned)i, why, sizeof why)) {
			check(0, "log: line %zu (%s): %s", i, types[i], why);
			seq_ok = 0;
		}
		if (i + 1 < nlines) {
			crc_all = crc_ref(crc_all, m->buf + pos, n + 1);
			bytes += n + 1;
		} else {
			end = m->buf + pos;
			end_len = n;
		}
		pos += n + 1;
	}
	check(COND(ok) && COND(pos == m->len), "log: %zu lines and nothing after the last", nlines);
	check(seq_ok, "log: every line has type, seq 0..%zu in order and a crc that matches its bytes", nlines - 1);

	pos = 0;
	for (size_t i = 0; i < 2; i++)
		pos += (size_t)((char *)memchr(m->buf + pos, '\n', m->len - pos) - (m->buf + pos)) + 1;
	{
		const char *line = m->buf + pos, *rec = find_member(line, 200, "record"),
			   *lim = find_member(line, 200, "limit");
		char want[32];
		snprintf(want, sizeof want, "%u,", LOG_RECORD_MAX);
		check(COND(rec) && COND(!strncmp(rec, "\"big\",", 6)) && COND(lim) &&
			      COND(!strncmp(lim, want, strlen(want))),
		      "log: the overflow record names the lost record (\"big\") and the limit (%u)", LOG_RECORD_MAX);
	}

	if (end) {
		const char *r = find_member(end, end_len, "records"), *c = find_member(end, end_len, "crc32"),
			   *b = find_member(end, end_len, "bytes"), *s = find_member(end, end_len, "status");
		unsigned records = 0, crc = 0;
		unsigned long long by = 0;
		check(COND(r) && COND(sscanf(r, "%u", &records) == 1) && COND(records == nlines - 1),
		      "log: end records = %u, the %zu records before it", records, nlines - 1);
		check(COND(c) && COND(sscanf(c, "\"%8x\"", &crc) == 1) && COND(crc == crc_all),
		      "log: end crc32 %08x = CRC over every earlier line with its \\n (%08x)", crc, crc_all);
		check(COND(b) && COND(sscanf(b, "%llu", &by) == 1) && COND(by == bytes), "log: end bytes %llu = %llu",
		      by, (unsigned long long)bytes);
		check(COND(s) && COND(!strncmp(s, "\"ok\"", 4)), "log: end status \"ok\"");
	}
}

static void test_log(void)
{
	static struct log l; /* 96 KiB buffer: not on the stack */
	static const char *types[16];
	struct mem m = { 0 };
	char *big, why[128];
	struct json *j;
	size_t prefix, lmax, nlines = 0;

	big = malloc(200000);
	memset(big, 'b', 200000);
	log_init(&l, mem_sink, &m);

	types[nlines++] = "begin";
	j = log_begin(&l, "begin");
	json_u64(j, "schema", LOG_SCHEMA);
	json_str(j, "cmdline", "preset=quick \"x\"\\");
	log_end(&l);

	types[nlines++] = "machine";
	j = log_begin(&l, "machine");
	json_object_begin(j, "o");
	json_array_begin(j, "a");
	json_u64(j, NULL, 3);
	json_array_end(j);
	json_object_end(j);
	json_str(j, "brand", "\x01\xff");
	log_end(&l);

	types[nlines++] = "overflow"; /* 200000 bytes do not fit 96 KiB */
	big[199999] = 0;
	j = log_begin(&l, "big");
	json_str(j, "s", big);
	log_end(&l);

	types[nlines++] = "overflow"; /* an inner object left open is never emitted */
	j = log_begin(&l, "open");
	json_object_begin(j, "inner");
	log_end(&l);

	/* The largest string that fits exactly, then one byte more. */
	prefix = (size_t)snprintf(why, sizeof why, "{\"type\":\"t\",\"seq\":%u,\"s\":\"", l.seq);
	lmax = LOG_RECORD_MAX - 32 - 2 - prefix;
	types[nlines++] = "t";
	big[lmax] = 0;
	j = log_begin(&l, "t");
	json_str(j, "s", big);
	check(!j->overflow, "log: a record of %zu bytes (writer cap - 1) fits", prefix + lmax + 1);
	log_end(&l);
	big[lmax] = 'b';
	big[lmax + 1] = 0;
	types[nlines++] = "overflow";
	j = log_begin(&l, "t");
	json_str(j, "s", big);
	check(j->overflow, "log: one byte more overflows");
	log_end(&l);

	types[nlines++] = "after";
	j = log_begin(&l, "after");
	json_u64(j, "x", 1);
	log_end(&l);

	types[nlines++] = "end";
	log_close(&l, "ok");

	check(COND(m.calls == (int)nlines) && COND(m.bad_calls == 0),
	      "log: %d sink calls, each exactly one line ending in \\n", m.calls);
	check(l.overflows == 3, "log: 3 overflows counted (got %u)", l.overflows);

	check_log_lines(&m, types, nlines);
	check(COND(l.seq == nlines) && COND(l.bytes == m.len), "log: the writer counted %u records, %llu bytes", l.seq,
	      (unsigned long long)l.bytes);
	free(big);
	free(m.buf);
}


int main(void)
{
	test_crc32();
	test_fmt_integers();
	test_fmt_strings();
	test_fmt_truncation();
	test_fmt_fixed();
	test_json();
	test_log();
	return check_done();
}
