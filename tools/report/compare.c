/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: the comparisons, as `tickprobe compare` makes them.
 *
 * Per counter, each log's per-round p50 values (timer `rounds`, ns) against
 * those of the first log that has the counter: Student's t at the chosen
 * confidence (tools/lib/stats.h).  A round is one independent repetition; the
 * reads inside it are not, so the rounds are the samples.  Then the compact
 * counter x log table of p50s, with the proven differences marked. */
#include <stdlib.h>
#include <string.h>
#include "tools/report/html.h"
#include "tools/lib/stats.h"

struct cell {
	const struct lr_node *timer; /* NULL: the log lacks the counter */
	size_t n;                    /* rounds */
	struct stats st;
	int base;                    /* this log is the one the others are compared with */
	int tested;
	struct stats_diff d;
};

/* Fills cells[0..nlogs) for one counter; returns the base log's index, or
 * -1 when no log has two rounds.  *present: how many logs have the counter;
 * *tested: how many were compared with the base. */
static long analyse(const struct rp_ctx *c, const char *key, struct cell *cells, size_t *present,
		    size_t *tested)
{
	long base = -1;
	*present = *tested = 0;
	for (size_t j = 0; j < c->nlogs; j++) {
		struct cell *x = &cells[j];
		double *v = NULL;
		memset(x, 0, sizeof *x);
		x->timer = lrun_timer_by_key(c->logs[j].run, key);
		if (!x->timer)
			continue;
		++*present;
		x->n = timer_rounds(x->timer, "p50", &v);
		if (x->n)
			stats_compute(v, x->n, &x->st);
		free(v);
		if (x->n < 2)
			continue;
		if (base < 0) {
			base = (long)j;
			x->base = 1;
		} else {
			stats_compare(&cells[base].st, &x->st, c->ci, &x->d);
			x->tested = 1;
			++*tested;
		}
	}
	return base;
}

void rp_summary(const struct rp_ctx *c)
{
	FILE *o = c->out;
	struct cell *cells = calloc(c->nlogs, sizeof *cells);

	fputs("<section id=\"summary\">\n<h2>Summary: p50 per read, ns</h2>\n", o);
	if (c->nlogs > 1)
		fprintf(o, "<p>A marked cell (<span class=\"sig\">*</span>, red: slower, green: faster) "
			   "differs from the first log that has the counter (<i>base</i>) at %.1f&nbsp;%% "
			   "confidence: Student's t on the per-round p50 values, with the difference of their "
			   "means in percent.</p>\n", c->conf);
	fputs("<table><tr><th>counter</th>", o);
	for (size_t j = 0; j < c->nlogs; j++) {
		fputs("<th class=\"n\">", o);
		rp_swatch(o, j);
		fputs("</th>", o);
	}
	fputs("</tr>\n", o);
	for (size_t i = 0; i < c->nkeys && cells; i++) {
		size_t present, tested;
		analyse(c, c->keys[i], cells, &present, &tested);
		fputs("<tr data-counter=\"", o);
		rp_esc(o, c->keys[i]);
		fputs("\"><td>", o);
		rp_key_label(o, c->keys[i]);
		fputs("</td>", o);
		for (size_t j = 0; j < c->nlogs; j++) {
			const struct cell *x = &cells[j];
			struct ld_timer t;
			int sig = x->tested && x->d.significant;
			if (!x->timer) {
				fputs("<td class=\"n dim\">&ndash;</td>", o);
				continue;
			}
			ld_decode_timer(x->timer, &t);
			fprintf(o, "<td class=\"n%s\">", sig ? (x->d.diff > 0 ? " sig slower" : " sig faster") : "");
			if (!rp_true(&t.healthy)) {
				fputs("<span class=\"bad\" title=\"", o);
				rp_value(o, t.reason.node, "not healthy");
				fputs("\">unhealthy</span>", o);
			} else if (t.cost_ns.p50.state == LD_SET) {
				fprintf(o, "%.1f", t.cost_ns.p50.v);
			} else {
				fputs("&ndash;", o);
			}
			if (sig)
				fprintf(o, " *%+.1f%%", x->d.pct);
			else if (x->base && tested)
				fputs(" <span class=\"dim\">base</span>", o);
			fputs("</td>", o);
		}
		fputs("</tr>\n", o);
	}
	fputs("</table>\n", o);
	if (!c->nkeys)
		fputs("<p class=\"dim\">No timer records in the logs.</p>\n", o);
	fputs("</section>\n", o);
	free(cells);
}

static void stat_cells(FILE *o, const struct cell *x)
{
	const double v[5] = { x->st.min, x->st.max, x->st.median, x->st.mean, x->st.sd };
	fprintf(o, "<td class=\"n\">%zu</td>", x->n);
	for (int k = 0; k < 5; k++) {
		if (!x->n || (k == 4 && x->n < 2))
			fputs("<td class=\"n\">&ndash;</td>", o);
		else
			fprintf(o, "<td class=\"n\">%g</td>", v[k]);
	}
}

void rp_compare(const struct rp_ctx *c)
{
	FILE *o = c->out;
	struct cell *cells;
	size_t single = 0; /* keys listed in the "one log only" line so far */

	if (c->nlogs < 2)
		return;
	cells = calloc(c->nlogs, sizeof *cells);
	fprintf(o, "<section id=\"comparisons\">\n<h2>Comparisons</h2>\n<p>Per counter: the per-round p50 "
		   "values (ns) of each log, and their difference from the base log at %.1f&nbsp;%% "
		   "confidence (Student's t, as ministat).</p>\n", c->conf);
	for (size_t i = 0; i < c->nkeys && cells; i++) {
		size_t present, tested;
		long base = analyse(c, c->keys[i], cells, &present, &tested);
		if (present < 2) { /* one log only: nothing to compare, say so in one line */
			fputs(single++ ? ", " : "<p class=\"dim\">In one log only, nothing to compare: ", o);
			rp_key_label(o, c->keys[i]);
			continue;
		}
		if (single) {
			fputs("</p>\n", o);
			single = 0;
		}
		fputs("<h3>", o);
		rp_key_label(o, c->keys[i]);
		fputs("</h3>\n<table><tr><th>log</th><th class=\"n\">N</th><th class=\"n\">Min</th>"
		      "<th class=\"n\">Max</th><th class=\"n\">Median</th><th class=\"n\">Avg</th>"
		      "<th class=\"n\">Stddev</th><th>difference from the base log</th></tr>\n", o);
		for (size_t j = 0; j < c->nlogs; j++) {
			const struct cell *x = &cells[j];
			if (!x->timer)
				continue;
			fputs("<tr><td>", o);
			rp_swatch(o, j);
			fputs(" ", o);
			rp_esc(o, c->logs[j].run->name);
			fputs("</td>", o);
			stat_cells(o, x);
			if (x->base) {
				fputs("<td class=\"dim\">base</td>", o);
			} else if (x->n < 2) {
				struct ld_timer t;
				ld_decode_timer(x->timer, &t);
				fputs("<td class=\"dim\">fewer than 2 rounds: no test", o);
				if (!rp_true(&t.healthy)) {
					fputs(" (not healthy: ", o);
					rp_value(o, t.reason.node, "no reason given");
					fputs(")", o);
				}
				fputs("</td>", o);
			} else if (base < 0 || !x->tested) {
				fputs("<td class=\"dim\">no base log with 2 rounds</td>", o);
			} else if (x->d.significant) {
				fprintf(o, "<td class=\"sig %s\">Difference at %.1f%% confidence: %+g &plusmn; %g ns "
					   "(%+.2f%% &plusmn; %.2f%%), pooled s %g</td>",
					x->d.diff > 0 ? "slower" : "faster", c->conf, x->d.diff, x->d.err, x->d.pct,
					x->d.pct_err, x->d.pooled_sd);
			} else {
				fprintf(o, "<td>No difference proven at %.1f%% confidence</td>", c->conf);
			}
			fputs("</tr>\n", o);
		}
		fputs("</table>\n", o);
	}
	if (single)
		fputs("</p>\n", o);
	fputs("</section>\n", o);
	free(cells);
}
