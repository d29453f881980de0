/* SPDX-License-Identifier: BSD-2-Clause */
/* The log's histogram encoding (probe/hist_codec.c): exact strings for the
 * grammar's corner cases, round trips of random and extreme histograms
 * through the JSON writer and parser, every malformed form refused, both
 * schemas' forms read, and the real schema-1 histograms re-encoded.
 *
 *   test_hist_codec                  run the checks
 *   test_hist_codec --vectors FILE   write encoded strings with their bins (or
 *                                    their error) as JSON lines, for the Python
 *                                    decoder's test (tests/integrity/test_hist_codec.sh) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/check.h"
#include "tools/lib/hist_decode.h"
#include "probe/log.h"
#include "tools/lib/logset.h"
#include "tools/commands.h"

#define BUF_CAP (512u * 1024u)
#define NODES 4096

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* ---- helpers ------------------------------------------------------------------ */

struct bins {
	uint64_t v[HIST_CODEC_BINS], c[HIST_CODEC_BINS];
	size_t n;
};

static char jbuf[BUF_CAP];
static struct lr_node nodes[NODES];
static char strs[BUF_CAP];

/* {"hist":"…"} from (value, count) pairs through the encoder; the writer's
 * overflow flag is returned in *overflow.  Returns the document. */
static const char *encode_bins(const struct bins *b, bool *overflow, size_t cap)
{
	struct json j;
	struct hist_enc e;
	json_init(&j, jbuf, cap);
	json_object_begin(&j, NULL);
	hist_enc_begin(&e, &j, "hist");
	for (size_t i = 0; i < b->n; i++)
		hist_enc_add(&e, b->v[i], b->c[i]);
	hist_enc_end(&e);
	json_object_end(&j);
	*overflow = j.overflow;
	return jbuf;
}

/* The encoded string alone (a copy), as written between the quotes. */
static char *encoded(const struct bins *b)
{
	bool of;
	const char *doc = encode_bins(b, &of, sizeof jbuf);
	size_t n = strlen(doc);
	char *s;
	if (of || n < 11)
		return NULL;
	s = malloc(n);
	memcpy(s, doc + 9, n - 11); /* {"hist":" … "} */
	s[n - 11] = 0;
	return s;
}

/* Decodes a parsed {"hist":…} into out; -1 and the error when malformed. */
static long decode_doc(const char *doc, struct bins *out, int *form, const char **err)
{
	struct lr_doc d;
	const struct lr_node *root;
	struct hist_dec h;
	int got;
	lr_doc_init(&d, nodes, NODES, strs, sizeof strs);
	root = lr_parse(&d, doc, strlen(doc));
	*err = root ? NULL : d.err;
	*form = hist_dec_init(&h, root ? lr_get(root, "hist") : NULL);
	out->n = 0;
	while (out->n < HIST_CODEC_BINS && (got = hist_dec_next(&h, &out->v[out->n], &out->c[out->n])) == 1)
		out->n++;
	if (h.err)
		*err = h.err;
	return *err ? -1 : (long)out->n;
}

static long decode_str(const char *s, struct bins *out, const char **err)
{
	struct hist_dec h;
	int got;
	hist_dec_init_str(&h, s, strlen(s));
	out->n = 0;
	while (out->n < HIST_CODEC_BINS && (got = hist_dec_next(&h, &out->v[out->n], &out->c[out->n])) == 1)
		out->n++;
	*err = h.err;
	return h.err ? -1 : (long)out->n;
}

static int same(const struct bins *a, const struct bins *b)
{
	return a->n == b->n && !memcmp(a->v, b->v, a->n * sizeof a->v[0]) && !memcmp(a->c, b->c, a->n * sizeof a->c[0]);
}

static struct bins in, out;

/* in -> string -> parse -> decode == in, and the string decodes alone too. */
static int round_trip(void)
{
	bool of;
	int form;
	const char *err;
	const char *doc = encode_bins(&in, &of, sizeof jbuf);
	if (of || decode_doc(doc, &out, &form, &err) < 0 || form != HIST_FORM_COMPACT)
		return 0;
	return same(&in, &out);
}

/* in holds exactly the n (value, count) pairs given, as written. */
static void set_pairs(size_t n, const uint64_t pairs[][2])
{
	in.n = n;
	for (size_t i = 0; i < n; i++) {
		in.v[i] = pairs[i][0];
		in.c[i] = pairs[i][1];
	}
}

static void add_bin(size_t bin, uint64_t count)
{
	in.v[in.n] = hist_bin_low(bin);
	in.c[in.n++] = count;
}

/* ---- the grammar, exactly ---------------------------------------------------- */

static void test_strings(void)
{
	static const struct {
		uint64_t v, c;
		const char *want;
	} one[] = {
		{ 0, 1, "AB" },            /* skip 0, count 1 */
		{ 31, 31, "ff" },          /* the largest one-character numbers */
		{ 32, 32, "gBgB" },        /* 32 = group 0 with more (g), then 1 (B) */
		{ 1023, 1024, "_f" "ggB" }, /* 1023 = 31 + 31*32; 1024 = 0, 0, 1 */
		{ 16384, 2, "ggQ" "C" },   /* the first log bucket is bin 16384 = 0, 0, 16 */
		{ 0xff00000000000000ull, UINT64_MAX, "_nW" "____________P" }, /* the top bin, 22783 = 31, 7, 22;
									  * 2^64-1 in 13 digits */
	};
	for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
		char *s;
		set_pairs(1, (const uint64_t[][2]){ { one[i].v, one[i].c } });
		s = encoded(&in);
		check(COND(s) && COND(!strcmp(s, one[i].want)), "strings: value %llu count %llu is \"%s\" (got \"%s\")",
		      (unsigned long long)one[i].v, (unsigned long long)one[i].c, one[i].want, s ? s : "(null)");
		free(s);
	}
	/* 2^63: twelve zero groups with more, then 8 (bit 63 = 60 + 3). */
	set_pairs(1, (const uint64_t[][2]){ { 0, (uint64_t)1 << 63 } });
	{
		char *s = encoded(&in);
		check(COND(s) && COND(!strcmp(s, "A"
						 "ggggggggggggI")),
		      "strings: a count of 2^63 is 13 digits: \"%s\"", s ? s : "(null)");
		free(s);
	}
	in.n = 0;
	{
		char *s = encoded(&in);
		check(COND(s) && COND(!strcmp(s, "")), "strings: the empty histogram is \"\"");
		free(s);
	}
	/* Two bins: the second's skip counts the empty bins between. */
	set_pairs(2, (const uint64_t[][2]){ { 24, 3 }, { 49, 5 } });
	{
		char *s = encoded(&in);
		check(COND(s) && COND(!strcmp(s, "YDYF")),
		      "strings: bins 24 (x3) and 49 (x5) are \"YDYF\": skip 24, 3, skip 24, 5 (%s)", s ? s : "(null)");
		free(s);
	}
}

/* ---- round trips --------------------------------------------------------------- */

static void test_edges(void)
{
	static struct hist h;
	bool of;
	int ok;

	in.n = 0;
	check(COND(round_trip()) && COND(out.n == 0), "edges: empty histogram round trip");
	for (size_t b = 0; b < HIST_CODEC_BINS; b += 7919) {
		in.n = 0;
		add_bin(b, 1);
		check(round_trip(), "edges: one bin at index %zu (value %llu)", b, (unsigned long long)hist_bin_low(b));
	}
	in.n = 0;
	add_bin(HIST_CODEC_BINS - 1, 1);
	ok = round_trip();
	check(COND(ok) && COND(out.v[0] == hist_bin_low(hist_bin_of(UINT64_MAX))),
	      "edges: the top bin, value %llu (where UINT64_MAX goes)", (unsigned long long)out.v[0]);
	in.n = 0;
	for (size_t b = 0; b < HIST_EXACT; b++)
		add_bin(b, 1 + b % 3);
	check(round_trip(), "edges: all %u exact bins", HIST_EXACT);
	in.n = 0;
	for (size_t b = HIST_EXACT; b < HIST_CODEC_BINS; b++)
		add_bin(b, 1);
	check(round_trip(), "edges: all %u log bins", HIST_LOG_BUCKETS);
	in.n = 0;
	for (size_t b = 0; b < HIST_CODEC_BINS; b++)
		add_bin(b, UINT64_MAX - b);
	ok = round_trip();
	check(COND(ok) && COND(strlen(jbuf) == 11 + HIST_CODEC_BINS * 14u),
	      "edges: every bin with counts near 2^64: 14 bytes a bin (%zu bytes)", strlen(jbuf));
	in.n = 0;
	add_bin(0, (uint64_t)1 << 63);
	add_bin(HIST_CODEC_BINS - 1, (uint64_t)1 << 63);
	check(round_trip(), "edges: counts of 2^63 at the first and the last bin");

	/* Through struct hist and hist_encode, as the records write it. */
	hist_init(&h);
	hist_add(&h, 0);
	hist_add(&h, UINT64_MAX);
	hist_add_n(&h, 16383, 5);
	hist_add_n(&h, 16384, 6);
	{
		struct json j;
		int form;
		const char *err;
		size_t cur = 0, k = 0;
		uint64_t v, c;
		int good = 1;
		json_init(&j, jbuf, sizeof jbuf);
		json_object_begin(&j, NULL);
		hist_encode(&j, "hist", &h);
		json_object_end(&j);
		good = !j.overflow && decode_doc(jbuf, &out, &form, &err) == 4;
		while (good && hist_next(&h, &cur, &v, &c)) {
			good = k < out.n && out.v[k] == v && out.c[k] == c;
			k++;
		}
		check(COND(good) && COND(k == 4),
		      "edges: hist_encode of 0, 16383 x5, 16384 x6, UINT64_MAX: the bins hist_next gives");
	}

	/* The writer's limit: a histogram that does not fit sets overflow. */
	in.n = 0;
	for (size_t b = 0; b < 100; b++)
		add_bin(b, 1000);
	encode_bins(&in, &of, 64);
	check(of, "edges: a histogram past the writer's capacity sets overflow, never a cut string");
}

static void test_random(void)
{
	int bad = 0, runs = 3000;
	for (int r = 0; r < runs; r++) {
		size_t bin = next_rand() % 64;
		unsigned shape = (unsigned)(next_rand() % 4);
		in.n = 0;
		while (bin < HIST_CODEC_BINS && in.n < 4000) {
			uint64_t c = shape == 0 ? 1 + next_rand() % 3 :
				     shape == 1 ? 1 + next_rand() % 100000 :
				     shape == 2 ? 1 + (next_rand() >> (next_rand() % 64)) : /* any width */
				     1 + (next_rand() >> 1);
			if (!c)
				c = 1;
			add_bin(bin, c);
			/* gaps: none, TCG's 24, or anything up to the whole range */
			switch (next_rand() % 4) {
			case 0: bin += 1; break;
			case 1: bin += 24 + next_rand() % 2; break;
			case 2: bin += 1 + next_rand() % 300; break;
			default: bin += 1 + next_rand() % 5000; break;
			}
		}
		if (!round_trip())
			bad++;
	}
	check(!bad, "random: %d histograms of random shape round trip exactly (%d failed)", runs, bad);
}

/* Any string the decoder takes is the encoder's own: the form is canonical. */
static void test_canonical(void)
{
	static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	int taken = 0, bad = 0;
	for (int r = 0; r < 200000; r++) {
		char s[16];
		size_t n = 1 + next_rand() % 12;
		const char *err;
		for (size_t i = 0; i < n; i++)
			s[i] = digits[next_rand() % (next_rand() % 2 ? 32 : 64)];
		s[n] = 0;
		if (decode_str(s, &in, &err) >= 0) {
			char *again = encoded(&in);
			taken++;
			bad += !again || strcmp(again, s);
			free(again);
		}
	}
	check(COND(taken > 1000) && COND(!bad),
	      "canonical: %d random strings decoded; each re-encodes to itself (%d did not)", taken, bad);
}

/* ---- refusals ------------------------------------------------------------------ */

static void test_refused(void)
{
	static const struct {
		const char *s, *why;
	} bad[] = {
		{ "A", "a skip without its count" },
		{ "Ag", "the string ends inside a number" },
		{ "gAB", "a number not in its shortest form" },
		{ "AA", "a bin with a count of 0" },
		{ "A!", "a character that is not a base64url digit" },
		{ "A B", "a character that is not a base64url digit" },
		{ "A=", "a character that is not a base64url digit" },
		{ "A____________Q", "a number past 64 bits" },  /* bit 64 set */
		{ "A_____________B", "a number past 64 bits" }, /* 14 digits */
		{ "goWB", "a bin past the last bin" },          /* skip 22784 */
		{ "_nWBAB", "a bin past the last bin" },        /* bin 22783, then one more */
		{ "omitted", "a bin past the last bin" },       /* no ':': not the writer's note */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *err;
		struct hist_dec d;
		uint64_t v, c;
		long n = decode_str(bad[i].s, &out, &err);
		hist_dec_init_str(&d, bad[i].s, strlen(bad[i].s));
		while (hist_dec_next(&d, &v, &c) == 1)
			;
		check(COND(n < 0) && COND(err) && COND(!strcmp(err, bad[i].why)) &&
			      COND(hist_dec_next(&d, &v, &c) == -1),
		      "refused: \"%s\": %s (got %s), and it stays refused", bad[i].s, bad[i].why,
		      err ? err : "accepted");
	}
	{
		const char *err;
		check(COND(decode_str("_nWB", &out, &err) == 1) && COND(out.v[0] == hist_bin_low(HIST_CODEC_BINS - 1)),
		      "refused: but bin 22783 itself is taken");
	}

	/* The encoder refuses what it cannot write truthfully. */
	{
		bool of;
		set_pairs(1, (const uint64_t[][2]){ { 16385, 1 } });
		encode_bins(&in, &of, sizeof jbuf);
		check(of, "refused: encoder: 16385 is inside a log bucket, not its lower bound: overflow set");
		set_pairs(2, (const uint64_t[][2]){ { 50, 1 }, { 50, 1 } });
		encode_bins(&in, &of, sizeof jbuf);
		check(of, "refused: encoder: the same value twice: overflow set");
		set_pairs(2, (const uint64_t[][2]){ { 50, 1 }, { 49, 1 } });
		encode_bins(&in, &of, sizeof jbuf);
		check(of, "refused: encoder: values going down: overflow set");
		set_pairs(3, (const uint64_t[][2]){ { 5, 0 }, { 7, 2 }, { 9, 0 } });
		check(COND(!strcmp(encode_bins(&in, &of, sizeof jbuf), "{\"hist\":\"HC\"}")) && COND(!of),
		      "refused: encoder: a count of 0 adds no bin");
	}
}

/* ---- both schemas' forms ---------------------------------------------------------- */

static void test_forms(void)
{
	static const struct {
		const char *doc;
		int form;
		long n; /* bins, or -1: malformed */
	} c[] = {
		{ "{\"hist\":[[24,3],[49,5],[21376,1]]}", HIST_FORM_PAIRS, 3 },
		{ "{\"hist\":[]}", HIST_FORM_PAIRS, 0 },
		{ "{\"hist\":[[0,18446744073709551615]]}", HIST_FORM_PAIRS, 1 },
		{ "{\"hist\":\"YDYF\"}", HIST_FORM_COMPACT, 2 },
		{ "{\"hist\":\"\"}", HIST_FORM_COMPACT, 0 },
		{ "{\"hist\":\"omitted: more distinct values than one record holds\"}", HIST_FORM_OMITTED, 0 },
		{ "{\"hist\":null}", HIST_FORM_NONE, 0 },
		{ "{\"hist\":7}", HIST_FORM_NONE, 0 },
		{ "{\"hist\":{\"a\":1}}", HIST_FORM_NONE, 0 },
		{ "{}", HIST_FORM_NONE, 0 },
		{ "{\"hist\":[[24,3],[24,5]]}", HIST_FORM_PAIRS, -1 },
		{ "{\"hist\":[[24,3],[23,5]]}", HIST_FORM_PAIRS, -1 },
		{ "{\"hist\":[[24,0]]}", HIST_FORM_PAIRS, -1 },
		{ "{\"hist\":[[24]]}", HIST_FORM_PAIRS, -1 },
		{ "{\"hist\":[[24,1,2]]}", HIST_FORM_PAIRS, -1 },
		{ "{\"hist\":[[-1,2]]}", HIST_FORM_PAIRS, -1 },
		{ "{\"hist\":[[1.5,2]]}", HIST_FORM_PAIRS, -1 },
		{ "{\"hist\":[24,3]}", HIST_FORM_PAIRS, -1 },
		{ "{\"hist\":[[18446744073709551616,1]]}", HIST_FORM_PAIRS, -1 },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		int form;
		const char *err;
		long n = decode_doc(c[i].doc, &out, &form, &err);
		check(COND(form == c[i].form) && COND(n == c[i].n),
		      "forms: %s: form %d, %ld bins (got form %d, %ld%s%s)", c[i].doc, c[i].form, c[i].n, form, n,
		      err ? ": " : "", err ? err : "");
	}
	{
		int form;
		const char *err;
		decode_doc("{\"hist\":[[24,3],[49,5],[21376,1]]}", &out, &form, &err);
		check(COND(out.v[0] == 24) && COND(out.c[0] == 3) && COND(out.v[2] == 21376) && COND(out.c[2] == 1),
		      "forms: pairs give their values and counts as written");
	}
}

/* The real schema-1 histograms: re-encoded, the same bins, at most 40 % of
 * the bytes (TCG's sparse costs, 24 to 25 cycles apart, and their tails). */
static void test_real(void)
{
	static const char *const logs[] = { "tests/data/logs/schema1/q35-bios-default.log",
					     "tests/data/logs/schema1/q35-uefi-default.log",
					     "tests/data/logs/schema1/os-quick.log" };
	for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
		struct logfile f;
		size_t hists = 0, bad = 0, pair_bytes = 0, compact_bytes = 0;
		if (logfile_load(&f, logs[i]) != EXIT_CLEAN) {
			check(0, "real: %s loads clean (%s)", logs[i], f.why);
			logfile_free(&f);
			continue;
		}
		for (size_t k = 0; k < f.runs[0].nrecs; k++) {
			const struct lrun *r = &f.runs[0];
			const struct lr_node *h = lr_get(r->recs[k].root, "hist");
			const char *at, *end, *err;
			struct hist_dec d;
			char *s;
			if (!h)
				continue;
			hist_dec_init(&d, h);
			in.n = 0;
			while (in.n < HIST_CODEC_BINS && hist_dec_next(&d, &in.v[in.n], &in.c[in.n]) == 1)
				in.n++;
			s = encoded(&in);
			hists++;
			bad += d.err || !s || decode_str(s, &out, &err) < 0 || !same(&in, &out);
			/* the pairs' bytes as written: from "hist": to the next member */
			at = strstr(r->recs[k].text, "\"hist\":");
			end = at ? strstr(at, "]],") : NULL;
			pair_bytes += end ? (size_t)(end + 2 - at) - 7 : 0;
			compact_bytes += s ? strlen(s) + 2 : 0;
			free(s);
		}
		check(COND(hists >= 9) && COND(!bad) && COND(compact_bytes * 10 <= pair_bytes * 4),
		      "real: %s: %zu histograms re-encoded to the same bins, %zu bytes for the pairs' %zu", logs[i],
		      hists, compact_bytes, pair_bytes);
		logfile_free(&f);
	}
}

/* ---- vectors for the Python decoder ----------------------------------------------- */

static int vectors(const char *path)
{
	static const char *const bad[] = { "A", "Ag", "gAB", "AA", "A!", "A____________Q", "A_____________B", "goWB",
					   "_nWBAB", "omitted" };
	FILE *f = fopen(path, "w");
	if (!f)
		return 2;
	for (int r = 0; r < 400; r++) {
		size_t bin = next_rand() % 40;
		char *s;
		in.n = 0;
		while (bin < HIST_CODEC_BINS && in.n < 300) {
			add_bin(bin, 1 + (next_rand() >> (next_rand() % 64)));
			bin += 1 + (next_rand() % 3 ? next_rand() % 30 : next_rand() % 3000);
		}
		if (r == 0)
			in.n = 0;
		if (r == 1) {
			in.n = 0;
			add_bin(HIST_CODEC_BINS - 1, UINT64_MAX);
		}
		s = encoded(&in);
		fprintf(f, "{\"hist\":\"%s\",\"pairs\":[", s ? s : "");
		for (size_t i = 0; i < in.n; i++)
			fprintf(f, "%s[%llu,%llu]", i ? "," : "", (unsigned long long)in.v[i], (unsigned long long)in.c[i]);
		fprintf(f, "]}\n");
		free(s);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *err;
		decode_str(bad[i], &out, &err);
		fprintf(f, "{\"hist\":\"%s\",\"error\":\"%s\"}\n", bad[i], err ? err : "");
	}
	return fclose(f) ? 2 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--vectors"))
		return vectors(argv[2]);
	test_strings();
	test_edges();
	test_random();
	test_canonical();
	test_refused();
	test_forms();
	test_real();
	return check_done();
}
