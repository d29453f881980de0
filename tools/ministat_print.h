/* The ministat-style block: legend, ASCII distribution plot, the
 * N/Min/Max/Median/Avg/Stddev table, and for every dataset after the first
 * its Student's t comparison with the first (probe/stats.h does the numbers).
 *
 *   x tsc@a.log
 *   + tsc@b.log
 *   +--------------------------------------------------------------------------+
 *   |x  xx                                                          +  ++   + |
 *   | |_A_|                                                                    |
 *   |                                                          |__M_A__|       |
 *   +--------------------------------------------------------------------------+
 *       N           Min           Max        Median           Avg        Stddev
 *   x   5 …
 *   +   5 …
 *   Difference at 95.0% confidence
 *   	… +/- …
 *
 * Shared by `tickprobe compare` and anything else that prints ministat blocks. */
#ifndef TOOLS_MINISTAT_PRINT_H
#define TOOLS_MINISTAT_PRINT_H

#include <stdio.h>
#include <stddef.h>
#include "probe/stats.h"

#define MS_WIDTH 74    /* plot columns between the frame bars, ministat's default */
#define MS_MAX_SETS 32 /* datasets one plot can show (one bit each per cell) */

struct ms_set {
	const char *name;     /* shown in the legend */
	const double *values; /* not modified: the printer sorts a copy */
	size_t n;
};

struct ms_opts {
	int width;       /* plot width; <= 0 means MS_WIDTH */
	double conf;     /* confidence in percent: 80, 90, 95, 98, 99 or 99.5; 0 means 95 */
	int no_plot;     /* table and comparisons only (ministat -n) */
	int quiet;       /* no legend and no plot (ministat -q) */
};

struct ms_result {
	struct stats st;       /* the dataset's summary */
	int tested;            /* a comparison with set 0 was made (both n >= 2, index > 0) */
	struct stats_diff diff;
};

/* Dataset symbols in order: x + * % # @ O, then more. */
char ms_symbol(size_t i);

/* Prints the whole block to out.  res, when not NULL, receives nsets results.
 * Returns 0, or -1 (printing nothing) for an unknown confidence level. */
int ms_print(FILE *out, const struct ms_set *sets, size_t nsets, const struct ms_opts *opt,
	     struct ms_result *res);

/* The parts, for callers that lay out their own block. */
void ms_legend(FILE *out, const struct ms_set *sets, size_t nsets);
void ms_plot(FILE *out, const struct ms_set *sets, size_t nsets, int width);
void ms_table_header(FILE *out);
void ms_table_row(FILE *out, size_t i, const struct stats *st);
/* "Difference at 95.0% confidence" and its three lines, or "No difference
 * proven at 95.0% confidence". */
void ms_difference(FILE *out, const struct stats_diff *d, double conf);

#endif
