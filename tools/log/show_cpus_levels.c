/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe show`: contention and latency, the multi-CPU records that
 * compare counters under load (tools/log/show_cpus.h). */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "tools/log/show_cpus.h"
#include "tools/lib/logschema.h"
#include "tools/lib/textsafe.h"

#define LATENCY_ROWS 16 /* CPU rows of the latency table; past that, the failed ones */

/* ---- contention, latency ------------------------------------------------------ */

/* After a level's figures: its readers (up to 8 named), and a level whose
 * readers did not read at the same time said to be no contention. */
static void level_notes(FILE *o, const struct ld_contention_level *e)
{
	if (smp_level_concurrent(e->ld.node) == 0)
		fputs("  not concurrent", o);
	if (e->cpus.state != LD_SET)
		return;
	fputs(e->cpus.n > 8 ? "  CPUs" : "  CPU", o);
	for (size_t k = 0; k < e->cpus.n && k < 8; k++) {
		struct ld_uint c = ld_contention_level_cpus_at(e, k);
		fprintf(o, "%s", k ? "," : " ");
		if (c.state == LD_SET)
			fprintf(o, "%" PRIu64, c.v);
		else
			fputs("?", o);
	}
	if (e->cpus.n > 8)
		fprintf(o, ",... (%zu)", e->cpus.n);
}

/* The readers column: n, or "2 SMT" for the level of two siblings. */
static const char *readers_label(char *buf, size_t cap, const struct ld_contention_level *e)
{
	char b[32];
	snprintf(buf, cap, "%s%s", fmt_num(b, 32, e->n.node, -1), smp_level_siblings(e->ld.node) ? " SMT" : "");
	return buf;
}

/* One level's line: p1 the p50 of one reader, 0 when not known. */
static void level_line(FILE *o, const char *name, const struct ld_contention_level *e, double p1, bool overlap)
{
	char b[8][32];
	char rel[32] = "";
	uint64_t n = e->n.state == LD_SET ? e->n.v : 0;
	double x;

	if (e->p50_ns.state == LD_SET && p1 > 0 && n != 1)
		snprintf(rel, sizeof rel, "x%.2f", e->p50_ns.v / p1);
	fprintf(o, "  %-10s %7s %9s %9s %10s %10s %12s %9s", name, readers_label(b[6], 32, e),
		fmt_num(b[1], 32, e->p50_ns.node, 1), fmt_num(b[2], 32, e->p99_ns.node, 1),
		fmt_num(b[3], 32, e->worst_p50_ns.node, 1), fmt_num(b[4], 32, e->worst_p99_ns.node, 1),
		fmt_num(b[5], 32, e->reads_per_s.node, 0), rel);
	if (e->returned.state == LD_SET && e->returned.v < n)
		fprintf(o, "  only %" PRIu64 " of %" PRIu64 " returned", e->returned.v, n);
	if (overlap)
		fprintf(o, " %7s", fmt_num(b[7], 32, e->overlap.node, 3));
	if (lr_num(e->backwards.node, &x) && x > 0) /* any number, as written */
		fprintf(o, "  %.0f backwards", x);
	level_notes(o, e);
	fputs("\n", o);
}

static void contention_counter(FILE *o, const struct lr_node *node, bool overlap)
{
	struct ld_contention c;
	struct ld_contention_level one;
	char b[4][32], shown_name[64];
	const char *name;
	double p1;

	ld_decode_contention(node, &c);
	name = show_cpus_str(shown_name, sizeof shown_name, c.counter.node, "?");
	if (c.refused.state == LD_SET) {
		fprintf(o, "  %-10s refused: ", name);
		ts_puts(o, c.refused.s);
		fputs("\n", o);
		return;
	}
	ld_decode_contention_level(smp_level(node, 1), &one);
	p1 = one.p50_ns.state == LD_SET ? one.p50_ns.v : 0;
	for (size_t k = 0; c.readers.state == LD_SET && k < c.readers.n; k++) {
		struct ld_contention_level e;
		ld_contention_readers_at(&c, k, &e);
		level_line(o, k ? "" : name, &e, p1, overlap);
	}
	fprintf(o, "  %-10s backwards: %s of %s ordered pairs across CPUs (largest %s ticks), %s on one CPU\n", "",
		fmt_num(b[0], 32, c.backwards.node, -1), fmt_num(b[1], 32, c.ordered.node, -1),
		fmt_num(b[2], 32, c.max_backward_ticks.node, -1), fmt_num(b[3], 32, c.same_cpu_backwards.node, -1));
}

void show_cpus_contention(FILE *o, const struct smp_view *v)
{
	bool overlap = false;
	show_cpus_left_out(o, v, SMP_CONTENTION, "contention");
	if (!v->ncontention)
		return;
	for (size_t i = 0; i < v->ncontention; i++)
		overlap |= smp_has_overlap(v->contention[i]);
	fputs("contention: each counter read by 1, 2, 4 ... N CPUs at once; p50/p99: the median over the readers\n"
	      "            of each reader's; worst: the slowest reader's; reads/s: all readers together\n",
	      o);
	if (overlap)
		fputs("            readers spread over packages, then cores, then SMT siblings (2 SMT: two of one core);\n"
		      "            overlap: the share of the level's window in which all its readers were reading\n",
		      o);
	fprintf(o, "  %-10s %7s %9s %9s %10s %10s %12s %9s", "counter", "readers", "p50 ns", "p99 ns", "worst p50",
		"worst p99", "reads/s", "p50 vs 1");
	fputs(overlap ? " overlap\n" : "\n", o);
	for (size_t i = 0; i < v->ncontention; i++)
		contention_counter(o, v->contention[i], overlap);
}

static void latency_row(FILE *o, const struct ld_latency *l, const char *label, size_t cpu)
{
	struct ld_gap_bins bins;
	char b[4][32], verdict[64];
	struct ld_num g = ld_latency_max_gap_ns_at(l, cpu);
	struct ld_num at = ld_latency_max_gap_at_ns_at(l, cpu);

	ld_latency_bins_at(l, cpu, &bins);
	/* the seven counts by their place: a CPU's bins are a list */
	bool listed = bins.ld.state == LD_SET && bins.ld.node->kind == LR_ARR;
	const struct ld_uint *count[] = { &bins.le_1us,  &bins.le_10us,  &bins.le_100us,  &bins.le_1ms,
					  &bins.le_10ms, &bins.le_100ms, &bins.over_100ms };
	fprintf(o, "  %5s", label);
	for (size_t k = 0; k < sizeof count / sizeof count[0]; k++)
		fprintf(o, " %9s", fmt_num(b[0], 32, listed ? count[k]->node : NULL, -1));
	if (g.state == LD_SET)
		snprintf(b[1], 32, "%.1f", g.v / 1e3);
	else
		snprintf(b[1], 32, "-");
	fprintf(o, " %12s", b[1]);
	if (at.state == LD_SET)
		snprintf(b[2], 32, "%.3f", at.v / 1e6);
	else
		snprintf(b[2], 32, "-");
	fprintf(o, " %10s", b[2]);
	fprintf(o, " %5s  %s\n", fmt_num(b[3], 32, ld_latency_smi_delta_at(l, cpu).node, -1),
		show_cpus_str(verdict, sizeof verdict, ld_latency_verdict_at(l, cpu).node, "-"));
}

void show_cpus_latency(FILE *o, const struct smp_view *v)
{
	struct ld_latency l;
	struct ld_num g;
	char b[6][32];
	size_t n, rows = 0, failed = 0;

	show_cpus_left_out(o, v, SMP_LATENCY, "latency");
	if (!v->latency)
		return;
	ld_decode_latency(v->latency, &l);
	if (l.refused.state == LD_SET) {
		fputs("latency   refused: ", o);
		ts_puts(o, l.refused.s);
		fputs("\n", o);
		return;
	}
	n = l.verdict.state == LD_SET ? l.verdict.n : 0;
	fprintf(o, "latency   %s s on %s CPUs, gaps between TSC reads (limit %s ns): %s failed",
		fmt_num(b[0], 32, l.seconds.node, -1), fmt_num(b[1], 32, l.cpus.node, -1),
		fmt_num(b[2], 32, l.limit_ns.node, -1), fmt_num(b[3], 32, l.failed.node, -1));
	g = ld_latency_max_gap_ns_at(&l, l.worst_cpu.v);
	if (l.worst_cpu.state == LD_SET && g.state == LD_SET)
		fprintf(o, ", worst CPU %s (%.1f us)", fmt_num(b[4], 32, l.worst_cpu.node, -1), g.v / 1e3);
	fprintf(o, "; %s TSC steps back\n", fmt_num(b[5], 32, l.backwards.node, -1));
	fprintf(o, "  %5s %9s %9s %9s %9s %9s %9s %9s %12s %10s %5s  %s\n", "cpu", "<=1us", "<=10us", "<=100us",
		"<=1ms", "<=10ms", "<=100ms", ">100ms", "max gap us", "at ms", "SMIs", "verdict");
	for (size_t c = 0; c < n; c++)
		failed += !strcmp(ld_str_or(ld_latency_verdict_at(&l, c), ""), "fail");
	for (size_t c = 0; c < n && rows < LATENCY_ROWS; c++) {
		if (n > LATENCY_ROWS && strcmp(ld_str_or(ld_latency_verdict_at(&l, c), ""), "fail"))
			continue; /* many CPUs: the failed ones */
		snprintf(b[0], 32, "%zu", c);
		latency_row(o, &l, b[0], c);
		rows++;
	}
	if (n > rows)
		fprintf(o, "  (%zu more CPU%s not listed: %zu of them failed)\n", n - rows, n - rows == 1 ? "" : "s",
			failed > rows ? failed - rows : 0);
}
