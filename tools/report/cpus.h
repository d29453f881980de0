/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: the CPUs and the multi-CPU records (tools/lib/smprec.h).
 *
 * In each machine's section (cpus.c): the CPU table with each CPU's own read
 * cost, TSC offset and latency verdict; the TSC sync verdict with the offset
 * plot; the contention curves and the latency bins (cpus_levels.c); the
 * counters again on other core types.  With two or more multi-CPU logs, a page section (id "cpus")
 * sets their sync verdicts side by side and overlays their contention
 * curves, one colour per log.  The SVGs are drawn in cpus_svg.c. */
#ifndef TOOLS_REPORT_CPUS_H
#define TOOLS_REPORT_CPUS_H

#include <stddef.h>
#include "tools/lib/smprec.h"
#include "tools/report/html.h"

/* The record types these parts show (so the page's "other records" does not
 * show them raw again). */
int rp_cpus_type(const char *type);
/* Log i's CPUs, inside its machine section. */
void rp_cpus(const struct rp_ctx *c, size_t i);
/* How many logs on the page have more than one CPU; the page section is
 * there when two or more do. */
size_t rp_cpus_multi(const struct rp_ctx *c);
void rp_cpus_page(const struct rp_ctx *c);
/* A paragraph naming the damaged lines where a record of `kind` belongs. */
void rp_cpus_left_out(FILE *o, const struct smp_view *v, enum smp_kind kind);
/* The contention table and curves, and the latency bins (cpus_levels.c). */
void rp_cpus_contention(FILE *o, const struct smp_view *v, size_t log);
void rp_cpus_latency(FILE *o, const struct smp_view *v);

/* ---- the SVGs (cpus_svg.c) ---- */

/* Each CPU's TSC offset against CPU 0 with its uncertainty as an error bar
 * (class "offsets"; one <line class="err"> per measured pair). */
void rp_svg_offsets(FILE *o, const struct smp_view *v, const char *colour);

/* One line of a contention plot: a contention record in a colour. */
struct rp_curve {
	const struct lr_node *rec;
	const char *colour;
	const char *label;   /* legend text (escaped when drawn), or NULL: the counter's name at the line's end */
	size_t log;          /* the log's index, for data-log */
};
/* Cost (p50 solid, p99 dashed) against readers; class "contention", one
 * <polyline class="p50"> per curve. */
void rp_svg_contention(FILE *o, const struct rp_curve *curves, size_t n, const char *title);

#endif
