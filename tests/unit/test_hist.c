/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/hist.c against brute force: sorted arrays for quantiles, two-pass
 * mean/sd, one-histogram-for-everything for merge and add_n. */
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include "probe/hist.h"
#include "tests/unit/check.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_rand(void) /* xorshift64*: deterministic, no libc state */
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static struct hist *new_hist(void)
{
	struct hist *h = malloc(sizeof *h);
	hist_init(h);
	return h;
}

/* What the histogram should answer: the nearest-rank value, reported by its bin. */
static uint64_t brute_quantile(const uint64_t *sorted, size_t n, uint32_t ppm)
{
	uint64_t rank = ((uint64_t)ppm * n + 999999) / 1000000;
	if (rank == 0)
		rank = 1;
	return hist_bin_low(hist_bin_of(sorted[rank - 1]));
}

/* A mix like real reads: mostly small exact values, a tail of large ones,
 * and a few near 2^63 and 2^64. */
static uint64_t draw(int kind)
{
	uint64_t r = next_rand();
	switch (kind) {
	case 0: return r % 20000;                         /* straddles HIST_EXACT */
	case 1: return r >> (next_rand() % 64);           /* every magnitude */
	case 2: return ((uint64_t)1 << 63) - (r % 100000) + (r % 3) * 50000; /* near 2^63 */
	default: return 40 + r % 8;                       /* few distinct values */
	}
}

static void test_quantiles(void)
{
	static const uint32_t ppms[] = { 0, 1, 1000, 250000, 500000, 750000, 900000,
					 990000, 999000, 999999, 1000000 };
	int kind, trial;

	for (kind = 0; kind < 4; kind++) {
		for (trial = 0; trial < 3; trial++) {
			size_t n = trial == 0 ? 1 + next_rand() % 7 : 1000 + next_rand() % 50000;
			uint64_t *v = malloc(n * sizeof *v);
			struct hist *h = new_hist();
			size_t i, p;
			int bad = 0;

			for (i = 0; i < n; i++) {
				v[i] = draw(kind);
				hist_add(h, v[i]);
			}
			qsort(v, n, sizeof *v, cmp_u64);
			for (p = 0; p < sizeof ppms / sizeof ppms[0]; p++) {
				uint64_t got = hist_quantile(h, ppms[p]);
				uint64_t want = brute_quantile(v, n, ppms[p]);
				if (got != want) {
					if (!bad)
						printf("  kind %d n %zu ppm %u: got %llu want %llu\n", kind, n,
						       ppms[p], (unsigned long long)got, (unsigned long long)want);
					bad = 1;
				}
			}
			check(!bad, "quantiles match sorted array (kind %d, n %zu)", kind, n);
			check(COND(h->count == n) && COND(h->min == v[0]) && COND(h->max == v[n - 1]),
			      "count/min/max exact (kind %d, n %zu)", kind, n);
			free(v);
			free(h);
		}
	}
}

static void test_quantile_edges(void)
{
	struct hist *h = new_hist();

	check(COND(hist_quantile(h, 500000) == 0) && COND(hist_mean(h) == 0) && COND(hist_sd(h) == 0),
	      "empty: quantile, mean and sd are 0");
	hist_add(h, 77);
	check(COND(hist_quantile(h, 500000) == 77) && COND(hist_quantile(h, 990000) == 77) &&
		      COND(hist_quantile(h, 999000) == 77),
	      "n=1: p50 = p99 = p99.9 = the value");
	check(hist_sd(h) == 0, "n=1: sd is 0");
	hist_add(h, 10);
	/* n=2: ceil(0.5*2) = 1 -> the lower value; ceil(0.99*2) = 2 -> the upper. */
	check(hist_quantile(h, 500000) == 10, "n=2: p50 is the lower value (rank 1)");
	check(hist_quantile(h, 500001) == 77, "n=2: just above p50 is the upper value");
	check(COND(hist_quantile(h, 990000) == 77) && COND(hist_quantile(h, 999000) == 77),
	      "n=2: p99 and p99.9 are the upper value");
	hist_init(h);
	hist_add_n(h, 5000, 1000);
	check(COND(hist_quantile(h, 1) == 5000) && COND(hist_quantile(h, 500000) == 5000) &&
		      COND(hist_quantile(h, 999000) == 5000) && COND(hist_quantile(h, 1000000) == 5000),
	      "all equal: every quantile is the value");
	check(COND(hist_sd(h) == 0) && COND(hist_mean(h) == 5000), "all equal: mean is the value, sd 0");
	/* 1000 values 1..1000: p99.9 = rank 999, p99 = rank 990, p50 = rank 500. */
	hist_init(h);
	for (int i = 1000; i >= 1; i--)
		hist_add(h, (uint64_t)i);
	check(COND(hist_quantile(h, 500000) == 500) && COND(hist_quantile(h, 990000) == 990) &&
		      COND(hist_quantile(h, 999000) == 999) && COND(hist_quantile(h, 999001) == 1000),
	      "1..1000: p50 500, p99 990, p99.9 999, just above 1000");
	free(h);
}

static void test_modes(void)
{
	struct hist *h = new_hist();
	struct hist_mode m[8];
	int n;

	hist_add_n(h, 30, 5);
	hist_add_n(h, 10, 5);
	hist_add_n(h, 20, 7);
	hist_add_n(h, 40, 2);
	hist_add_n(h, 100000, 5); /* a log bucket ties too */
	n = hist_modes(h, m, 3);
	check(COND(n == 3) && COND(m[0].value == 20) && COND(m[0].count == 7) && COND(m[1].value == 10) &&
		      COND(m[1].count == 5) && COND(m[2].value == 30),
	      "modes: most common first, ties to the smaller value");
	n = hist_modes(h, m, 8);
	check(COND(n == 5) && COND(m[3].value == hist_bin_low(hist_bin_of(100000))) && COND(m[4].value == 40),
	      "modes: fewer distinct bins than k returns them all (%d)", n);
	n = hist_modes(h, m, 1);
	check(COND(n == 1) && COND(m[0].value == 20), "modes: k=1 is the mode");
	hist_init(h);
	check(hist_modes(h, m, 4) == 0, "modes: empty histogram has none");
	free(h);
}

static void test_merge_and_add_n(void)
{
	struct hist *a = new_hist(), *b = new_hist(), *all = new_hist(), *rep = new_hist(),
		    *batch = new_hist();
	size_t i, ca = 0, cb = 0;
	uint64_t va, vb, ra, rb;
	int same = 1;

	for (i = 0; i < 30000; i++) {
		uint64_t v = draw(i % 3 == 0 ? 1 : 0) >> (i % 2 ? 20 : 0);
		hist_add(i % 3 ? a : b, v);
		hist_add(all, v);
	}
	hist_merge(a, b);
	check(COND(a->count == all->count) && COND(a->sum == all->sum) && COND(a->min == all->min) &&
		      COND(a->max == all->max) && COND(!memcmp(a->exact, all->exact, sizeof a->exact)) &&
		      COND(!memcmp(a->logb, all->logb, sizeof a->logb)),
	      "merge: bins and exact fields equal one histogram");
	check(COND(fabs(hist_sd(a) - hist_sd(all)) <= 1e-9 * hist_sd(all)) &&
		      COND(fabs(a->welford_mean - all->welford_mean) <= 1e-12 * all->welford_mean),
	      "merge: Welford mean/sd agree (%.17g vs %.17g)", hist_sd(a), hist_sd(all));
	ca = 0;
	while (hist_next(a, &ca, &va, &ra)) {
		if (!hist_next(all, &cb, &vb, &rb) || va != vb || ra != rb)
			same = 0;
	}
	check(COND(same) && COND(!hist_next(all, &cb, &vb, &rb)), "merge: hist_next walks the same bins");

	for (i = 0; i < 5; i++) {
		uint64_t v = 100 + i * 7919, n = 1 + i * 311;
		for (uint64_t k = 0; k < n; k++)
			hist_add(rep, v);
		hist_add_n(batch, v, n);
	}
	hist_add_n(batch, 12345, 0);
	check(COND(rep->count == batch->count) && COND(rep->sum == batch->sum) && COND(rep->min == batch->min) &&
		      COND(rep->max == batch->max) && COND(!memcmp(rep->exact, batch->exact, sizeof rep->exact)),
	      "add_n: same bins and exact fields as n adds");
	check(COND(fabs(hist_sd(rep) - hist_sd(batch)) <= 1e-9 * hist_sd(rep)) &&
		      COND(fabs(rep->welford_mean - batch->welford_mean) <= 1e-12 * rep->welford_mean),
	      "add_n: same mean/sd as n adds (%.17g vs %.17g)", hist_sd(rep), hist_sd(batch));
	free(a);
	free(b);
	free(all);
	free(rep);
	free(batch);
}

static void test_bins(void)
{
	size_t bin, nbins = HIST_EXACT + HIST_LOG_BUCKETS;
	int ok = 1, i;
	double worst = 0;

	for (bin = 0; bin < nbins; bin++) {
		uint64_t lo = hist_bin_low(bin);
		if (hist_bin_of(lo) != bin || (bin && hist_bin_of(lo - 1) != bin - 1))
			ok = 0;
	}
	check(ok, "bin_of(bin_low(b)) == b and bin_low(b)-1 falls in b-1, for all %zu bins", nbins);
	check(COND(hist_bin_of(HIST_EXACT - 1) == HIST_EXACT - 1) && COND(hist_bin_of(HIST_EXACT) == HIST_EXACT) &&
		      COND(hist_bin_of(UINT64_MAX) == nbins - 1),
	      "bin edges: 16383, 16384, 2^64-1");
	ok = 1;
	for (i = 0; i < 200000; i++) {
		uint64_t v = next_rand() >> (next_rand() % 50);
		uint64_t lo = hist_bin_low(hist_bin_of(v));
		double rel = (double)(v - lo) / (double)lo;
		if (v < HIST_EXACT ? lo != v : (lo > v || rel >= 1.0 / HIST_SUB))
			ok = 0;
		if (rel > worst)
			worst = rel;
	}
	check(ok, "random values: exact below 16384, lower bound within 1/128 above (worst %.6f)", worst);
}

static void test_mean_sd(void)
{
	struct hist *h = new_hist();
	static uint64_t v[20000];
	double sum = 0, mean, ss = 0, sd;
	size_t i, n = sizeof v / sizeof v[0];

	for (i = 0; i < n; i++) {
		v[i] = 1000000000ull + next_rand() % 5000; /* large offset, small spread */
		hist_add(h, v[i]);
		sum += (double)v[i];
	}
	mean = sum / n;
	for (i = 0; i < n; i++)
		ss += ((double)v[i] - mean) * ((double)v[i] - mean);
	sd = sqrt(ss / (n - 1));
	check(fabs(hist_mean(h) - mean) <= 1e-9, "mean equals two-pass mean (%.6f vs %.6f)", hist_mean(h), mean);
	check(fabs(hist_sd(h) - sd) <= 1e-9 * sd, "sd equals two-pass sd (%.9f vs %.9f)", hist_sd(h), sd);
	hist_init(h);
	hist_add(h, UINT64_MAX);
	hist_add(h, UINT64_MAX);
	check(COND(h->sum_saturated) && COND(h->sum == UINT64_MAX) && COND(hist_mean(h) == (double)UINT64_MAX),
	      "sum saturates; mean falls back to the running mean");
	free(h);
}

int main(void)
{
	test_quantiles();
	test_quantile_edges();
	test_modes();
	test_merge_and_add_n();
	test_bins();
	test_mean_sd();
	return check_done();
}
