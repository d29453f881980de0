/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: the `tickprobe os` records of a run's section
 * (machine.h): the clock calls, the loop rates, the gaps between results,
 * the context switches, and the clocksource put back. */
#include <string.h>
#include "tools/report/html.h"
#include "tools/report/machine.h"

static void os_call_row(FILE *o, const struct ld_timer *t)
{
	fputs("<tr><td><b>", o);
	rp_value(o, t->call.node, "?");
	fputs("</b></td><td>", o);
	rp_value(o, t->clocksource.node, "?");
	fputs("</td><td>", o);
	rp_value(o, t->vdso.node, "unknown");
	if (t->vdso_evidence.ld.state == LD_SET) {
		fputs(" <span class=\"dim\">(", o);
		rp_value(o, t->vdso_evidence.method.node, "?");
		fputs(": ", o);
		rp_value(o, t->vdso_evidence.syscalls_per_call.node, "&ndash;");
		fputs(" syscalls/call)</span>", o);
	}
	fputs("</td>", o);
	rp_health(o, &t->healthy, &t->present, &t->reason);
	rp_cost_cells(o, t, 0);
	fputs("</tr>\n", o);
}

static void os_calls(FILE *o, const struct lrun *r)
{
	const struct lr_node *n;
	int any = 0;

	for (size_t i = 0; (n = lrun_timer_at(r, i)); i++) {
		struct ld_timer t;
		ld_decode_timer(n, &t);
		if (t.clocksource.state != LD_SET)
			continue;
		if (!any++)
			fputs("<h3>OS clock calls</h3>\n<table><tr><th>call</th><th>clocksource</th><th>vDSO</th>"
			      "<th>health / reason</th><th class=\"n\">p50 ns</th><th class=\"n\">min ns</th>"
			      "<th class=\"n\">mean ns</th><th class=\"n\">p99 ns</th><th class=\"n\">max ns</th>"
			      "<th class=\"n\">calls/s</th></tr>\n",
			      o);
		os_call_row(o, &t);
	}
	if (any)
		fputs("</table>\n", o);
}

static void spread_cells(FILE *o, const struct ld_spread *s, int sd)
{
	rp_td(o, s->min.node, 0);
	rp_td(o, s->median.node, 0);
	rp_td(o, s->mean.node, 0);
	if (sd)
		rp_td(o, s->sd.node, 0);
	rp_td(o, s->max.node, 0);
}

static void rate_row(FILE *o, const struct lr_node *n)
{
	struct ld_rate t;

	ld_decode_rate(n, &t);
	rp_value(o, t.name.node, "?");
	fputs("</td>", o);
	rp_td(o, t.calls.node, -1);
	fprintf(o, "<td class=\"n\">%zu</td>", t.runs.node ? t.runs.node->len : 0);
	spread_cells(o, &t.calls_per_s, 1);
}

static void gaps_row(FILE *o, const struct lr_node *n)
{
	struct ld_gaps t;

	ld_decode_gaps(n, &t);
	rp_value(o, t.name.node, "?");
	fputs("</td>", o);
	rp_td(o, t.samples.node, -1);
	rp_td(o, t.gap_ns.min.node, -1);
	rp_td(o, t.gap_ns.p50.node, -1);
	rp_td(o, t.gap_ns.mean.node, -1);
	rp_td(o, t.gap_ns.sd.node, -1);
	rp_td(o, t.gap_ns.max.node, -1);
	rp_td(o, t.backwards.node, -1);
	fputs("<td class=\"mono\">", o);
	rp_value(o, t.modes.node, "");
	fputs("</td>", o);
}

static void ctxsw_row(FILE *o, const struct lr_node *n)
{
	struct ld_ctxsw t;

	ld_decode_ctxsw(n, &t);
	rp_value(o, t.name.node, "?");
	fputs("</td>", o);
	rp_health(o, &t.healthy, NULL, &t.reason);
	rp_td(o, t.cpu.node, -1);
	rp_td(o, t.switches.node, -1);
	spread_cells(o, &t.switches_per_s, 0);
}

/* One table per kind; with --switch the kinds repeat per clocksource. */
static void os_loops(FILE *o, const struct lrun *r)
{
	static const struct {
		const char *type, *head;
		void (*row)(FILE *o, const struct lr_node *n);
	} kinds[] = {
		{ "rate",
		  "<h3>Clock call loops</h3>\n<table><tr><th>loop</th><th class=\"n\">calls per run</th>"
		  "<th class=\"n\">runs</th><th class=\"n\">min calls/s</th><th class=\"n\">median</th>"
		  "<th class=\"n\">mean</th><th class=\"n\">sd</th><th class=\"n\">max</th></tr>\n",
		  rate_row },
		{ "gaps",
		  "<h3>Gaps between successive results</h3>\n<table><tr><th>series</th><th class=\"n\">samples"
		  "</th><th class=\"n\">min ns</th><th class=\"n\">p50</th><th class=\"n\">mean</th>"
		  "<th class=\"n\">sd</th><th class=\"n\">max</th><th class=\"n\">backwards</th>"
		  "<th>most common [ns, count]</th></tr>\n",
		  gaps_row },
		{ "ctxsw",
		  "<h3>Context switches</h3>\n<table><tr><th>series</th><th>health / reason</th>"
		  "<th class=\"n\">CPU</th><th class=\"n\">switches</th><th class=\"n\">min /s</th>"
		  "<th class=\"n\">median /s</th><th class=\"n\">mean /s</th><th class=\"n\">max /s</th></tr>\n",
		  ctxsw_row },
	};

	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		int rows = 0;
		for (size_t i = 0; i < r->nrecs; i++) {
			if (!r->recs[i].type || strcmp(r->recs[i].type, kinds[k].type))
				continue;
			if (!rows++)
				fputs(kinds[k].head, o);
			fputs("<tr><td>", o);
			kinds[k].row(o, r->recs[i].root);
			fputs("</tr>\n", o);
		}
		if (rows)
			fputs("</table>\n", o);
	}
}

void rp_os_records(FILE *o, const struct lrun *r)
{
	struct ld_restore t;

	os_calls(o, r);
	os_loops(o, r);
	ld_decode_restore(lrun_first(r, "restore"), &t);
	if (t.ld.state == LD_ABSENT)
		return;
	fprintf(o, "<p class=\"%s\">Clocksource restored to ", rp_true(&t.ok) ? "ok" : "bad");
	rp_value(o, t.clocksource.node, "?");
	fputs(": ", o);
	fputs(rp_true(&t.ok) ? "done.</p>\n" : "FAILED.</p>\n", o);
}
