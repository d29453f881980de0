/* SPDX-License-Identifier: BSD-2-Clause */
/* Both schemas through the host loader (tools/lib/logset.c) and the
 * histogram decoder (tools/lib/hist_decode.c): one run written by the real
 * writer (probe/log.c) in schema 2 and in schema 1 reads the same, and the
 * real schema-1 logs of tests/data/logs/schema1 decode as written. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/unit/check.h"
#include "tools/lib/logread.h"
#include "tools/lib/logset.h"
#include "tools/commands.h"
#include "tests/unit/log_runs.h"
#include "tools/lib/hist_decode.h"

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
	check(COND(logfile_load_mem(&f2, "a.log", b2.p, b2.n) == EXIT_CLEAN) &&
		      COND(logfile_load_mem(&f1, "a1.log", b1.p, b1.n) == EXIT_CLEAN) &&
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

int main(void)
{
	test_schemas_agree();
	test_real_schema1();
	return check_done();
}
