/* SPDX-License-Identifier: BSD-2-Clause */
/* Summary statistics and Student's t comparison, following current FreeBSD
 * ministat's arithmetic step for step so that its printed digits come out the
 * same: the mean is the sum in input order over n, the variance is two-pass
 * over the sorted values, and the comparison uses the 3-decimal t table.
 *
 * Freestanding: no libc; the sort is our own (there is no qsort in the image). */
#include <stdint.h>
#include "tools/lib/stats.h"

const double stats_conf_levels[STATS_NCONF] = { 80, 90, 95, 98, 99, 99.5 };

/* Two-sided Student's t quantiles in thousandths: rows are df 1..100, then
 * infinity; columns the confidence levels above, except that the last column
 * is the two-sided 99.8 % quantile (ministat's "99.5 %" column has always held
 * these, and its outputs depend on it).
 *
 * Computed from the t distribution (regularised incomplete beta, bisection)
 * and rounded to 3 decimals.  Seven entries, all in the last column, are kept
 * as the classic printed table has them instead of the rounded quantile, so
 * that comparisons print what ministat prints:
 *   df  1: 318.313 (quantile 318.3088)   df  2..6: as computed
 *   df  7:   4.782 (4.7853)   df  8: 4.499 (4.5008)   df  9: 4.296 (4.2968)
 *   df 10:   4.143 (4.1437)   df 11: 4.024 (4.0247)   df 12: 3.929 (3.9296) */
static const unsigned int t_milli[101][STATS_NCONF] = {
	{   3078,   6314,  12706,  31821,  63657, 318313 }, /* 1 */
	{   1886,   2920,   4303,   6965,   9925,  22327 }, /* 2 */
	{   1638,   2353,   3182,   4541,   5841,  10215 }, /* 3 */
	{   1533,   2132,   2776,   3747,   4604,   7173 }, /* 4 */
	{   1476,   2015,   2571,   3365,   4032,   5893 }, /* 5 */
	{   1440,   1943,   2447,   3143,   3707,   5208 }, /* 6 */
	{   1415,   1895,   2365,   2998,   3499,   4782 }, /* 7 */
	{   1397,   1860,   2306,   2896,   3355,   4499 }, /* 8 */
	{   1383,   1833,   2262,   2821,   3250,   4296 }, /* 9 */
	{   1372,   1812,   2228,   2764,   3169,   4143 }, /* 10 */
	{   1363,   1796,   2201,   2718,   3106,   4024 }, /* 11 */
	{   1356,   1782,   2179,   2681,   3055,   3929 }, /* 12 */
	{   1350,   1771,   2160,   2650,   3012,   3852 }, /* 13 */
	{   1345,   1761,   2145,   2624,   2977,   3787 }, /* 14 */
	{   1341,   1753,   2131,   2602,   2947,   3733 }, /* 15 */
	{   1337,   1746,   2120,   2583,   2921,   3686 }, /* 16 */
	{   1333,   1740,   2110,   2567,   2898,   3646 }, /* 17 */
	{   1330,   1734,   2101,   2552,   2878,   3610 }, /* 18 */
	{   1328,   1729,   2093,   2539,   2861,   3579 }, /* 19 */
	{   1325,   1725,   2086,   2528,   2845,   3552 }, /* 20 */
	{   1323,   1721,   2080,   2518,   2831,   3527 }, /* 21 */
	{   1321,   1717,   2074,   2508,   2819,   3505 }, /* 22 */
	{   1319,   1714,   2069,   2500,   2807,   3485 }, /* 23 */
	{   1318,   1711,   2064,   2492,   2797,   3467 }, /* 24 */
	{   1316,   1708,   2060,   2485,   2787,   3450 }, /* 25 */
	{   1315,   1706,   2056,   2479,   2779,   3435 }, /* 26 */
	{   1314,   1703,   2052,   2473,   2771,   3421 }, /* 27 */
	{   1313,   1701,   2048,   2467,   2763,   3408 }, /* 28 */
	{   1311,   1699,   2045,   2462,   2756,   3396 }, /* 29 */
	{   1310,   1697,   2042,   2457,   2750,   3385 }, /* 30 */
	{   1309,   1696,   2040,   2453,   2744,   3375 }, /* 31 */
	{   1309,   1694,   2037,   2449,   2738,   3365 }, /* 32 */
	{   1308,   1692,   2035,   2445,   2733,   3356 }, /* 33 */
	{   1307,   1691,   2032,   2441,   2728,   3348 }, /* 34 */
	{   1306,   1690,   2030,   2438,   2724,   3340 }, /* 35 */
	{   1306,   1688,   2028,   2434,   2719,   3333 }, /* 36 */
	{   1305,   1687,   2026,   2431,   2715,   3326 }, /* 37 */
	{   1304,   1686,   2024,   2429,   2712,   3319 }, /* 38 */
	{   1304,   1685,   2023,   2426,   2708,   3313 }, /* 39 */
	{   1303,   1684,   2021,   2423,   2704,   3307 }, /* 40 */
	{   1303,   1683,   2020,   2421,   2701,   3301 }, /* 41 */
	{   1302,   1682,   2018,   2418,   2698,   3296 }, /* 42 */
	{   1302,   1681,   2017,   2416,   2695,   3291 }, /* 43 */
	{   1301,   1680,   2015,   2414,   2692,   3286 }, /* 44 */
	{   1301,   1679,   2014,   2412,   2690,   3281 }, /* 45 */
	{   1300,   1679,   2013,   2410,   2687,   3277 }, /* 46 */
	{   1300,   1678,   2012,   2408,   2685,   3273 }, /* 47 */
	{   1299,   1677,   2011,   2407,   2682,   3269 }, /* 48 */
	{   1299,   1677,   2010,   2405,   2680,   3265 }, /* 49 */
	{   1299,   1676,   2009,   2403,   2678,   3261 }, /* 50 */
	{   1298,   1675,   2008,   2402,   2676,   3258 }, /* 51 */
	{   1298,   1675,   2007,   2400,   2674,   3255 }, /* 52 */
	{   1298,   1674,   2006,   2399,   2672,   3251 }, /* 53 */
	{   1297,   1674,   2005,   2397,   2670,   3248 }, /* 54 */
	{   1297,   1673,   2004,   2396,   2668,   3245 }, /* 55 */
	{   1297,   1673,   2003,   2395,   2667,   3242 }, /* 56 */
	{   1297,   1672,   2002,   2394,   2665,   3239 }, /* 57 */
	{   1296,   1672,   2002,   2392,   2663,   3237 }, /* 58 */
	{   1296,   1671,   2001,   2391,   2662,   3234 }, /* 59 */
	{   1296,   1671,   2000,   2390,   2660,   3232 }, /* 60 */
	{   1296,   1670,   2000,   2389,   2659,   3229 }, /* 61 */
	{   1295,   1670,   1999,   2388,   2657,   3227 }, /* 62 */
	{   1295,   1669,   1998,   2387,   2656,   3225 }, /* 63 */
	{   1295,   1669,   1998,   2386,   2655,   3223 }, /* 64 */
	{   1295,   1669,   1997,   2385,   2654,   3220 }, /* 65 */
	{   1295,   1668,   1997,   2384,   2652,   3218 }, /* 66 */
	{   1294,   1668,   1996,   2383,   2651,   3216 }, /* 67 */
	{   1294,   1668,   1995,   2382,   2650,   3214 }, /* 68 */
	{   1294,   1667,   1995,   2382,   2649,   3213 }, /* 69 */
	{   1294,   1667,   1994,   2381,   2648,   3211 }, /* 70 */
	{   1294,   1667,   1994,   2380,   2647,   3209 }, /* 71 */
	{   1293,   1666,   1993,   2379,   2646,   3207 }, /* 72 */
	{   1293,   1666,   1993,   2379,   2645,   3206 }, /* 73 */
	{   1293,   1666,   1993,   2378,   2644,   3204 }, /* 74 */
	{   1293,   1665,   1992,   2377,   2643,   3202 }, /* 75 */
	{   1293,   1665,   1992,   2376,   2642,   3201 }, /* 76 */
	{   1293,   1665,   1991,   2376,   2641,   3199 }, /* 77 */
	{   1292,   1665,   1991,   2375,   2640,   3198 }, /* 78 */
	{   1292,   1664,   1990,   2374,   2640,   3197 }, /* 79 */
	{   1292,   1664,   1990,   2374,   2639,   3195 }, /* 80 */
	{   1292,   1664,   1990,   2373,   2638,   3194 }, /* 81 */
	{   1292,   1664,   1989,   2373,   2637,   3193 }, /* 82 */
	{   1292,   1663,   1989,   2372,   2636,   3191 }, /* 83 */
	{   1292,   1663,   1989,   2372,   2636,   3190 }, /* 84 */
	{   1292,   1663,   1988,   2371,   2635,   3189 }, /* 85 */
	{   1291,   1663,   1988,   2370,   2634,   3188 }, /* 86 */
	{   1291,   1663,   1988,   2370,   2634,   3187 }, /* 87 */
	{   1291,   1662,   1987,   2369,   2633,   3185 }, /* 88 */
	{   1291,   1662,   1987,   2369,   2632,   3184 }, /* 89 */
	{   1291,   1662,   1987,   2368,   2632,   3183 }, /* 90 */
	{   1291,   1662,   1986,   2368,   2631,   3182 }, /* 91 */
	{   1291,   1662,   1986,   2368,   2630,   3181 }, /* 92 */
	{   1291,   1661,   1986,   2367,   2630,   3180 }, /* 93 */
	{   1291,   1661,   1986,   2367,   2629,   3179 }, /* 94 */
	{   1291,   1661,   1985,   2366,   2629,   3178 }, /* 95 */
	{   1290,   1661,   1985,   2366,   2628,   3177 }, /* 96 */
	{   1290,   1661,   1985,   2365,   2627,   3176 }, /* 97 */
	{   1290,   1661,   1984,   2365,   2627,   3175 }, /* 98 */
	{   1290,   1660,   1984,   2365,   2626,   3175 }, /* 99 */
	{   1290,   1660,   1984,   2364,   2626,   3174 }, /* 100 */
	{   1282,   1645,   1960,   2326,   2576,   3090 }, /* inf */
};

int stats_conf_index(double percent)
{
	int i;

	for (i = 0; i < STATS_NCONF; i++)
		if (percent == stats_conf_levels[i])
			return i;
	return -1;
}

double stats_student_t(int conf_index, int df)
{
	if (conf_index < 0 || conf_index >= STATS_NCONF)
		return __builtin_nan("");
	if (df < 1) /* no degrees of freedom: nothing can be proven */
		return __builtin_inf();
	if (df > 100)
		return t_milli[100][conf_index] / 1000.0;
	return t_milli[df - 1][conf_index] / 1000.0;
}

/* --- sorting: introsort (quicksort, heapsort past 2*log2(n) levels, insertion
 * sort below 16 elements).  The depth limit keeps adversarial inputs at
 * O(n log n).  NaNs do not crash it, but like
 * ministat's qsort they leave the order around them unspecified. */

static inline void swap_d(double *a, double *b)
{
	double t = *a;
	*a = *b;
	*b = t;
}

static void insertion_sort(double *a, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		double v = a[i];
		for (j = i; j > 0 && v < a[j - 1]; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static void sift_down(double *a, size_t root, size_t n)
{
	double v = a[root];
	size_t child;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && a[child] < a[child + 1])
			child++;
		if (!(v < a[child]))
			break;
		a[root] = a[child];
		root = child;
	}
	a[root] = v;
}

static void heap_sort(double *a, size_t n)
{
	size_t i;

	for (i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (i = n; i-- > 1;) {
		swap_d(&a[0], &a[i]);
		sift_down(a, 0, i);
	}
}

static void intro_sort(double *a, size_t n, int depth)
{
	while (n > 16) {
		size_t mid = n / 2, i, j;
		double p;

		if (depth-- == 0) {
			heap_sort(a, n);
			return;
		}
		/* Median of three moved to a[0]: then a[n-1] >= pivot bounds the
		 * left scan and the split point stays in [0, n-2], so both parts
		 * shrink. */
		if (a[mid] < a[0])
			swap_d(&a[mid], &a[0]);
		if (a[n - 1] < a[mid])
			swap_d(&a[n - 1], &a[mid]);
		if (a[mid] < a[0])
			swap_d(&a[mid], &a[0]);
		swap_d(&a[0], &a[mid]);
		p = a[0];
		i = 0;
		j = n - 1;
		for (;;) { /* Hoare partition, first pass starting at a[0] itself */
			while (a[i] < p)
				i++;
			while (p < a[j])
				j--;
			if (i >= j)
				break;
			swap_d(&a[i], &a[j]);
			i++;
			j--;
		}
		/* a[0..j] <= p <= a[j+1..n-1]; recurse on the smaller side. */
		if (j + 1 < n - j - 1) {
			intro_sort(a, j + 1, depth);
			a += j + 1;
			n -= j + 1;
		} else {
			intro_sort(a + j + 1, n - j - 1, depth);
			n = j + 1;
		}
	}
	insertion_sort(a, n);
}

void stats_sort(double *values, size_t n)
{
	int depth = 0;
	size_t m;

	for (m = n; m > 1; m >>= 1)
		depth += 2;
	intro_sort(values, n, depth);
}

/* --- radix sort, for callers that can lend a scratch array: faster than the
 * introsort on large inputs (tests/bench/ministat.sh's million values, for
 * one).  Each double becomes a 64-bit key that
 * orders as unsigned (sign bit flipped for positives, all bits for negatives);
 * then one LSD pass per byte, skipping bytes every key shares (the top ones,
 * usually).  Counts for all 8 bytes are taken in one read: 8 KB of stack. */

static inline uint64_t key_of(double d)
{
	uint64_t u;

	__builtin_memcpy(&u, &d, sizeof u);
	return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

static void radix_sort(double *values, size_t n, double *scratch)
{
	uint32_t count[8][256];
	double *src = values, *dst = scratch, *t;
	size_t i;
	int b;

	__builtin_memset(count, 0, sizeof count);
	for (i = 0; i < n; i++) {
		uint64_t k = key_of(values[i]);
		for (b = 0; b < 8; b++)
			count[b][(k >> (8 * b)) & 0xff]++;
	}
	for (b = 0; b < 8; b++) {
		uint32_t pos = 0, c;
		int d, shift = 8 * b;

		if (count[b][(key_of(values[0]) >> shift) & 0xff] == n)
			continue; /* every key has the same byte here */
		for (d = 0; d < 256; d++) {
			c = count[b][d];
			count[b][d] = pos;
			pos += c;
		}
		for (i = 0; i < n; i++)
			dst[count[b][(key_of(src[i]) >> shift) & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != values)
		for (i = 0; i < n; i++)
			values[i] = src[i];
}

static void summarise(double *values, size_t n, double sum, double *scratch, struct stats *out)
{
	double ss = 0, mean;
	size_t i;

	out->n = n;
	if (n == 0) {
		out->min = out->max = out->median = out->mean = out->var = out->sd = 0;
		return;
	}
	mean = sum / (double)n;
	if (scratch && n < 0xffffffffu)
		radix_sort(values, n, scratch);
	else
		stats_sort(values, n);
	for (i = 0; i < n; i++)
		ss += (values[i] - mean) * (values[i] - mean);
	out->min = values[0];
	out->max = values[n - 1];
	out->median = n % 2 ? values[n / 2] : (values[n / 2] + values[n / 2 - 1]) / 2;
	out->mean = mean;
	out->var = n > 1 ? ss / ((double)n - 1.0) : 0;
	if (out->var < 0) /* cannot happen two-pass; kept as the contract says */
		out->var = 0;
	out->sd = __builtin_sqrt(out->var);
}

/* The sum is taken in input order, before sorting, as ministat adds each
 * point as it reads it: the last digit of Avg can depend on it. */
static double input_sum(const double *values, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += values[i];
	return sum;
}

void stats_compute(double *values, size_t n, struct stats *out)
{
	summarise(values, n, input_sum(values, n), NULL, out);
}

void stats_compute_scratch(double *values, size_t n, double *scratch, struct stats *out)
{
	summarise(values, n, input_sum(values, n), scratch, out);
}

void stats_compare(const struct stats *base, const struct stats *other, int conf_index,
		   struct stats_diff *out)
{
	/* Names as in the formulas: x is the base set, d the other one. */
	double nd = (double)other->n, nx = (double)base->n;
	double vd = other->var, vx = base->var, ad = other->mean, ax = base->mean;
	double t, spool, re;
	size_t n = other->n + base->n;

	t = stats_student_t(conf_index, n < 3 ? 0 : n > 1000 ? 1000 : (int)(n - 2));
	spool = (nd - 1) * vd + (nx - 1) * vx;
	spool /= nd + nx - 2;
	spool = __builtin_sqrt(spool);
	out->pooled_sd = spool;
	out->diff = ad - ax;
	out->err = t * (spool * __builtin_sqrt(1.0 / nd + 1.0 / nx));
	/* Current FreeBSD's relative half-width: the variance of d/x, with the
	 * base's variance scaled by (avg_d/avg_x)^2, instead of e/avg_x. */
	re = (nd - 1) * vd + (nx - 1) * vx * (ad * ad) / (ax * ax);
	re *= (nd + nx) / (nd * nx * (nd + nx - 2.0));
	re = t * __builtin_sqrt(re);
	out->pct = out->diff * 100 / ax;
	out->pct_err = re * 100 / ax;
	out->significant = out->diff > out->err || -out->diff > out->err;
}
