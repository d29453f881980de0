/* SPDX-License-Identifier: BSD-2-Clause */
/* Per-read cost histogram, kept on the device.
 *
 * Values below HIST_EXACT are counted exactly, one bin per integer.  Above it,
 * HDR-style log buckets: each power of two is split into HIST_SUB equal
 * buckets, so a bucket is at most 1/HIST_SUB of its lower bound wide and the
 * relative error of a value reported by its bucket's lower bound is below
 * 1/HIST_SUB (0.78 %).  Count, sum, min and max are exact for every value.
 *
 * Plain C, no platform calls: compiled into the image and into the host tools. */
#ifndef PROBE_HIST_H
#define PROBE_HIST_H

#include <stdint.h>
#include <stddef.h>

#define HIST_EXACT 16384u /* 2^14: covers 16 us at 1 GHz exactly, far past any single read */
#define HIST_EXACT_LOG2 14
#define HIST_SUB 128u     /* log buckets per power of two above HIST_EXACT */
#define HIST_LOG_BUCKETS ((64 - HIST_EXACT_LOG2) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t sum;      /* exact; saturates at UINT64_MAX (then sum_saturated is set) */
	uint64_t min, max; /* exact; min = UINT64_MAX when empty */
	int sum_saturated;
	double welford_mean, welford_m2; /* running mean / sum of squared deviations */
	uint32_t exact[HIST_EXACT];
	uint32_t logb[HIST_LOG_BUCKETS];
};

struct hist_mode {
	uint64_t value;
	uint64_t count;
};

void hist_init(struct hist *h);
void hist_add(struct hist *h, uint64_t v);
void hist_add_n(struct hist *h, uint64_t v, uint64_t n);   /* used by readers rebuilding a histogram */
void hist_merge(struct hist *dst, const struct hist *src);

/* Nearest-rank quantile: the smallest value v with count(<= v) >= ceil(ppm * N / 1e6).
 * ppm = 500000 gives the median, 999000 the p99.9.  Returns 0 for an empty histogram.
 * For a value in a log bucket the bucket's lower bound is returned. */
uint64_t hist_quantile(const struct hist *h, uint32_t ppm);
double hist_mean(const struct hist *h);  /* exact sum / count; 0 when empty */
double hist_sd(const struct hist *h);    /* sample standard deviation (n-1); 0 when n < 2 */

/* The k most common values, most common first; ties go to the smaller value.
 * Returns how many were written (fewer than k when there are fewer distinct bins). */
int hist_modes(const struct hist *h, struct hist_mode *out, int k);

/* Iterate the non-empty bins in increasing value order.  Start with *cursor = 0;
 * returns 0 when done.  A log bucket reports its lower bound as the value. */
int hist_next(const struct hist *h, size_t *cursor, uint64_t *value, uint64_t *count);

/* Bucket helpers (exposed for tests and for readers that rebuild histograms). */
size_t hist_bin_of(uint64_t v);             /* index over exact[] then logb[] */
uint64_t hist_bin_low(size_t bin);          /* smallest value that maps to bin */

#endif
