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

static void td(FILE *o, const struct lr_node *n, int decimals)
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

static void fingerprint(FILE *o, const struct lrun *r)
{
	const struct lr_node *m = lrun_first(r, "machine"), *b = lrun_first(r, "begin"), *x;

	fputs("<h3>Fingerprint</h3>\n<table class=\"kv\">\n", o);
	if (!m) {
		kv(o, "machine record");
		fputs("<span class=\"bad\">missing</span>", o);
		kv_end(o);
	} else {
		kv(o, "CPU");
		rp_value(o, lr_get(m, "cpu_vendor"), "?");
		fputs(" &mdash; ", o);
		rp_value(o, lr_get(m, "cpu_brand"), "?");
		kv_end(o);
		kv(o, "family / model / stepping");
		num_hex(o, lr_get(m, "family"));
		fputs(" / ", o);
		num_hex(o, lr_get(m, "model"));
		fputs(" / ", o);
		rp_value(o, lr_get(m, "stepping"), "?");
		kv_end(o);
		kv(o, "microcode");
		rp_hex(o, lr_get(m, "microcode"), "unknown");
		kv_end(o);
		kv(o, "hypervisor");
		rp_value(o, lr_get(m, "hypervisor"), "none");
		kv_end(o);
		kv(o, "invariant TSC / RDTSCP");
		rp_value(o, lr_get(m, "invariant_tsc"), "?");
		fputs(" / ", o);
		rp_value(o, lr_get(m, "rdtscp"), "?");
		kv_end(o);
		kv(o, "cores");
		rp_value(o, lr_get(m, "cores"), "unknown");
		kv_end(o);
		kv(o, "memory");
		rp_value(o, lr_get(m, "memory_mib"), "unknown");
		fputs(lr_get(m, "memory_mib") && lr_get(m, "memory_mib")->kind == LR_NUM ? " MiB" : "", o);
		kv_end(o);
	}
	if (!b) {
		kv(o, "begin record");
		fputs("<span class=\"bad\">missing</span>", o);
		kv_end(o);
	} else {
		kv(o, "boot path");
		rp_value(o, lr_get(b, "boot"), "?");
		if ((x = lr_get(b, "boot_services"))) {
			fputs(", boot services ", o);
			rp_value(o, x, "?");
		}
		kv_end(o);
		if ((x = lr_get(b, "kernel"))) {
			kv(o, "kernel");
			rp_value(o, x, "?");
			kv_end(o);
		}
		if ((x = lr_get(b, "clocksources"))) {
			kv(o, "clocksources");
			rp_value(o, x, "?");
			fputs("; current ", o);
			rp_value(o, lr_get(b, "current_clocksource"), "?");
			fputs("; measured ", o);
			rp_value(o, lr_get(b, "measured_clocksources"), "?");
			if ((x = lr_get(b, "clocksource_problem")) && x->kind != LR_NULL) {
				fputs(" <span class=\"bad\">", o);
				rp_value(o, x, "");
				fputs("</span>", o);
			}
			kv_end(o);
		}
		if ((x = lr_get(b, "note"))) {
			kv(o, "note");
			rp_value(o, x, "");
			kv_end(o);
		}
		kv(o, "command line");
		fputs("<span class=\"mono\">", o);
		rp_value(o, lr_get(b, "cmdline"), "");
		fputs("</span>", o);
		kv_end(o);
		kv(o, "options / preset");
		rp_value(o, lr_get(b, "options"), "?");
		kv_end(o);
		x = lr_get(b, "option_problems");
		if (x && x->kind == LR_ARR && x->len) {
			kv(o, "option problems");
			fputs("<span class=\"bad\">", o);
			rp_value(o, x, "");
			fputs("</span>", o);
			kv_end(o);
		}
	}
	fputs("</table>\n", o);
}

static void tsc(FILE *o, const struct lrun *r)
{
	const struct lr_node *t = lrun_first(r, "tsc"), *x;
	double hz = 0, v;

	fputs("<h3>TSC frequency</h3>\n", o);
	if (!t) {
		fputs("<p class=\"bad\">No tsc record.</p>\n", o);
		return;
	}
	fputs("<table class=\"kv\">\n", o);
	kv(o, "frequency");
	if (lr_num(lr_get(t, "hz"), &hz)) {
		fprintf(o, "%.6f MHz (", hz / 1e6);
		rp_num(o, lr_get(t, "hz"), -1);
		fputs(" Hz)", o);
	} else {
		fputs("unknown", o);
	}
	kv_end(o);
	kv(o, "source");
	rp_value(o, lr_get(t, "source"), "?");
	kv_end(o);
	kv(o, "estimated error");
	rp_value(o, lr_get(t, "error_ppm"), "none (only the CPU's word)");
	fputs(lr_num(lr_get(t, "error_ppm"), &v) ? " ppm" : "", o);
	kv_end(o);
	kv(o, "calibration window");
	rp_value(o, lr_get(t, "window_ms"), "?");
	fputs(" ms", o);
	kv_end(o);
	kv(o, "invariant");
	rp_value(o, lr_get(t, "invariant"), "?");
	kv_end(o);
	fputs("</table>\n", o);
	x = lr_get(t, "sources");
	if (!x || x->kind != LR_OBJ || !x->len)
		return;
	fputs("<table><tr><th>source</th><th class=\"n\">Hz</th><th class=\"n\">vs chosen, ppm</th></tr>\n", o);
	for (x = x->child; x; x = x->next) {
		fputs("<tr><td>", o);
		rp_esc(o, x->key);
		fputs("</td>", o);
		td(o, x, -1);
		if (hz > 0 && lr_num(x, &v))
			fprintf(o, "<td class=\"n\">%+.2f</td></tr>\n", (v - hz) / hz * 1e6);
		else
			fputs("<td class=\"n\">&ndash;</td></tr>\n", o);
	}
	fputs("</table>\n", o);
}

static void overhead(FILE *o, const struct lrun *r)
{
	static const char *const cols[] = { "min", "p50", "mean", "sd", "p99", "p999", "max" };
	const struct lr_node *h = lrun_first(r, "overhead"), *p = lrun_first(r, "plan"), *x;
	const char *seq;

	fputs("<h3>Harness overhead</h3>\n", o);
	if (!h) {
		fputs("<p class=\"bad\">No overhead record.</p>\n", o);
		return;
	}
	seq = lr_str(lr_get(h, "sequence"));
	fputs("<p>Bracket in use: <b>", o);
	rp_value(o, lr_get(h, "sequence"), "?");
	fputs("</b>; ", o);
	rp_value(o, lr_get(h, "samples"), "?");
	fputs(" empty measurements; ", o);
	rp_value(o, lr_get(h, "subtracted"), "?");
	fputs(" cycles taken off every timer sample.", o);
	if (p && lr_get(p, "total_s")) {
		fputs(" Planned measurement time: ", o);
		rp_value(o, lr_get(p, "total_s"), "?");
		fputs(" s.", o);
	}
	fputs("</p>\n<table><tr><th>unit</th>", o);
	for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
		fprintf(o, "<th class=\"n\">%s</th>", cols[k]);
	fputs("</tr>\n", o);
	for (int u = 0; u < 2; u++) {
		const char *unit = u ? "ns" : "cycles";
		fprintf(o, "<tr><td>%s</td>", unit);
		for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
			td(o, lr_get(lr_get(h, unit), cols[k]), u ? 1 : -1);
		fputs("</tr>\n", o);
	}
	fputs("</table>\n", o);
	x = lr_get(h, "candidates");
	if (!x || x->kind != LR_ARR || !x->len)
		return;
	fputs("<table><tr><th>candidate bracket</th><th class=\"n\">min</th><th class=\"n\">p50</th>"
	      "<th class=\"n\">round min spread</th><th>in use</th></tr>\n", o);
	for (x = x->child; x; x = x->next) {
		const char *s = lr_str(lr_get(x, "sequence"));
		fputs("<tr><td>", o);
		rp_value(o, lr_get(x, "sequence"), "?");
		fputs("</td>", o);
		td(o, lr_get(x, "min"), -1);
		td(o, lr_get(x, "p50"), -1);
		td(o, lr_get(x, "round_min_spread"), -1);
		fprintf(o, "<td>%s</td></tr>\n", s && seq && !strcmp(s, seq) ? "yes" : "");
	}
	fputs("</table>\n", o);
}

static void acpi(FILE *o, const struct lrun *r)
{
	const struct lr_node *a = lrun_first(r, "acpi"), *x;

	fputs("<h3>ACPI</h3>\n", o);
	if (!a) {
		fputs("<p class=\"dim\">No acpi record in this log.</p>\n", o);
		return;
	}
	fputs("<table class=\"kv\">\n", o);
	kv(o, "RSDP");
	if ((x = lr_get(a, "rsdp")) && x->kind == LR_OBJ) {
		rp_hex(o, lr_get(x, "address"), "?");
		fputs(", revision ", o);
		rp_value(o, lr_get(x, "revision"), "?");
		fputs(", OEM ", o);
		rp_value(o, lr_get(x, "oem_id"), "?");
	} else {
		fputs("not found", o);
	}
	kv_end(o);
	kv(o, "table list");
	rp_value(o, lr_get(a, "root"), "none");
	kv_end(o);
	kv(o, "FADT");
	if ((x = lr_get(a, "fadt")) && x->kind == LR_OBJ) {
		rp_hex(o, lr_get(x, "address"), "?");
		fputs(", revision ", o);
		rp_value(o, lr_get(x, "revision"), "?");
		fputs(", ", o);
		rp_value(o, lr_get(x, "length"), "?");
		fputs(" bytes, OEM ", o);
		rp_value(o, lr_get(x, "oem_id"), "?");
		fputs(" / ", o);
		rp_value(o, lr_get(x, "oem_table_id"), "?");
		fputs(", hardware-reduced ", o);
		rp_value(o, lr_get(x, "hw_reduced"), "?");
	} else {
		fputs("not found", o);
	}
	kv_end(o);
	kv(o, "PM timer");
	if ((x = lr_get(a, "pm_timer")) && x->kind == LR_OBJ) {
		rp_value(o, lr_get(x, "space"), "?");
		fputs(" ", o);
		rp_hex(o, lr_get(x, "address"), "?");
		fputs(", ", o);
		rp_value(o, lr_get(x, "bits"), "?");
		fputs("-bit", o);
	} else {
		fputs("none", o);
	}
	kv_end(o);
	kv(o, "HPET");
	if ((x = lr_get(a, "hpet")) && x->kind == LR_OBJ) {
		rp_hex(o, lr_get(x, "address"), "?");
		fputs(", block id ", o);
		rp_hex(o, lr_get(x, "block_id"), "?");
		fputs(", PCI vendor ", o);
		rp_hex(o, lr_get(x, "vendor"), "?");
		fputs(", ", o);
		rp_value(o, lr_get(x, "tables"), "?");
		fputs(" table(s)", o);
	} else {
		fputs("none", o);
	}
	kv_end(o);
	x = lr_get(a, "problems");
	kv(o, "problems");
	if (x && x->kind == LR_ARR && x->len) {
		fputs("<ul class=\"probs\">", o);
		for (x = x->child; x; x = x->next) {
			fputs("<li class=\"bad\">", o);
			rp_value(o, x, "?");
			fputs("</li>", o);
		}
		fputs("</ul>", o);
	} else {
		fputs("none", o);
	}
	kv_end(o);
	fputs("</table>\n", o);
}

static void health(FILE *o, const struct lr_node *t)
{
	if (lr_true(lr_get(t, "healthy"))) {
		fputs("<td class=\"ok\">ok</td>", o);
		return;
	}
	fputs("<td class=\"bad\">", o);
	if (lr_get(t, "present") && !lr_true(lr_get(t, "present")))
		fputs("absent: ", o);
	rp_value(o, lr_get(t, "reason"), "not healthy");
	fputs("</td>", o);
}

static void cost_cells(FILE *o, const struct lr_node *t, int sd)
{
	static const char *const cols[] = { "cost_ns.p50", "cost_ns.min", "cost_ns.mean", "cost_ns.sd",
					    "cost_ns.p99", "cost_ns.max" };
	for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
		if (sd || k != 3)
			td(o, lr_path(t, cols[k]), 1);
	td(o, lr_path(t, "throughput.reads_per_s"), 0);
}

static void results(FILE *o, const struct lrun *r)
{
	const struct lr_node *t;
	double v, e;
	int any = 0;

	fputs("<h3>Results</h3>\n", o);
	for (size_t i = 0; (t = lrun_timer_at(r, i)); i++) {
		if (lr_str(lr_get(t, "clocksource")))
			continue; /* an OS clock call: its own table below */
		if (!any++)
			fputs("<table><tr><th>counter</th><th>health / reason</th><th class=\"n\">p50 ns</th>"
			      "<th class=\"n\">min ns</th><th class=\"n\">mean ns</th><th class=\"n\">sd ns</th>"
			      "<th class=\"n\">p99 ns</th><th class=\"n\">max ns</th><th class=\"n\">reads/s</th>"
			      "<th class=\"n\">freq ppm &plusmn; err</th><th class=\"n\">samples</th>"
			      "<th>method / note</th></tr>\n", o);
		fputs("<tr><td><b>", o);
		rp_value(o, lr_get(t, "name"), "?");
		fputs("</b></td>", o);
		health(o, t);
		cost_cells(o, t, 1);
		fputs("<td class=\"n\">", o);
		if (lr_true(lr_path(t, "freq.reference")))
			fputs("reference", o);
		else if (lr_num(lr_path(t, "freq.ppm"), &v) && lr_num(lr_path(t, "freq.err_ppm"), &e))
			fprintf(o, "%+.2f &plusmn; %.2f", v, e);
		else if (lr_num(lr_path(t, "freq.ppm"), &v))
			fprintf(o, "%+.2f", v);
		else
			fputs("&ndash;", o);
		fputs("</td>", o);
		td(o, lr_get(t, "samples"), -1);
		fputs("<td><span class=\"dim\">", o);
		rp_value(o, lr_get(t, "method"), "");
		fputs("</span>", o);
		if (lr_get(t, "note")) {
			fputs("<br>", o);
			rp_value(o, lr_get(t, "note"), "");
		}
		fputs("</td></tr>\n", o);
	}
	fputs(any ? "</table>\n" : "<p class=\"dim\">No counter records.</p>\n", o);
	/* Schema 2: the counters this machine lacks by design, which have no
	 * timer record unless counters= named them, with their reasons. */
	t = lr_get(lrun_first(r, "plan"), "absent");
	if (!t || t->kind != LR_OBJ || !t->child)
		return;
	fputs("<p>Absent by design:</p>\n<ul class=\"absent\">", o);
	for (t = t->child; t; t = t->next)
		if (t->key) {
			fputs("<li><b>", o);
			rp_esc(o, t->key);
			fputs("</b>: ", o);
			rp_value(o, t, "?");
			fputs("</li>", o);
		}
	fputs("</ul>\n", o);
}

/* The `tickprobe os` records: clock calls, loop rates, gaps, context switches. */
static void os_records(FILE *o, const struct lrun *r)
{
	const struct lr_node *t, *x;
	int any = 0;

	for (size_t i = 0; (t = lrun_timer_at(r, i)); i++) {
		if (!lr_str(lr_get(t, "clocksource")))
			continue;
		if (!any++)
			fputs("<h3>OS clock calls</h3>\n<table><tr><th>call</th><th>clocksource</th><th>vDSO</th>"
			      "<th>health / reason</th><th class=\"n\">p50 ns</th><th class=\"n\">min ns</th>"
			      "<th class=\"n\">mean ns</th><th class=\"n\">p99 ns</th><th class=\"n\">max ns</th>"
			      "<th class=\"n\">calls/s</th></tr>\n", o);
		fputs("<tr><td><b>", o);
		rp_value(o, lr_get(t, "call"), "?");
		fputs("</b></td><td>", o);
		rp_value(o, lr_get(t, "clocksource"), "?");
		fputs("</td><td>", o);
		rp_value(o, lr_get(t, "vdso"), "unknown");
		if ((x = lr_get(t, "vdso_evidence")) && x->kind == LR_OBJ) {
			fputs(" <span class=\"dim\">(", o);
			rp_value(o, lr_get(x, "method"), "?");
			fputs(": ", o);
			rp_value(o, lr_get(x, "syscalls_per_call"), "&ndash;");
			fputs(" syscalls/call)</span>", o);
		}
		fputs("</td>", o);
		health(o, t);
		cost_cells(o, t, 0);
		fputs("</tr>\n", o);
	}
	if (any)
		fputs("</table>\n", o);
	/* One table per kind; with --switch the kinds repeat per clocksource. */
	for (int kind = 0; kind < 3; kind++) {
		static const char *const types[3] = { "rate", "gaps", "ctxsw" };
		int rows = 0;
		for (size_t i = 0; i < r->nrecs; i++) {
			if (!r->recs[i].type || strcmp(r->recs[i].type, types[kind]))
				continue;
			t = r->recs[i].root;
			if (!rows++)
				fputs(kind == 0 ? "<h3>Clock call loops</h3>\n<table><tr><th>loop</th><th class=\"n\">"
						  "calls per run</th><th class=\"n\">runs</th><th class=\"n\">min calls/s"
						  "</th><th class=\"n\">median</th><th class=\"n\">mean</th><th class=\"n\">"
						  "sd</th><th class=\"n\">max</th></tr>\n" :
				      kind == 1 ? "<h3>Gaps between successive results</h3>\n<table><tr><th>series</th>"
						  "<th class=\"n\">samples</th><th class=\"n\">min ns</th><th class=\"n\">"
						  "p50</th><th class=\"n\">mean</th><th class=\"n\">sd</th><th class=\"n\">"
						  "max</th><th class=\"n\">backwards</th><th>most common [ns, count]</th>"
						  "</tr>\n" :
						  "<h3>Context switches</h3>\n<table><tr><th>series</th><th>health / reason"
						  "</th><th class=\"n\">CPU</th><th class=\"n\">switches</th><th class=\"n\">"
						  "min /s</th><th class=\"n\">median /s</th><th class=\"n\">mean /s</th>"
						  "<th class=\"n\">max /s</th></tr>\n", o);
			fputs("<tr><td>", o);
			rp_value(o, lr_get(t, "name"), "?");
			fputs("</td>", o);
			if (kind == 0) {
				td(o, lr_get(t, "calls"), -1);
				fprintf(o, "<td class=\"n\">%zu</td>", lr_get(t, "runs") ? lr_get(t, "runs")->len : 0);
				td(o, lr_path(t, "calls_per_s.min"), 0);
				td(o, lr_path(t, "calls_per_s.median"), 0);
				td(o, lr_path(t, "calls_per_s.mean"), 0);
				td(o, lr_path(t, "calls_per_s.sd"), 0);
				td(o, lr_path(t, "calls_per_s.max"), 0);
			} else if (kind == 1) {
				td(o, lr_get(t, "samples"), -1);
				td(o, lr_path(t, "gap_ns.min"), -1);
				td(o, lr_path(t, "gap_ns.p50"), -1);
				td(o, lr_path(t, "gap_ns.mean"), -1);
				td(o, lr_path(t, "gap_ns.sd"), -1);
				td(o, lr_path(t, "gap_ns.max"), -1);
				td(o, lr_get(t, "backwards"), -1);
				fputs("<td class=\"mono\">", o);
				rp_value(o, lr_get(t, "modes"), "");
				fputs("</td>", o);
			} else {
				health(o, t);
				td(o, lr_get(t, "cpu"), -1);
				td(o, lr_get(t, "switches"), -1);
				td(o, lr_path(t, "switches_per_s.min"), 0);
				td(o, lr_path(t, "switches_per_s.median"), 0);
				td(o, lr_path(t, "switches_per_s.mean"), 0);
				td(o, lr_path(t, "switches_per_s.max"), 0);
			}
			fputs("</tr>\n", o);
		}
		if (rows)
			fputs("</table>\n", o);
	}
	if ((t = lrun_first(r, "restore"))) {
		fprintf(o, "<p class=\"%s\">Clocksource restored to ", lr_true(lr_get(t, "ok")) ? "ok" : "bad");
		rp_value(o, lr_get(t, "clocksource"), "?");
		fputs(": ", o);
		fputs(lr_true(lr_get(t, "ok")) ? "done.</p>\n" : "FAILED.</p>\n", o);
	}
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
	os_records(o, r);
	other_records(o, r);
	fputs("</section>\n", o);
}
