/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: a run's contention and latency records, in its CPUs
 * section (tools/report/cpus.h). */
#include <string.h>
#include "tools/report/cpus.h"
#include "tools/report/machine.h"

static const char *const latency_bins[7] = { "&le;1 &micro;s", "&le;10 &micro;s", "&le;100 &micro;s", "&le;1 ms",
					     "&le;10 ms",      "&le;100 ms",      "&gt;100 ms" };

/* A level's overlap and readers, for a log that has them: a level whose
 * readers did not read at the same time is marked, not shown as contention. */
static void level_placement(FILE *o, const struct ld_contention_level *e)
{
	int concurrent = smp_level_concurrent(e->ld.node);

	fprintf(o, "<td class=\"n%s\">", concurrent == 0 ? " bad" : "");
	rp_num(o, e->overlap.node, 3);
	fputs("</td><td>", o);
	if (smp_level_siblings(e->ld.node))
		fputs("SMT siblings: ", o);
	for (size_t i = 0; e->cpus.state == LD_SET && i < e->cpus.n; i++) {
		rp_value(o, ld_contention_level_cpus_at(e, i).node, "?");
		fputs(i + 1 < e->cpus.n ? "," : "", o);
	}
	if (concurrent == 0)
		fputs(" <span class=\"bad\">not concurrent: the readers hardly overlapped</span>", o);
	fputs("</td>", o);
}

static void level_row(FILE *o, const struct ld_contention_level *e, bool placed)
{
	uint64_t asked = e->n.state == LD_SET ? e->n.v : 0;
	uint64_t ret = e->returned.state == LD_SET ? e->returned.v : 0;

	rp_td(o, e->n.node, -1);
	fprintf(o, "<td class=\"n%s\">", ret < asked ? " bad" : "");
	rp_num(o, e->returned.node, -1);
	fputs("</td>", o);
	rp_td(o, e->p50_ns.node, 1);
	rp_td(o, e->p99_ns.node, 1);
	rp_td(o, e->worst_p50_ns.node, 1);
	rp_td(o, e->worst_p99_ns.node, 1);
	rp_td(o, e->reads_per_s.node, 0);
	rp_td(o, e->backwards.node, -1);
	if (placed)
		level_placement(o, e);
	fputs("</tr>\n", o);
}

/* One counter's rows; whether it has levels to plot. */
static bool contention_rows(FILE *o, const struct ld_contention *c, bool placed)
{
	size_t rows = c->readers.state == LD_SET ? c->readers.n : 0;

	fprintf(o, "<tr><td rowspan=\"%zu\"><b>", rows ? rows : 1);
	rp_value(o, c->counter.node, "?");
	fputs("</b></td>", o);
	if (c->refused.state != LD_ABSENT) {
		fputs("<td colspan=\"8\" class=\"bad\">refused: ", o);
		rp_value(o, c->refused.node, "");
		fputs("</td></tr>\n", o);
		return false;
	}
	if (!rows)
		fputs("<td colspan=\"8\" class=\"dim\">no levels</td></tr>\n", o);
	for (size_t i = 0; i < rows; i++) {
		struct ld_contention_level e;
		ld_contention_readers_at(c, i, &e);
		if (i)
			fputs("<tr>", o);
		level_row(o, &e, placed);
	}
	return rows;
}

static void contention_backwards(FILE *o, const struct smp_view *v)
{
	fputs("</table>\n<p class=\"dim\">Backward steps across CPUs, counted where the order is proven: ", o);
	for (size_t i = 0; i < v->ncontention; i++) {
		struct ld_contention c;
		ld_decode_contention(v->contention[i], &c);
		if (c.refused.state != LD_ABSENT)
			continue;
		rp_value(o, c.counter.node, "?");
		fputs(" ", o);
		rp_value(o, c.backwards.node, "?");
		fputs(" of ", o);
		rp_value(o, c.ordered.node, "?");
		fputs(i + 1 < v->ncontention ? "; " : ".", o);
	}
	fputs("</p>\n", o);
}

void rp_cpus_contention(FILE *o, const struct smp_view *v, size_t log)
{
	struct rp_curve cv[SMP_MAX_CONTENTION];
	size_t n = 0;
	bool placed = false;

	for (size_t i = 0; i < v->ncontention; i++)
		placed |= smp_has_overlap(v->contention[i]);

	rp_cpus_left_out(o, v, SMP_CONTENTION);
	if (!v->ncontention)
		return;
	fputs("<h4>Contention</h4>\n<table><tr><th>counter</th><th class=\"n\">readers</th><th class=\"n\">returned</th>"
	      "<th class=\"n\">p50 ns</th><th class=\"n\">p99 ns</th><th class=\"n\">worst p50</th>"
	      "<th class=\"n\">worst p99</th><th class=\"n\">reads/s</th><th class=\"n\">backwards</th>",
	      o);
	fputs(placed ? "<th class=\"n\">overlap</th><th>CPUs</th></tr>\n" : "</tr>\n", o);
	for (size_t i = 0; i < v->ncontention; i++) {
		struct ld_contention c;
		ld_decode_contention(v->contention[i], &c);
		if (contention_rows(o, &c, placed) && n < SMP_MAX_CONTENTION)
			cv[n++] = (struct rp_curve){
				.rec = c.ld.node, .colour = rp_colour(log), .label = NULL, .log = log
			};
	}
	contention_backwards(o, v);
	if (n)
		rp_svg_contention(o, cv, n, "Contention: cost per read against readers");
}

static void latency_row(FILE *o, const struct ld_latency *l, size_t c)
{
	struct ld_gap_bins b;
	struct ld_str w = ld_latency_verdict_at(l, c);
	struct ld_num gap = ld_latency_max_gap_ns_at(l, c);
	struct ld_num at = ld_latency_max_gap_at_ns_at(l, c);

	ld_latency_bins_at(l, c, &b);
	fprintf(o, "<tr><td class=\"n\">%zu</td>", c);
	rp_td(o, b.le_1us.node, -1);
	rp_td(o, b.le_10us.node, -1);
	rp_td(o, b.le_100us.node, -1);
	rp_td(o, b.le_1ms.node, -1);
	rp_td(o, b.le_10ms.node, -1);
	rp_td(o, b.le_100ms.node, -1);
	rp_td(o, b.over_100ms.node, -1);
	fputs("<td class=\"n\">", o);
	if (gap.state == LD_SET)
		fprintf(o, "%.1f", gap.v / 1e3);
	else
		fputs("&ndash;", o);
	fputs("</td><td class=\"n\">", o);
	if (at.state == LD_SET)
		fprintf(o, "%.3f", at.v / 1e6);
	else
		fputs("&ndash;", o);
	fputs("</td>", o);
	rp_td(o, ld_latency_smi_delta_at(l, c).node, -1);
	fprintf(o, "<td class=\"%s\">", w.state == LD_SET && !strcmp(w.s, "pass") ? "ok" : "bad");
	rp_esc(o, w.state == LD_SET ? w.s : "?");
	fputs("</td></tr>\n", o);
}

void rp_cpus_latency(FILE *o, const struct smp_view *v)
{
	struct ld_latency l;

	rp_cpus_left_out(o, v, SMP_LATENCY);
	if (!v->latency)
		return;
	ld_decode_latency(v->latency, &l);
	fputs("<h4>Latency (gaps between TSC reads)</h4>\n", o);
	if (l.refused.state != LD_ABSENT) {
		fputs("<p class=\"bad\">Refused: ", o);
		rp_value(o, l.refused.node, "");
		fputs("</p>\n", o);
		return;
	}
	fputs("<p>Each CPU spun reading the TSC for ", o);
	rp_value(o, l.seconds.node, "?");
	fputs(" s; a CPU fails when its largest gap exceeds ", o);
	rp_value(o, l.limit_ns.node, "?");
	fputs(" ns. ", o);
	rp_value(o, l.failed.node, "?");
	fputs(" failed; TSC steps back: ", o);
	rp_value(o, l.backwards.node, "?");
	fputs(".</p>\n<table><tr><th class=\"n\">CPU</th>", o);
	for (int k = 0; k < 7; k++)
		fprintf(o, "<th class=\"n\">%s</th>", latency_bins[k]);
	fputs("<th class=\"n\">largest gap &micro;s</th><th class=\"n\">at ms</th><th class=\"n\">SMIs</th>"
	      "<th>verdict</th></tr>\n",
	      o);
	for (size_t c = 0; l.verdict.state == LD_SET && c < l.verdict.n; c++)
		latency_row(o, &l, c);
	fputs("</table>\n", o);
}
