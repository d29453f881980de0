/* SPDX-License-Identifier: BSD-2-Clause */
/* Summary statistics and Student's t comparison, as FreeBSD's ministat does
 * them (current version), but with an exact two-pass variance.
 * Host side only: the commands and the tests; the image writes histograms
 * and leaves every statistic to the host. */
#ifndef TOOLS_LIB_STATS_H
#define TOOLS_LIB_STATS_H

#include <stddef.h>

struct stats {
	size_t n;
	double min, max, median, mean, var, sd;
};

/* Sorts values in place, then summarises them.  The median of an even n is
 * the mean of the two middle values (current FreeBSD); var is the two-pass
 * sample variance (n-1), clamped at 0; all zero when n == 0. */
void stats_compute(double *values, size_t n, struct stats *out);

/* The same, faster on big inputs: sorts with an LSD radix sort through
 * scratch[n], which the caller lends (8 KB of stack besides). */
void stats_compute_scratch(double *values, size_t n, double *scratch, struct stats *out);

/* The in-place sort stats_compute uses (introsort, ascending; the image has
 * no qsort).  Exposed for readers that sort before summarising themselves. */
void stats_sort(double *values, size_t n);

/* ministat's confidence levels, by index: 80, 90, 95, 98, 99, 99.5. */
#define STATS_NCONF 6
extern const double stats_conf_levels[STATS_NCONF];
int stats_conf_index(double percent); /* -1 when not one of the levels */

/* ministat's t table: two-sided quantiles, 3 decimals, df 1..100, then the
 * infinity row.  Its column labelled 99.5 % holds two-sided 99.8 % quantiles
 * (df=1: 318.313, limit 3.090): kept as is, so results match ministat. */
double stats_student_t(int conf_index, int df);

struct stats_diff {
	int significant;   /* |diff| > err */
	double diff, err;  /* other.mean - base.mean, and its confidence half-width */
	double pct, pct_err; /* relative to base.mean, in percent (current FreeBSD formula) */
	double pooled_sd;
};

void stats_compare(const struct stats *base, const struct stats *other, int conf_index,
		   struct stats_diff *out);

#endif
