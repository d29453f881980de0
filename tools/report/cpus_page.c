/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: the page section "CPUs" (tools/report/cpus.h), there
 * when two or more logs ran on more than one CPU: their TSC sync verdicts
 * side by side, and each contended counter's curves overlaid, one colour a
 * log, with the figures in a table beneath.  As in `tickprobe compare`, a
 * contention level has one p50 and one rate and no rounds: nothing is
 * marked as different, and the page says why. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "tools/report/cpus.h"

#define NAME_SHOW 60 /* bytes of a log's name in a legend */

/* The sync record's cells: pairs, warps, the largest offset, Linux's view. */
static void sync_cells(FILE *o, const struct smp_view *v)
{
	struct smp_sync_summary sm;
	struct ld_tsc_sync s;
	struct ld_tsc_pair largest;
	int64_t off;
	uint64_t u;

	ld_decode_tsc_sync(v->sync, &s);
	smp_sync_summary(v, &sm);
	fprintf(o, "<td class=\"n\">%zu</td><td class=\"n\">", sm.pairs);
	rp_num(o, s.warps.node, -1);
	fputs("</td><td class=\"n\">", o);
	if (sm.largest && smp_pair_offset(sm.largest, &off, &u)) {
		ld_decode_tsc_pair(sm.largest, &largest);
		fprintf(o, "%+" PRId64 " &plusmn; %" PRIu64 " (CPU ", off, u);
		rp_value(o, largest.cpu.node, "?");
		fputs(")", o);
	} else {
		fputs("&ndash;", o);
	}
	fprintf(o, "</td><td>%s</td>", rp_true(&s.linux_would_mark_unstable) ? "marks it unstable" : "keeps it");
}

static void sync_row(FILE *o, size_t j, const struct smp_view *v)
{
	struct smp_spread sp;
	struct ld_cpus cpus;
	const char *w = smp_sync_word(v);
	char lines[160];

	ld_decode_cpus(v->cpus, &cpus);
	fputs("<tr><td>", o);
	rp_swatch(o, j);
	fputs("</td><td>", o);
	rp_value(o, cpus.started.node, "?");
	fputs(" of ", o);
	rp_value(o, cpus.count.node, "?");
	fprintf(o, "</td><td class=\"%s\">%s", !strcmp(w, "synchronized") ? "ok" : "bad", w);
	if (smp_left_out_lines(v, SMP_SYNC, lines, sizeof lines)) {
		fputs(" (", o);
		rp_esc(o, lines);
		fputs(" damaged, left out)", o);
	}
	fputs("</td>", o);
	if (!v->sync)
		fputs("<td colspan=\"4\"></td>", o);
	else
		sync_cells(o, v);
	if (smp_percpu_spread(v, "tsc", &sp))
		fprintf(o, "<td class=\"n\">%.1f / %.1f / %.1f %s</td>", sp.min, sp.median, sp.max, sp.ns ? "ns" : "cycles");
	else
		fputs("<td class=\"n\">&ndash;</td>", o);
	fputs("</tr>\n", o);
}

/* Reader counts of a counter over every log, sorted. */
static size_t levels_of(const struct smp_view *v, size_t nlogs, const char *counter, uint64_t *out, size_t cap)
{
	size_t n = 0;
	for (size_t j = 0; j < nlogs; j++) {
		struct ld_contention c;
		ld_decode_contention(smp_contention(&v[j], counter), &c);
		for (size_t l = 0; c.readers.state == LD_SET && l < c.readers.n; l++) {
			struct ld_contention_level e;
			uint64_t k;
			size_t i;
			ld_contention_readers_at(&c, l, &e);
			if (e.n.state != LD_SET)
				continue;
			k = e.n.v;
			for (i = 0; i < n && out[i] < k; i++)
				;
			if ((i < n && out[i] == k) || n == cap)
				continue;
			memmove(&out[i + 1], &out[i], (n - i) * sizeof *out);
			out[i] = k;
			n++;
		}
	}
	return n;
}

static void counter_figures(FILE *o, const struct rp_ctx *c, const struct smp_view *v, const char *counter)
{
	uint64_t lv[64];
	size_t nl = levels_of(v, c->nlogs, counter, lv, 64);

	fputs("<table class=\"contention-cmp\"><tr><th class=\"n\">readers</th>", o);
	for (size_t j = 0; j < c->nlogs; j++)
		if (smp_contention(&v[j], counter)) {
			fputs("<th class=\"n\" colspan=\"2\">", o);
			rp_swatch(o, j);
			fputs(" p50 ns, reads/s</th>", o);
		}
	fputs("</tr>\n", o);
	for (size_t l = 0; l < nl; l++) {
		fprintf(o, "<tr><td class=\"n\">%" PRIu64 "</td>", lv[l]);
		for (size_t j = 0; j < c->nlogs; j++) {
			const struct lr_node *rec = smp_contention(&v[j], counter);
			struct ld_contention_level e;
			if (!rec)
				continue;
			ld_decode_contention_level(smp_level(rec, lv[l]), &e);
			fputs("<td class=\"n\">", o);
			rp_num(o, e.p50_ns.node, 1);
			fputs("</td><td class=\"n\">", o);
			rp_num(o, e.reads_per_s.node, 0);
			fputs("</td>", o);
		}
		fputs("</tr>\n", o);
	}
	fputs("</table>\n", o);
}

/* The contended counters over every log, in order of first appearance. */
static size_t counters_of(const struct smp_view *v, size_t nlogs, const char **out, size_t cap)
{
	size_t n = 0;
	for (size_t j = 0; j < nlogs; j++)
		for (size_t i = 0; i < v[j].ncontention; i++) {
			struct ld_contention rec;
			const char *name;
			size_t k;
			ld_decode_contention(v[j].contention[i], &rec);
			if (rec.counter.state != LD_SET || rec.refused.state != LD_ABSENT)
				continue;
			name = rec.counter.s;
			for (k = 0; k < n && strcmp(out[k], name); k++)
				;
			if (k == n && n < cap)
				out[n++] = name;
		}
	return n;
}

void rp_cpus_page(const struct rp_ctx *c)
{
	FILE *o = c->out;
	struct smp_view *v = calloc(c->nlogs ? c->nlogs : 1, sizeof *v);
	const char *counters[SMP_MAX_CONTENTION];
	struct rp_curve cv[RP_MAX_LOGS];
	char *labels[RP_MAX_LOGS] = { NULL };
	size_t ncounters, multi = 0;

	if (!v) {
		fprintf(stderr, "tickprobe report: out of memory\n");
		exit(2);
	}
	for (size_t j = 0; j < c->nlogs; j++) {
		smp_view_load(&v[j], c->logs[j].run);
		multi += smp_multi(&v[j]);
	}
	if (multi < 2) {
		free(v);
		return;
	}
	fputs("<section id=\"cpus\">\n<h2>CPUs</h2>\n<p>The logs that ran on more than one CPU: whether their TSCs "
	      "agree, what a read costs on each CPU, and what a shared counter costs when many CPUs read it at once. "
	      "Each machine's own section has its CPU table and offset plot.</p>\n", o);
	fputs("<table><tr><th>log</th><th>CPUs running</th><th>TSC</th><th class=\"n\">pairs</th><th class=\"n\">warps</th>"
	      "<th class=\"n\">largest |offset|, cycles</th><th>Linux</th><th class=\"n\">tsc p50 min / median / max"
	      "</th></tr>\n", o);
	for (size_t j = 0; j < c->nlogs; j++)
		if (smp_multi(&v[j]))
			sync_row(o, j, &v[j]);
	fputs("</table>\n", o);
	ncounters = counters_of(v, c->nlogs, counters, SMP_MAX_CONTENTION);
	if (ncounters)
		fputs("<p class=\"dim\">Contention: a level has one p50 (the median over its readers) and one rate, "
		      "and no rounds, so no test: the curves are shown side by side, and no difference is marked.</p>\n", o);
	for (size_t j = 0; j < c->nlogs; j++) {
		const char *name = c->logs[j].run->name;
		size_t len = strlen(name);
		labels[j] = malloc(len + 16);
		if (labels[j])
			snprintf(labels[j], len + 16, "[%zu] %s%s", j + 1, len > NAME_SHOW ? "..." : "",
				 len > NAME_SHOW ? name + len - NAME_SHOW : name);
	}
	for (size_t k = 0; k < ncounters; k++) {
		size_t n = 0;
		char title[128];
		for (size_t j = 0; j < c->nlogs; j++) {
			struct ld_contention rec;
			ld_decode_contention(smp_contention(&v[j], counters[k]), &rec);
			if (rec.ld.state != LD_ABSENT && rec.refused.state == LD_ABSENT)
				cv[n++] = (struct rp_curve){ .rec = rec.ld.node,
							     .colour = rp_colour(j),
							     .label = labels[j] ? labels[j] : "?",
							     .log = j };
		}
		snprintf(title, sizeof title, "%s read by many CPUs at once", counters[k]);
		fputs("<h3>", o);
		rp_esc(o, title);
		fputs("</h3>\n", o);
		rp_svg_contention(o, cv, n, title);
		counter_figures(o, c, v, counters[k]);
	}
	for (size_t j = 0; j < c->nlogs; j++)
		free(labels[j]);
	fputs("</section>\n", o);
	free(v);
}
