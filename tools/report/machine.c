/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: one section per run.  The machine's fingerprint, the
 * TSC frequency and where it came from, the harness overhead, the ACPI
 * findings and the results table; for `tickprobe os` logs, the clock calls,
 * loop rates, gaps and context switches in tables of their own; and any
 * record the page does not know, shown raw, so nothing in a log goes unseen. */
#include <string.h>
#include "tools/report/cpus.h"
#include "tools/report/watch.h"
#include "tools/report/html.h"
#include "tools/report/machine.h"
#include "tools/report/verdicts.h"

/* Raw record text shown for an unknown record: enough to recognise it, short
 * enough that a 96 KiB `samples` record does not swamp the page. */
#define RAW_SHOW 400

static void kv(FILE *o, const char *label)
{
	fprintf(o, "<tr><th>%s</th><td>", label);
}

static void kv_end(FILE *o)
{
	fputs("</td></tr>\n", o);
}

void rp_td(FILE *o, const struct lr_node *n, int decimals)
{
	fputs("<td class=\"n\">", o);
	rp_num(o, n, decimals);
	fputs("</td>", o);
}

static void num_hex(FILE *o, const struct lr_node *n)
{
	rp_value(o, n, "unknown");
	if (n && n->kind == LR_NUM && n->is_int) {
		fputs(" (", o);
		rp_hex(o, n, "");
		fputs(")", o);
	}
}

static void machine_rows(FILE *o, const struct ld_machine *m)
{
	kv(o, "CPU");
	rp_value(o, m->cpu_vendor.node, "?");
	fputs(" &mdash; ", o);
	rp_value(o, m->cpu_brand.node, "?");
	kv_end(o);
	kv(o, "family / model / stepping");
	num_hex(o, m->family.node);
	fputs(" / ", o);
	num_hex(o, m->model.node);
	fputs(" / ", o);
	rp_value(o, m->stepping.node, "?");
	kv_end(o);
	kv(o, "microcode");
	rp_hex(o, m->microcode.node, "unknown");
	kv_end(o);
	kv(o, "hypervisor");
	rp_value(o, m->hypervisor.node, "none");
	kv_end(o);
	kv(o, "invariant TSC / RDTSCP");
	rp_value(o, m->invariant_tsc.node, "?");
	fputs(" / ", o);
	rp_value(o, m->rdtscp.node, "?");
	kv_end(o);
	kv(o, "cores");
	rp_value(o, m->cores.node, "unknown");
	kv_end(o);
	kv(o, "memory");
	rp_value(o, m->memory_mib.node, "unknown");
	fputs(m->memory_mib.node && m->memory_mib.node->kind == LR_NUM ? " MiB" : "", o);
	kv_end(o);
}

static void clocksource_row(FILE *o, const struct ld_begin *b)
{
	kv(o, "clocksources");
	rp_value(o, b->clocksources.node, "?");
	fputs("; current ", o);
	rp_value(o, b->current_clocksource.node, "?");
	fputs("; measured ", o);
	rp_value(o, b->measured_clocksources.node, "?");
	if (b->clocksource_problem.state != LD_ABSENT && b->clocksource_problem.state != LD_NULL) {
		fputs(" <span class=\"bad\">", o);
		rp_value(o, b->clocksource_problem.node, "");
		fputs("</span>", o);
	}
	kv_end(o);
}

static void begin_rows(FILE *o, const struct ld_begin *b)
{
	kv(o, "boot path");
	rp_value(o, b->boot.node, "?");
	if (b->boot_services.state != LD_ABSENT) {
		fputs(", boot services ", o);
		rp_value(o, b->boot_services.node, "?");
	}
	kv_end(o);
	if (b->kernel.ld.state != LD_ABSENT) {
		kv(o, "kernel");
		rp_value(o, b->kernel.ld.node, "?");
		kv_end(o);
	}
	if (b->clocksources.state != LD_ABSENT)
		clocksource_row(o, b);
	if (b->note.state != LD_ABSENT) {
		kv(o, "note");
		rp_value(o, b->note.node, "");
		kv_end(o);
	}
	kv(o, "command line");
	fputs("<span class=\"mono\">", o);
	rp_value(o, b->cmdline.node, "");
	fputs("</span>", o);
	kv_end(o);
	kv(o, "options / preset");
	rp_value(o, b->options.ld.node, "?");
	kv_end(o);
	if (b->option_problems.state == LD_SET && b->option_problems.n) {
		kv(o, "option problems");
		fputs("<span class=\"bad\">", o);
		rp_value(o, b->option_problems.node, "");
		fputs("</span>", o);
		kv_end(o);
	}
}

static void missing(FILE *o, const char *what)
{
	kv(o, what);
	fputs("<span class=\"bad\">missing</span>", o);
	kv_end(o);
}

static void fingerprint(FILE *o, const struct lrun *r)
{
	struct ld_machine m;
	struct ld_begin b;

	ld_decode_machine(lrun_first(r, "machine"), &m);
	ld_decode_begin(lrun_first(r, "begin"), &b);
	fputs("<h3>Fingerprint</h3>\n<table class=\"kv\">\n", o);
	if (m.ld.state == LD_ABSENT)
		missing(o, "machine record");
	else
		machine_rows(o, &m);
	if (b.ld.state == LD_ABSENT)
		missing(o, "begin record");
	else
		begin_rows(o, &b);
	fputs("</table>\n", o);
}

static void tsc_sources(FILE *o, const struct ld_tsc *t, double hz)
{
	if (t->sources.state != LD_SET || !t->sources.n)
		return;
	fputs("<table><tr><th>source</th><th class=\"n\">Hz</th><th class=\"n\">vs chosen, ppm</th></tr>\n", o);
	for (size_t i = 0; i < t->sources.n; i++) {
		struct ld_num v = ld_tsc_sources_at(t, i);
		fputs("<tr><td>", o);
		rp_esc(o, ld_tsc_sources_name(t, i));
		fputs("</td>", o);
		rp_td(o, v.node, -1);
		if (hz > 0 && v.state == LD_SET)
			fprintf(o, "<td class=\"n\">%+.2f</td></tr>\n", (v.v - hz) / hz * 1e6);
		else
			fputs("<td class=\"n\">&ndash;</td></tr>\n", o);
	}
	fputs("</table>\n", o);
}

static void tsc(FILE *o, const struct lrun *r)
{
	struct ld_tsc t;
	double hz = 0;

	ld_decode_tsc(lrun_first(r, "tsc"), &t);
	fputs("<h3>TSC frequency</h3>\n", o);
	if (t.ld.state == LD_ABSENT) {
		fputs("<p class=\"bad\">No tsc record.</p>\n", o);
		return;
	}
	fputs("<table class=\"kv\">\n", o);
	kv(o, "frequency");
	if (t.hz.state == LD_SET) {
		hz = t.hz.v;
		fprintf(o, "%.6f MHz (", hz / 1e6);
		rp_num(o, t.hz.node, -1);
		fputs(" Hz)", o);
	} else {
		fputs("unknown", o);
	}
	kv_end(o);
	kv(o, "source");
	rp_value(o, t.source.node, "?");
	kv_end(o);
	kv(o, "estimated error");
	rp_value(o, t.error_ppm.node, "none (only the CPU's word)");
	fputs(t.error_ppm.state == LD_SET ? " ppm" : "", o);
	kv_end(o);
	kv(o, "calibration window");
	rp_value(o, t.window_ms.node, "?");
	fputs(" ms", o);
	kv_end(o);
	kv(o, "invariant");
	rp_value(o, t.invariant.node, "?");
	kv_end(o);
	fputs("</table>\n", o);
	tsc_sources(o, &t, hz);
}

/* One row of the overhead's costs. */
static void overhead_row(FILE *o, const char *unit, const struct ld_cost *c, int decimals)
{
	const struct lr_node *cells[] = { c->min.node, c->p50.node,  c->mean.node, c->sd.node,
					  c->p99.node, c->p999.node, c->max.node };

	fprintf(o, "<tr><td>%s</td>", unit);
	for (size_t k = 0; k < sizeof cells / sizeof cells[0]; k++)
		rp_td(o, cells[k], decimals);
	fputs("</tr>\n", o);
}

static void overhead_candidates(FILE *o, const struct ld_overhead *h)
{
	if (h->candidates.state != LD_SET || !h->candidates.n)
		return;
	fputs("<table><tr><th>candidate bracket</th><th class=\"n\">min</th><th class=\"n\">p50</th>"
	      "<th class=\"n\">round min spread</th><th>in use</th></tr>\n",
	      o);
	for (size_t i = 0; i < h->candidates.n; i++) {
		struct ld_bracket_candidate c;
		int in_use;
		ld_overhead_candidates_at(h, i, &c);
		in_use = c.sequence.state == LD_SET && h->sequence.state == LD_SET &&
			 !strcmp(c.sequence.s, h->sequence.s);
		fputs("<tr><td>", o);
		rp_value(o, c.sequence.node, "?");
		fputs("</td>", o);
		rp_td(o, c.min.node, -1);
		rp_td(o, c.p50.node, -1);
		rp_td(o, c.round_min_spread.node, -1);
		fprintf(o, "<td>%s</td></tr>\n", in_use ? "yes" : "");
	}
	fputs("</table>\n", o);
}

static void overhead(FILE *o, const struct lrun *r)
{
	struct ld_overhead h;
	struct ld_plan p;
	struct ld_cost ns;

	ld_decode_overhead(lrun_first(r, "overhead"), &h);
	ld_decode_plan(lrun_first(r, "plan"), &p);
	fputs("<h3>Harness overhead</h3>\n", o);
	if (h.ld.state == LD_ABSENT) {
		fputs("<p class=\"bad\">No overhead record.</p>\n", o);
		return;
	}
	fputs("<p>Bracket in use: <b>", o);
	rp_value(o, h.sequence.node, "?");
	fputs("</b>; ", o);
	rp_value(o, h.samples.node, "?");
	fputs(" empty measurements; ", o);
	rp_value(o, h.subtracted.node, "?");
	fputs(" cycles taken off every timer sample.", o);
	if (p.total_s.state != LD_ABSENT) {
		fputs(" Planned measurement time: ", o);
		rp_value(o, p.total_s.node, "?");
		fputs(" s.", o);
	}
	fputs("</p>\n<table><tr><th>unit</th><th class=\"n\">min</th><th class=\"n\">p50</th><th class=\"n\">mean</th>"
	      "<th class=\"n\">sd</th><th class=\"n\">p99</th><th class=\"n\">p999</th><th class=\"n\">max</th></tr>\n",
	      o);
	overhead_row(o, "cycles", &h.cycles, -1);
	/* Schema 1 wrote the costs in ns too, under a member the schema no
	 * longer has: read as a cost in whatever type it holds. */
	ld_decode_cost(lr_get(h.ld.node, "ns"), &ns);
	overhead_row(o, "ns", &ns, 1);
	fputs("</table>\n", o);
	overhead_candidates(o, &h);
}

static void acpi_fadt(FILE *o, const struct ld_acpi_fadt *f)
{
	rp_hex(o, f->address.node, "?");
	fputs(", revision ", o);
	rp_value(o, f->revision.node, "?");
	fputs(", ", o);
	rp_value(o, f->length.node, "?");
	fputs(" bytes, OEM ", o);
	rp_value(o, f->oem_id.node, "?");
	fputs(" / ", o);
	rp_value(o, f->oem_table_id.node, "?");
	fputs(", hardware-reduced ", o);
	rp_value(o, f->hw_reduced.node, "?");
}

static void acpi_hpet(FILE *o, const struct ld_acpi_hpet *h)
{
	rp_hex(o, h->address.node, "?");
	fputs(", block id ", o);
	rp_hex(o, h->block_id.node, "?");
	fputs(", PCI vendor ", o);
	rp_hex(o, h->vendor.node, "?");
	fputs(", ", o);
	rp_value(o, h->tables.node, "?");
	fputs(" table(s)", o);
}

static void acpi_problems(FILE *o, const struct ld_acpi *a)
{
	kv(o, "problems");
	if (a->problems.state == LD_SET && a->problems.n) {
		fputs("<ul class=\"probs\">", o);
		for (size_t i = 0; i < a->problems.n; i++) {
			fputs("<li class=\"bad\">", o);
			rp_value(o, ld_acpi_problems_at(a, i).node, "?");
			fputs("</li>", o);
		}
		fputs("</ul>", o);
	} else {
		fputs("none", o);
	}
	kv_end(o);
}

static void acpi(FILE *o, const struct lrun *r)
{
	struct ld_acpi a;

	ld_decode_acpi(lrun_first(r, "acpi"), &a);
	fputs("<h3>ACPI</h3>\n", o);
	if (a.ld.state == LD_ABSENT) {
		fputs("<p class=\"dim\">No acpi record in this log.</p>\n", o);
		return;
	}
	fputs("<table class=\"kv\">\n", o);
	kv(o, "RSDP");
	if (a.rsdp.ld.state == LD_SET) {
		rp_hex(o, a.rsdp.address.node, "?");
		fputs(", revision ", o);
		rp_value(o, a.rsdp.revision.node, "?");
		fputs(", OEM ", o);
		rp_value(o, a.rsdp.oem_id.node, "?");
	} else {
		fputs("not found", o);
	}
	kv_end(o);
	kv(o, "table list");
	rp_value(o, a.root.node, "none");
	kv_end(o);
	kv(o, "FADT");
	if (a.fadt.ld.state == LD_SET)
		acpi_fadt(o, &a.fadt);
	else
		fputs("not found", o);
	kv_end(o);
	kv(o, "PM timer");
	if (a.pm_timer.ld.state == LD_SET) {
		rp_value(o, a.pm_timer.space.node, "?");
		fputs(" ", o);
		rp_hex(o, a.pm_timer.address.node, "?");
		fputs(", ", o);
		rp_value(o, a.pm_timer.bits.node, "?");
		fputs("-bit", o);
	} else {
		fputs("none", o);
	}
	kv_end(o);
	kv(o, "HPET");
	if (a.hpet.ld.state == LD_SET)
		acpi_hpet(o, &a.hpet);
	else
		fputs("none", o);
	kv_end(o);
	acpi_problems(o, &a);
	fputs("</table>\n", o);
}

void rp_health(FILE *o, const struct ld_bool *healthy, const struct ld_bool *present, const struct ld_str *reason)
{
	if (rp_true(healthy)) {
		fputs("<td class=\"ok\">ok</td>", o);
		return;
	}
	fputs("<td class=\"bad\">", o);
	if (present && present->state != LD_ABSENT && !rp_true(present))
		fputs("absent: ", o);
	rp_value(o, reason->node, "not healthy");
	fputs("</td>", o);
}

void rp_cost_cells(FILE *o, const struct ld_timer *t, int sd)
{
	const struct ld_cost_ns *c = &t->cost_ns;

	rp_td(o, c->p50.node, 1);
	rp_td(o, c->min.node, 1);
	rp_td(o, c->mean.node, 1);
	if (sd)
		rp_td(o, c->sd.node, 1);
	rp_td(o, c->p99.node, 1);
	rp_td(o, c->max.node, 1);
	rp_td(o, t->throughput.reads_per_s.node, 0);
}

static void freq_cell(FILE *o, const struct ld_freq *f)
{
	fputs("<td class=\"n\">", o);
	if (rp_true(&f->reference))
		fputs("reference", o);
	else if (f->ppm.state == LD_SET && f->err_ppm.state == LD_SET)
		fprintf(o, "%+.2f &plusmn; %.2f", f->ppm.v, f->err_ppm.v);
	else if (f->ppm.state == LD_SET)
		fprintf(o, "%+.2f", f->ppm.v);
	else
		fputs("&ndash;", o);
	fputs("</td>", o);
}

static void result_row(FILE *o, const struct ld_timer *t)
{
	fputs("<tr><td><b>", o);
	rp_value(o, t->name.node, "?");
	fputs("</b></td>", o);
	rp_health(o, &t->healthy, &t->present, &t->reason);
	rp_cost_cells(o, t, 1);
	freq_cell(o, &t->freq);
	rp_td(o, t->samples.node, -1);
	fputs("<td><span class=\"dim\">", o);
	rp_value(o, t->method.node, "");
	fputs("</span>", o);
	if (t->note.state != LD_ABSENT) {
		fputs("<br>", o);
		rp_value(o, t->note.node, "");
	}
	fputs("</td></tr>\n", o);
}

/* Schema 2: the counters this machine lacks by design, which have no
 * timer record unless counters= named them, with their reasons. */
static void absent_by_design(FILE *o, const struct lrun *r)
{
	struct ld_plan p;

	ld_decode_plan(lrun_first(r, "plan"), &p);
	if (p.absent.state != LD_SET || !p.absent.n)
		return;
	fputs("<p>Absent by design:</p>\n<ul class=\"absent\">", o);
	for (size_t i = 0; i < p.absent.n; i++) {
		const char *name = ld_plan_absent_name(&p, i);
		if (!name)
			continue;
		fputs("<li><b>", o);
		rp_esc(o, name);
		fputs("</b>: ", o);
		rp_value(o, ld_plan_absent_at(&p, i).node, "?");
		fputs("</li>", o);
	}
	fputs("</ul>\n", o);
}

static void results(FILE *o, const struct lrun *r)
{
	const struct lr_node *n;
	int any = 0;

	fputs("<h3>Results</h3>\n", o);
	for (size_t i = 0; (n = lrun_timer_at(r, i)); i++) {
		struct ld_timer t;
		ld_decode_timer(n, &t);
		if (t.clocksource.state == LD_SET)
			continue; /* an OS clock call: its own table below */
		if (!any++)
			fputs("<table><tr><th>counter</th><th>health / reason</th><th class=\"n\">p50 ns</th>"
			      "<th class=\"n\">min ns</th><th class=\"n\">mean ns</th><th class=\"n\">sd ns</th>"
			      "<th class=\"n\">p99 ns</th><th class=\"n\">max ns</th><th class=\"n\">reads/s</th>"
			      "<th class=\"n\">freq ppm &plusmn; err</th><th class=\"n\">samples</th>"
			      "<th>method / note</th></tr>\n", o);
		result_row(o, &t);
	}
	fputs(any ? "</table>\n" : "<p class=\"dim\">No counter records.</p>\n", o);
	absent_by_design(o, r);
}

static int known_type(const char *ty)
{
	static const char *const known[] = { "begin", "machine", "acpi", "tsc", "overhead", "plan",
					     "timer", "end", "rate", "gaps", "ctxsw", "restore" };
	for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
		if (ty && !strcmp(ty, known[k]))
			return 1;
	return rp_cpus_type(ty) || rp_watch_type(ty);
}

/* exception, overflow, samples and anything newer: shown raw. */
static void other_records(FILE *o, const struct lrun *r)
{
	int any = 0;
	for (size_t i = 0; i < r->nrecs; i++) {
		const struct lrec *rec = &r->recs[i];
		int exc = rec->type && !strcmp(rec->type, "exception");
		if (known_type(rec->type))
			continue;
		if (!any++)
			fputs("<h3>Other records</h3>\n<table><tr><th class=\"n\">line</th><th>type</th>"
			      "<th>record</th></tr>\n", o);
		fprintf(o, "<tr%s><td class=\"n\">%u</td><td>", exc ? " class=\"bad\"" : "", (unsigned)rec->line);
		rp_esc(o, rec->type ? rec->type : "?");
		fputs("</td><td class=\"mono\">", o);
		rp_esc_n(o, rec->text, rec->len < RAW_SHOW ? rec->len : RAW_SHOW);
		if (rec->len > RAW_SHOW)
			fprintf(o, " &hellip; (%zu bytes)", rec->len);
		fputs("</td></tr>\n", o);
	}
	if (any)
		fputs("</table>\n", o);
}

void rp_machine(const struct rp_ctx *c, size_t i)
{
	FILE *o = c->out;
	const struct lrun *r = c->logs[i].run;
	char st[200];

	fprintf(o, "<section class=\"run\" id=\"run%zu\">\n<h2>", i + 1);
	rp_swatch(o, i);
	fputs(" Machine: ", o);
	rp_esc(o, r->name);
	fprintf(o, "</h2>\n<p class=\"%s\">Integrity: ", lrun_damaged(r) ? "bad" : "ok");
	rp_esc(o, lrun_state(r, st, sizeof st));
	fputs("</p>\n", o);
	fingerprint(o, r);
	tsc(o, r);
	overhead(o, r);
	acpi(o, r);
	results(o, r);
	rp_cpus(c, i);
	rp_verdicts(o, r);
	rp_os_records(o, r);
	other_records(o, r);
	fputs("</section>\n", o);
}
