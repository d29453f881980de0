/* SPDX-License-Identifier: BSD-2-Clause */
/* Per-read cost histogram: exact bins below HIST_EXACT, log buckets above.
 *
 * Bucket index of a value v >= 2^14: with e = floor(log2 v) (14..63) and the
 * 7 bits below the leading one as s, the index is HIST_EXACT + (e-14)*128 + s.
 * The bucket then spans [2^e + s*2^(e-7), 2^e + (s+1)*2^(e-7)), so its width
 * over its lower bound is at most 2^(e-7)/2^e = 1/128.
 *
 * Freestanding: no libc, nothing large on the stack (struct hist is ~90 KB,
 * far more than the image's boot stack wants to give). */
#include "probe/hist.h"

#define HIST_BINS (HIST_EXACT + HIST_LOG_BUCKETS)

static inline uint32_t bin_get(const struct hist *h, size_t bin)
{
	return bin < HIST_EXACT ? h->exact[bin] : h->logb[bin - HIST_EXACT];
}

/* Bin counts are 32-bit to keep the struct small; a bin that would pass
 * 2^32-1 (over 4 s of back-to-back 1 ns reads into one value) saturates
 * instead of wrapping.  count/sum/min/max stay exact regardless. */
static inline void bin_add(struct hist *h, size_t bin, uint64_t n)
{
	uint32_t *c = bin < HIST_EXACT ? &h->exact[bin] : &h->logb[bin - HIST_EXACT];
	uint64_t t = (uint64_t)*c + n;
	*c = t > 0xffffffffu || t < n ? 0xffffffffu : (uint32_t)t;
}

static inline int log2_floor(uint64_t v) /* v > 0 */
{
	return 63 - __builtin_clzll(v);
}

size_t hist_bin_of(uint64_t v)
{
	int e;

	if (v < HIST_EXACT)
		return (size_t)v;
	e = log2_floor(v);
	return HIST_EXACT + (size_t)(e - HIST_EXACT_LOG2) * HIST_SUB +
	       (size_t)((v >> (e - 7)) & (HIST_SUB - 1));
}

uint64_t hist_bin_low(size_t bin)
{
	size_t k;
	int e;

	if (bin < HIST_EXACT)
		return bin;
	if (bin >= HIST_BINS)
		return UINT64_MAX;
	k = bin - HIST_EXACT;
	e = HIST_EXACT_LOG2 + (int)(k / HIST_SUB);
	return ((uint64_t)1 << e) + ((uint64_t)(k % HIST_SUB) << (e - 7));
}

void hist_init(struct hist *h)
{
	uint64_t *p = (uint64_t *)(void *)h->exact;
	size_t i, words = (sizeof h->exact + sizeof h->logb) / sizeof(uint64_t);

	/* exact[] and logb[] are adjacent uint32_t arrays of even length: clear
	 * them 8 bytes at a time (90 KB; byte stores take ~4x longer). */
	for (i = 0; i < words; i++)
		p[i] = 0;
	h->count = 0;
	h->sum = 0;
	h->min = UINT64_MAX;
	h->max = 0;
	h->sum_saturated = 0;
	h->welford_mean = 0;
	h->welford_m2 = 0;
}

static void add_sum(struct hist *h, uint64_t add)
{
	uint64_t s = h->sum + add;

	if (s < h->sum) {
		h->sum = UINT64_MAX;
		h->sum_saturated = 1;
	} else {
		h->sum = s;
	}
}

void hist_add(struct hist *h, uint64_t v)
{
	double delta;

	bin_add(h, hist_bin_of(v), 1);
	h->count++;
	add_sum(h, v);
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	delta = (double)v - h->welford_mean;
	h->welford_mean += delta / (double)h->count;
	h->welford_m2 += delta * ((double)v - h->welford_mean);
}

/* Chan et al.'s pairwise update: folds a group of nb values with mean mb and
 * squared-deviation sum m2b into the running mean/M2.  Equal to feeding the
 * values one by one in exact arithmetic. */
static void welford_combine(struct hist *h, uint64_t na, uint64_t nb, double mb, double m2b)
{
	double n = (double)na + (double)nb;
	double delta = mb - h->welford_mean;

	h->welford_mean += delta * ((double)nb / n);
	h->welford_m2 += m2b + delta * delta * ((double)na * (double)nb / n);
}

void hist_add_n(struct hist *h, uint64_t v, uint64_t n)
{
	uint64_t before = h->count, prod;

	if (n == 0)
		return;
	bin_add(h, hist_bin_of(v), n);
	h->count += n;
	if (__builtin_mul_overflow(v, n, &prod)) {
		h->sum = UINT64_MAX;
		h->sum_saturated = 1;
	} else {
		add_sum(h, prod);
	}
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	welford_combine(h, before, n, (double)v, 0.0);
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	size_t i;
	uint64_t before = dst->count;

	if (src->count == 0)
		return;
	for (i = 0; i < HIST_EXACT; i++)
		if (src->exact[i])
			bin_add(dst, i, src->exact[i]);
	for (i = 0; i < HIST_LOG_BUCKETS; i++)
		if (src->logb[i])
			bin_add(dst, HIST_EXACT + i, src->logb[i]);
	dst->count += src->count;
	add_sum(dst, src->sum);
	if (src->sum_saturated)
		dst->sum_saturated = 1;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	welford_combine(dst, before, src->count, src->welford_mean, src->welford_m2);
}

uint64_t hist_quantile(const struct hist *h, uint32_t ppm)
{
	uint64_t q, r, rank, seen = 0;
	size_t bin;

	if (h->count == 0)
		return 0;
	if (ppm > 1000000u)
		ppm = 1000000u;
	/* rank = ceil(ppm * N / 1e6) without a 128-bit product: split N into
	 * q*1e6 + r, so ppm*r stays below 1e12. */
	q = h->count / 1000000u;
	r = h->count % 1000000u;
	rank = (uint64_t)ppm * q + ((uint64_t)ppm * r + 999999u) / 1000000u;
	if (rank == 0)
		rank = 1;
	for (bin = 0; bin < HIST_BINS; bin++) {
		seen += bin_get(h, bin);
		if (seen >= rank)
			return hist_bin_low(bin);
	}
	/* Only reachable when a saturated bin lost counts: report the top. */
	return hist_bin_low(hist_bin_of(h->max));
}

double hist_mean(const struct hist *h)
{
	if (h->count == 0)
		return 0;
	if (h->sum_saturated) /* the exact sum no longer fits in 64 bits */
		return h->welford_mean;
	return (double)h->sum / (double)h->count;
}

double hist_sd(const struct hist *h)
{
	double m2 = h->welford_m2;

	if (h->count < 2 || m2 <= 0)
		return 0;
	return __builtin_sqrt(m2 / (double)(h->count - 1));
}

int hist_modes(const struct hist *h, struct hist_mode *out, int k)
{
	size_t bin;
	int have = 0, i;

	if (k <= 0)
		return 0;
	/* Bins are visited in increasing value order, so only a strictly larger
	 * count displaces an entry: on a tie the smaller value stays ahead. */
	for (bin = 0; bin < HIST_BINS; bin++) {
		uint64_t c = bin_get(h, bin);
		if (c == 0)
			continue;
		if (have == k && c <= out[k - 1].count)
			continue;
		i = have < k ? have++ : k - 1;
		while (i > 0 && out[i - 1].count < c) {
			out[i] = out[i - 1];
			i--;
		}
		out[i].value = hist_bin_low(bin);
		out[i].count = c;
	}
	return have;
}

int hist_next(const struct hist *h, size_t *cursor, uint64_t *value, uint64_t *count)
{
	size_t bin;

	for (bin = *cursor; bin < HIST_BINS; bin++) {
		uint32_t c = bin_get(h, bin);
		if (c) {
			*value = hist_bin_low(bin);
			*count = c;
			*cursor = bin + 1;
			return 1;
		}
	}
	*cursor = HIST_BINS;
	return 0;
}
