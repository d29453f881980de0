/* SPDX-License-Identifier: BSD-2-Clause */
/* The ministat block, printed the way FreeBSD's ministat(1) prints it: legend,
 * ASCII distribution plot, the N/Min/Max/Median/Avg/Stddev table, and for
 * every dataset after the first its Student's t comparison with the first
 * (tools/lib/stats.h does the numbers).
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
 * The plot is drawn by tools/stat/ministat_plot.c, the rest by
 * tools/lib/ministat_print.c.
 * One implementation for `tickprobe stat` (a drop-in ministat, checked plot
 * for plot against 220 published runs by tests/stat/test_ministat.sh) and
 * `tickprobe compare`: stat lays out its own block from the parts, compare
 * calls ms_print. */
#ifndef TOOLS_LIB_MINISTAT_PRINT_H
#define TOOLS_LIB_MINISTAT_PRINT_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include "tools/lib/stats.h"

#define MS_WIDTH 74 /* plot columns between the frame bars, ministat's default */
/* Datasets one plot can show: a cell holds the OR of the numbers 1..7 of the
 * sets with a point there (x|+ = 3 = '*'), as ministat draws it. */
#define MS_PLOT_SETS 7

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

/* Prints the whole block to out.  res, when not NULL, receives nsets results.
 * Returns 0, or -1 (printing nothing) for an unknown confidence level or
 * when out of memory. */
int ms_print(FILE *out, const struct ms_set *sets, size_t nsets, const struct ms_opts *opt,
	     struct ms_result *res);

/* ---- the parts, for callers that lay out their own block (tickprobe stat) -- */

/* A dataset ready to print: its values ascending, as nv distinct-or-not
 * values each count[i] times (count NULL: once each, nv == st->n), and its
 * summary as it is to be printed and drawn (stat -P puts the population sd
 * in st->sd). */
struct ms_sorted {
	const char *name;
	const double *v;
	const uint64_t *count;
	size_t nv;
	const struct stats *st;
};

/* Dataset symbols in order: x + * % # @ O, then more for the table. */
char ms_symbol(size_t i);
void ms_legend(FILE *out, const struct ms_sorted *sets, size_t nsets);
/* The plot, width columns between the bars.  A width below 1 or a zero
 * span prints "[no plot, span is zero width]", as ministat does; more than
 * MS_PLOT_SETS sets, "[no plot, more than 7 datasets]".  separate_bars: one
 * avg/median/sd line per set (ministat -s) instead of all on one.  Sets with
 * no values are left out. */
void ms_plot(FILE *out, const struct ms_sorted *sets, size_t nsets, int width, int separate_bars);
void ms_table_header(FILE *out);
void ms_table_row(FILE *out, size_t i, const struct stats *st);
/* "Difference at 95.0% confidence" and its three lines, or "No difference
 * proven at 95.0% confidence". */
void ms_difference(FILE *out, const struct stats_diff *d, double conf);

#endif
