/* SPDX-License-Identifier: BSD-2-Clause */
/* The log reader (tools/lib/logread.c) and the host loader (tools/lib/logset.c)
 * against logs written by the real writer (probe/log.c), clean and damaged.
 *
 *   test_logread                    run the checks
 *   test_logread --fixtures DIR     write the fixture logs the tool tests use
 *
 * Fixtures: a.log and os.log in schema 2, b.log in schema 1, a1.log the run of
 * a.log in schema 1, two.log a then b in one capture. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tests/unit/check.h"
#include "probe/log.h"
#include "lib/json.h"
#include "tools/lib/logread.h"
#include "lib/crc32.h"
#include "tools/lib/logset.h"
#include "tools/commands.h"
#include "tests/unit/log_runs.h"
#include "tools/lib/hist_decode.h"

/* ---- helpers ---------------------------------------------------------------- */

static size_t line_starts(const struct buf *b, size_t *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < b->n && n < max; i++)
		if (i == 0 || b->p[i - 1] == '\n')
			out[n++] = i;
	return n;
}

static int load(struct logfile *f, const char *data, size_t n)
{
	return logfile_load_mem(f, "t.log", data, n);
}

/* Every good record is one of the original lines, unchanged. */
static int all_good_are_original(const struct logfile *f, const struct buf *orig)
{
	for (size_t k = 0; k < f->nruns; k++)
		for (size_t i = 0; i < f->runs[k].nrecs; i++) {
			const struct lrec *r = &f->runs[k].recs[i];
			char *hit = memmem(orig->p, orig->n, r->text, r->len);
			if (!hit || (hit != orig->p && hit[-1] != '\n') || hit[r->len] != '\n')
				return 0;
		}
	return 1;
}

static int has_problem(const struct logfile *f, const char *word)
{
	for (size_t k = 0; k < f->nruns; k++)
		for (size_t i = 0; i < f->runs[k].nprobs; i++)
			if (strstr(f->runs[k].probs[i].msg, word))
				return 1;
	for (size_t i = 0; i < f->nprobs; i++)
		if (strstr(f->probs[i].msg, word))
			return 1;
	return 0;
}


/* ---- JSON and line cleaning ---------------------------------------------------- */

static void test_json(void)
{
	static struct lr_node nodes[256];
	static char strs[1024];
	struct lr_doc d;
	const struct lr_node *r;
	static const char *const bad[] = {
		"{\"a\":1,}", "{\"a\":01}", "{\"a\":\"x}", "{\"a\":\"\x01\"}", "{\"a\":\"\\q\"}", "[tru]",
		"{} x", "{\"a\" 1}", "[1,,2]", "{\"a\":\"\\ud800\"}", "{\"a\":-}", "{\"a\":1.}", "",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
	};
	const char *ok = "{\"u\":18446744073709551615,\"i\":-9223372036854775808,\"f\":12.125,"
			 "\"e\":1.5e3,\"s\":\"a\\u00e9\\n\\\"\\ud83d\\ude00\",\"n\":null,\"t\":true,"
			 "\"a\":[1,[2,3],{}],\"z\":0}";
	uint64_t u;
	double v;

	lr_doc_init(&d, nodes, 256, strs, sizeof strs);
	r = lr_parse(&d, ok, strlen(ok));
	check(COND(r) && COND(r->kind == LR_OBJ) && COND(r->len == 9), "json: a record-like object parses (%s)",
	      d.err ? d.err : "ok");
	check(COND(lr_uint(lr_get(r, "u"), &u)) && COND(u == UINT64_MAX), "json: uint64 max kept exact");
	check(COND(lr_get(r, "i")) && COND(lr_get(r, "i")->is_int) && COND(lr_get(r, "i")->i == INT64_MIN),
	      "json: int64 min kept exact");
	check(COND(lr_num(lr_get(r, "f"), &v)) && COND(v == 12.125) && COND(!lr_get(r, "f")->is_int),
	      "json: 12.125 as a double");
	check(COND(lr_num(lr_get(r, "e"), &v)) && COND(v == 1500), "json: 1.5e3");
	check(COND(lr_str(lr_get(r, "s"))) && COND(!memcmp(lr_str(lr_get(r, "s")), "a\xe9\n\"\xf0\x9f\x98\x80", 9)),
	      "json: escapes: \\u00e9 is the byte 0xe9, a surrogate pair is UTF-8");
	check(COND(lr_get(r, "n")->kind == LR_NULL) && COND(lr_true(lr_get(r, "t"))), "json: null, true");
	check(COND(lr_at(lr_at(lr_get(r, "a"), 1), 1)->u == 3) && COND(lr_at(lr_get(r, "a"), 2)->kind == LR_OBJ),
	      "json: nesting");
	check(COND(!lr_get(r, "missing")) && COND(lr_path(r, "a") == lr_get(r, "a")), "json: lookups");
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		r = lr_parse(&d, bad[i], strlen(bad[i]));
		check(COND(!r) && COND(d.err), "json: rejects '%.20s' (%s)", bad[i], d.err ? d.err : "accepted");
	}
	lr_doc_init(&d, nodes, 3, strs, sizeof strs);
	check(COND(!lr_parse(&d, "[1,2,3,4]", 9)) && COND(d.err),
	      "json: node pool exhaustion is an error, not a crash");
}

static void test_clean(void)
{
	static const struct { const char *in, *out; } c[] = {
		{ "\x1b[2J\x1b[01;01H\x1b[=3h{\"a\":1}\r", "{\"a\":1}" },
		{ "\x1b=3h{x}\r\r", "{x}" },
		{ "\x1b(Bok\x1b", "ok" },
		{ "\x1b]0;title\x07{y}", "{y}" },
		{ "\x1b{z}", "{z}" },
		{ "BdsDxe: loading\r", "BdsDxe: loading" },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		char b[64];
		size_t n = strlen(c[i].in);
		memcpy(b, c[i].in, n);
		n = lr_clean_line(b, n);
		check(COND(n == strlen(c[i].out)) && COND(!memcmp(b, c[i].out, n)), "clean: case %zu gives '%s'", i,
		      c[i].out);
	}
}

/* ---- whole logs ---------------------------------------------------------------- */

static void test_clean_log(void)
{
	struct buf b = { 0 };
	struct logfile f;
	const struct lr_node *t;
	double v;
	write_run(&b, &spec_a);
	check(load(&f, b.p, b.n) == EXIT_CLEAN, "clean log: exit 0");
	check(COND(f.nruns == 1) && COND(f.runs[0].info.has_begin) && COND(f.runs[0].info.has_end) &&
		      COND(f.runs[0].info.end_ok) && COND(!lrun_damaged(&f.runs[0])),
	      "clean log: one complete run, end check agrees");
	check(COND(f.runs[0].nrecs == 10) && COND(f.nprobs == 0) && COND(f.runs[0].nprobs == 0),
	      "clean log: 10 records, no problem");
	check(COND(!strcmp(f.runs[0].name, "t.log")) && COND(!strcmp(f.runs[0].info.status, "ok")),
	      "clean log: name and status");
	t = lrun_timer(&f.runs[0], "hpet");
	check(COND(t) && COND(lr_num(lr_path(t, "cost_ns.p50"), &v)) && COND(v == 521),
	      "clean log: hpet p50 521 ns read back");
	check(COND(lr_str(lr_path(lrun_first(&f.runs[0], "acpi"), "rsdp.oem_id"))) &&
		      COND(!strcmp(lr_str(lr_path(lrun_first(&f.runs[0], "acpi"), "rsdp.oem_id")), "BOCHS\xe9")),
	      "clean log: firmware byte 0xe9 survives the round trip");
	for (size_t i = 0; i < f.runs[0].nrecs; i++)
		if (f.runs[0].recs[i].seq != i || f.runs[0].recs[i].line != i + 1)
			check(0, "clean log: record %zu has seq %llu line %u", i,
			      (unsigned long long)f.runs[0].recs[i].seq, f.runs[0].recs[i].line);
	logfile_free(&f);
	free(b.p);
}

/* The same log as a real console shows it: OVMF's escapes, CRLF, firmware text. */
static struct buf noisy(const struct buf *b)
{
	struct buf o = { 0 };
	size_t st[256], n = line_starts(b, st, 256);
	puts_(&o, "\x1b[2J\x1b[01;01H\x1b[=3h\x1b[2J\x1b[01;01HBdsDxe: loading Boot0001 \"UEFI QEMU HARDDISK\"\r\n");
	puts_(&o, "BdsDxe: starting Boot0001\r\n\x1b[H\x1b[J  Booting `tickprobe'\r\n\r\n");
	for (size_t i = 0; i < n; i++) {
		size_t e = i + 1 < n ? st[i + 1] - 1 : b->n - 1;
		if (i == 2)
			puts_(&o, "tickprobe: measuring hpet ...\r\n");
		if (i == 3)
			puts_(&o, "\x1b[0m");
		put(&o, b->p + st[i], e - st[i]);
		puts_(&o, "\r\n");
	}
	puts_(&o, "\x1b[0mtickprobe: done, status ok\r\n");
	return o;
}

static void test_noise(void)
{
	struct buf b = { 0 }, o;
	struct logfile f, g;
	write_run(&b, &spec_a);
	o = noisy(&b);
	load(&g, b.p, b.n);
	check(COND(load(&f, o.p, o.n) == EXIT_CLEAN) && COND(f.nruns == 1) && COND(f.runs[0].info.end_ok),
	      "noise: CRLF, ANSI escapes, BdsDxe and GRUB text: still a clean run");
	check(COND(f.runs[0].nrecs == g.runs[0].nrecs) && COND(all_good_are_original(&f, &b)),
	      "noise: every record, unchanged");
	logfile_free(&f);
	logfile_free(&g);
	free(b.p);
	free(o.p);
}

static void test_bitflips(const struct runspec *spec)
{
	struct buf b = { 0 };
	size_t st[64], n;
	write_run(&b, spec);
	n = line_starts(&b, st, 64);
	for (size_t i = 0; i < n; i++) {
		size_t e = i + 1 < n ? st[i + 1] : b.n, missed = 0, flips = 0;
		for (size_t k = st[i]; k < e; k++)
			for (int bit = 0; bit < 8; bit++) {
				struct logfile f;
				int s;
				b.p[k] ^= (char)(1 << bit);
				s = load(&f, b.p, b.n);
				b.p[k] ^= (char)(1 << bit); /* restored: b is the original again */
				flips++;
				if (s == EXIT_CLEAN || !all_good_are_original(&f, &b))
					missed++;
				logfile_free(&f);
			}
		check(!missed, "bit flips: schema %d: line %zu: %zu flips, every one excluded or flagged, no changed value "
		      "used (%zu missed)", spec->schema, i + 1, flips, missed);
	}
	free(b.p);
}

static void test_truncation(const struct runspec *spec)
{
	struct buf b = { 0 };
	size_t st[64], n, bad = 0, cuts = 0;
	write_run(&b, spec);
	n = line_starts(&b, st, 64);
	for (size_t i = 0; i < n; i++) {
		size_t e = i + 1 < n ? st[i + 1] : b.n;
		size_t at[2] = { st[i], st[i] + (e - st[i]) / 2 }; /* at the boundary, mid-record */
		for (int k = 0; k < 2; k++) {
			struct logfile f;
			int s = load(&f, b.p, at[k]);
			int want = at[k] <= st[0] + (st[1] - st[0]) - 1 ? EXIT_UNREADABLE : EXIT_DAMAGED;
			cuts++;
			if (s != want || !all_good_are_original(&f, &b) ||
			    (f.nruns && f.runs[f.nruns - 1].info.has_end)) {
				bad++;
				printf("  cut at %zu: exit %d, want %d\n", at[k], s, want);
			}
			logfile_free(&f);
		}
	}
	check(!bad, "truncation: schema %d: %zu cuts at record boundaries and mid-record: all partial (or unreadable), "
	      "none complete", spec->schema, cuts);
	free(b.p);
}

static void test_dup_reorder(void)
{
	struct buf b = { 0 }, o = { 0 };
	size_t st[64], n;
	struct logfile f;
	write_run(&b, &spec_a);
	n = line_starts(&b, st, 64);

	/* line 4 twice */
	put(&o, b.p, st[4]);
	put(&o, b.p + st[3], st[4] - st[3]);
	put(&o, b.p + st[4], b.n - st[4]);
	check(COND(load(&f, o.p, o.n) == EXIT_DAMAGED) && COND(has_problem(&f, "duplicate")) &&
		      COND(f.runs[0].nrecs == n) && COND(f.runs[0].info.end_ok),
	      "duplicate line: excluded and said, the rest checks out (exit 3)");
	logfile_free(&f);

	/* the end line twice */
	o.n = 0;
	put(&o, b.p, b.n);
	put(&o, b.p + st[n - 1], b.n - st[n - 1]);
	check(COND(load(&f, o.p, o.n) == EXIT_DAMAGED) && COND(has_problem(&f, "duplicate of the end")) &&
		      COND(f.nruns == 1),
	      "duplicate end line: excluded and said");
	logfile_free(&f);

	/* lines 5 and 6 swapped */
	o.n = 0;
	put(&o, b.p, st[5]);
	put(&o, b.p + st[6], st[7] - st[6]);
	put(&o, b.p + st[5], st[6] - st[5]);
	put(&o, b.p + st[7], b.n - st[7]);
	check(COND(load(&f, o.p, o.n) == EXIT_DAMAGED) && COND(has_problem(&f, "out of order")) &&
		      COND(!f.runs[0].info.end_ok) && COND(all_good_are_original(&f, &b)),
	      "reordered lines: flagged, end crc32 disagrees (exit 3)");
	logfile_free(&f);

	/* line 6 lost */
	o.n = 0;
	put(&o, b.p, st[6]);
	put(&o, b.p + st[7], b.n - st[7]);
	check(COND(load(&f, o.p, o.n) == EXIT_DAMAGED) && COND(has_problem(&f, "missing")) &&
		      COND(!f.runs[0].info.end_ok),
	      "lost line: seq gap and end count say so");
	logfile_free(&f);
	free(b.p);
	free(o.p);
}

static void test_runs(void)
{
	struct buf a = { 0 }, b = { 0 }, o = { 0 };
	struct logfile f;
	write_run(&a, &spec_a);
	write_run(&b, &spec_b);
	put(&o, a.p, a.n);
	puts_(&o, "\x1b[2J BdsDxe: loading Boot0002\r\n");
	put(&o, b.p, b.n);
	check(COND(load(&f, o.p, o.n) == EXIT_CLEAN) && COND(f.nruns == 2) &&
		      COND(!strcmp(f.runs[0].name, "t.log#1")) && COND(!strcmp(f.runs[1].name, "t.log#2")) &&
		      COND(f.runs[1].info.end_ok),
	      "two boots: two clean runs, t.log#1 and #2");
	logfile_free(&f);

	o.n = 0;
	put(&o, a.p, a.n / 2);
	puts_(&o, "\n");
	put(&o, b.p, b.n);
	check(COND(load(&f, o.p, o.n) == EXIT_DAMAGED) && COND(f.nruns == 2) && COND(!f.runs[0].info.has_end) &&
		      COND(f.runs[1].info.end_ok),
	      "boot cut short, then a second boot: run 1 partial, run 2 complete");
	logfile_free(&f);

	o.n = 0;
	write_run(&o, &spec_new);
	check(COND(load(&f, o.p, o.n) == EXIT_UNREADABLE) && COND(f.runs[0].info.newer_schema) &&
		      COND(has_problem(&f, "newer")) && COND(strstr(f.why, "schema above 2")),
	      "schema %d: unreadable, says newer (%s)", LOG_SCHEMA + 1, f.why);
	logfile_free(&f);

	check(COND(load(&f, "", 0) == EXIT_UNREADABLE) && COND(!strcmp(f.why, "empty file")),
	      "empty input: unreadable");
	logfile_free(&f);
	check(COND(load(&f, "hello\r\nGRUB\n", 12) == EXIT_UNREADABLE) && COND(f.nruns == 0), "text only: unreadable");
	logfile_free(&f);
	free(a.p);
	free(b.p);
	free(o.p);
}

static void test_garbage(void)
{
	struct buf b = { 0 }, o = { 0 };
	struct logfile f;
	uint32_t x = 12345;
	char *big;
	write_run(&b, &spec_a);
	for (int i = 0; i < 4096; i++) {
		char c;
		x = x * 1103515245u + 12345u;
		c = (char)(x >> 16);
		put(&o, c == '{' ? "\0" : &c, 1);
	}
	puts_(&o, "\n");
	put(&o, b.p, b.n);
	check(COND(load(&f, o.p, o.n) == EXIT_CLEAN) && COND(f.runs[0].nrecs == 10),
	      "binary garbage with NULs before the run: skipped");
	logfile_free(&f);
	puts_(&o, "{\"type\":\"timer\",\"seq\":3\x00\xff\xfe garbage\n");
	check(COND(load(&f, o.p, o.n) == EXIT_DAMAGED) && COND(f.nruns == 2) && COND(all_good_are_original(&f, &b)),
	      "a garbage record line after the end: excluded, said");
	logfile_free(&f);

	big = malloc(2u << 20);
	memset(big, 'x', 2u << 20);
	o.n = 0;
	put(&o, big, 2u << 20);
	put(&o, "\n", 1);
	put(&o, b.p, b.n);
	check(COND(load(&f, o.p, o.n) == EXIT_CLEAN) && COND(has_problem(&f, "limit")) && COND(f.nruns == 1) &&
		      COND(f.runs[0].info.end_ok),
	      "2 MB text line: skipped with a note, the run after it is clean");
	logfile_free(&f);
	o.n = 0;
	put(&o, b.p, b.n);
	big[0] = '{';
	put(&o, big, 2u << 20);
	put(&o, "\n", 1);
	check(COND(load(&f, o.p, o.n) == EXIT_DAMAGED) && COND(has_problem(&f, "limit")),
	      "2 MB record line: rejected with the limit");
	logfile_free(&f);
	free(big);
	free(b.p);
	free(o.p);
}

/* ---- both schemas --------------------------------------------------------------- */

/* A histogram as (value, count) pairs through the decoder; the count, or -1
 * when it is malformed. */
static long decode_all(const struct lr_node *hist, uint64_t *v, uint64_t *c, size_t max, int *form)
{
	struct hist_dec d;
	size_t n = 0;
	int got;
	*form = hist_dec_init(&d, hist);
	while (n < max && (got = hist_dec_next(&d, &v[n], &c[n])) == 1)
		n++;
	return d.err ? -1 : (long)n;
}

static int same_rounds(const struct lr_node *a, const struct lr_node *b, const char *metric)
{
	double *x, *y;
	size_t n = timer_rounds(a, metric, &x), m = timer_rounds(b, metric, &y);
	int same = n == m && n && !memcmp(x, y, n * sizeof *x);
	free(x);
	free(y);
	return same;
}

/* One run written in schema 2 and in schema 1 reads the same. */
static void test_schemas_agree(void)
{
	struct buf b2 = { 0 }, b1 = { 0 };
	struct logfile f2, f1;
	int bad = 0, timers = 0;

	write_run(&b2, &spec_a);
	write_run(&b1, &spec_a1);
	check(COND(load(&f2, b2.p, b2.n) == EXIT_CLEAN) && COND(load(&f1, b1.p, b1.n) == EXIT_CLEAN) &&
		      COND(f2.runs[0].info.schema == 2) && COND(f1.runs[0].info.schema == 1) &&
		      COND(f2.runs[0].nrecs == f1.runs[0].nrecs),
	      "schemas: the same run in schema 2 and 1: both clean, as many records");
	check(b2.n < b1.n, "schemas: schema 2 is the shorter (%zu bytes, schema 1 %zu)", b2.n, b1.n);
	for (size_t k = 0; k < 4; k++) {
		const struct lr_node *t2 = lrun_timer_at(&f2.runs[0], k), *t1 = lrun_timer_at(&f1.runs[0], k);
		uint64_t v2[8], c2[8], v1[8], c1[8];
		int form2, form1;
		long n2 = decode_all(lr_get(t2, "hist"), v2, c2, 8, &form2);
		long n1 = decode_all(lr_get(t1, "hist"), v1, c1, 8, &form1);
		if (!lr_true(lr_get(t2, "healthy"))) {
			bad += form2 != HIST_FORM_NONE || form1 != HIST_FORM_NONE || n2 || n1;
			continue;
		}
		timers++;
		bad += form2 != HIST_FORM_COMPACT || form1 != HIST_FORM_PAIRS || n2 != 3 || n1 != 3 ||
		       memcmp(v2, v1, sizeof v2[0] * 3) || memcmp(c2, c1, sizeof c2[0] * 3);
		bad += !same_rounds(t2, t1, "p50") || !same_rounds(t2, t1, "mean");
	}
	check(COND(!bad) && COND(timers == 3),
	      "schemas: %d timers: the same bins from the compact string and the pairs, "
	      "the same rounds from columns and objects",
	      timers);
	logfile_free(&f2);
	logfile_free(&f1);
	free(b2.p);
	free(b1.p);
}

/* Real schema-1 logs (tests/data/logs/schema1): every histogram decodes, in
 * the order and with the numbers written, and holds every sample. */
static void test_real_schema1(void)
{
	static const char *const logs[] = { "q35-bios-default.log", "q35-uefi-default.log", "os-quick.log" };
	static uint64_t v[HIST_CODEC_BINS], c[HIST_CODEC_BINS];

	for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
		char path[256];
		struct logfile f;
		const struct lr_node *rec;
		size_t hists = 0, bad = 0, rounds = 0, want_rounds = 0;
		uint64_t u;
		snprintf(path, sizeof path, "tests/data/logs/schema1/%s", logs[i]);
		if (logfile_load(&f, path) != EXIT_CLEAN || f.nruns != 1 || f.runs[0].info.schema != 1) {
			check(0, "real schema 1: %s loads clean, schema 1 (%s)", path, f.why);
			logfile_free(&f);
			continue;
		}
		lr_uint(lr_path(lrun_first(&f.runs[0], "begin"), "options.rounds"), &u);
		for (size_t k = 0; k < f.runs[0].nrecs; k++) {
			const struct lr_node *h, *p;
			uint64_t samples = 0, sum = 0;
			int form;
			long n;
			size_t j = 0;
			rec = f.runs[0].recs[k].root;
			if ((h = lr_get(rec, "rounds")) && lr_get(rec, "hist")) {
				double *x;
				size_t got = timer_rounds(rec, "p50", &x);
				free(x);
				want_rounds++;
				rounds += got == u && lr_rounds_count(h, "mean") == u;
			}
			if (!(h = lr_get(rec, "hist")))
				continue;
			hists++;
			n = decode_all(h, v, c, HIST_CODEC_BINS, &form);
			lr_uint(lr_get(rec, "samples"), &samples);
			bad += form != HIST_FORM_PAIRS || n < 1 || (size_t)n != h->len;
			for (p = h->child; n > 0 && p && j < (size_t)n; p = p->next, j++) {
				uint64_t pv = 0, pc = 0;
				lr_uint(lr_at(p, 0), &pv);
				lr_uint(lr_at(p, 1), &pc);
				bad += pv != v[j] || pc != c[j];
				sum += c[j];
			}
			bad += sum != samples;
		}
		check(COND(hists >= 9) && COND(!bad),
		      "real schema 1: %s: %zu histograms decode as the pairs written, each "
		      "holding its samples",
		      logs[i], hists);
		check(COND(want_rounds >= 9) && COND(rounds == want_rounds),
		      "real schema 1: %s: %zu of %zu timers give %llu "
		      "rounds of p50 and of mean",
		      logs[i], rounds, want_rounds, (unsigned long long)u);
		logfile_free(&f);
	}
}

/* ---- fixtures for tests/tools ------------------------------------------------- */

static void save(const char *dir, const char *name, const struct buf *b)
{
	char path[512];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(b->p, 1, b->n, f) != b->n || fclose(f)) {
		fprintf(stderr, "cannot write %s\n", path);
		exit(2);
	}
}

static void save_values(const char *dir, const char *name, const double *v, size_t n)
{
	struct buf b = { 0 };
	char t[64];
	for (size_t i = 0; i < n; i++) {
		snprintf(t, sizeof t, "%.3f\n", v[i]);
		puts_(&b, t);
	}
	save(dir, name, &b);
	free(b.p);
}

static int fixtures(const char *dir)
{
	struct buf a = { 0 }, b = { 0 }, o = { 0 }, s = { 0 };
	size_t st[64];
	mkdir(dir, 0755);
	write_run(&a, &spec_a);
	save(dir, "a.log", &a);
	write_run(&b, &spec_b);
	save(dir, "b.log", &b);
	o.n = 0;
	write_run(&o, &spec_a1);
	save(dir, "a1.log", &o);
	o.n = 0;
	write_run(&o, &spec_os);
	save(dir, "os.log", &o);
	s = noisy(&a);
	save(dir, "noisy.log", &s);
	line_starts(&a, st, 64);
	o.n = 0;
	put(&o, a.p, a.n);
	o.p[st[6] + 40] ^= 4;
	save(dir, "damaged.log", &o);
	o.n = 0;
	put(&o, a.p, st[8] + 30);
	save(dir, "partial.log", &o);
	o.n = 0;
	put(&o, a.p, a.n);
	put(&o, b.p, b.n);
	save(dir, "two.log", &o);
	o.n = 0;
	write_run(&o, &spec_new);
	save(dir, "newer.log", &o);
	o.n = 0;
	save(dir, "empty.log", &o);
	save_values(dir, "a_tsc.txt", r_tsc_a, 8);
	save_values(dir, "b_tsc.txt", r_tsc_b, 8);
	save_values(dir, "a_hpet.txt", r_hpet_a, 8);
	save_values(dir, "b_hpet.txt", r_hpet_b, 8);
	save_values(dir, "os_tsc.txt", r_os_tsc, 8);
	free(a.p);
	free(b.p);
	free(o.p);
	free(s.p);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--fixtures"))
		return fixtures(argv[2]);
	test_json();
	test_clean();
	test_clean_log();
	test_noise();
	test_bitflips(&spec_small);
	test_bitflips(&spec_small1);
	test_truncation(&spec_small);
	test_truncation(&spec_small1);
	test_schemas_agree();
	test_real_schema1();
	test_dup_reorder();
	test_runs();
	test_garbage();
	return check_done();
}
