/* SPDX-License-Identifier: BSD-2-Clause */
/* A watch in `tickprobe show` (show_watch.h). */
#include "tools/log/show_watch.h"
#include <string.h>
#include "tools/lib/json_out.h"
#include "tools/lib/logschema.h"
#include "tools/lib/textsafe.h"

#define NAME_SHOWN 64

static bool is_num(const struct lr_node *n) { return n && n->kind == LR_NUM; }

/* A string of the log, escaped into b (tools/lib/textsafe.h), or dflt. */
static const char *str(char *b, size_t cap, const struct lr_node *n, const char *dflt)
{
	const char *s = ts_str(b, cap, lr_str(n));
	return s ? s : dflt;
}

/* LABEL, a string of the log escaped (or dflt), END. */
static void said(FILE *o, const char *label, const struct lr_node *n, const char *dflt, const char *end)
{
	fputs(label, o);
	if (lr_str(n))
		ts_puts(o, lr_str(n));
	else
		fputs(dflt, o);
	fputs(end, o);
}

/* "+1.234" or "-" */
static const char *num(char *b, size_t cap, const struct lr_node *n, int decimals, bool sign)
{
	double v;

	if (!lr_num(n, &v))
		return "-";
	snprintf(b, cap, sign ? "%+.*f" : "%.*f", decimals, v);
	return b;
}

static void clocks(FILE *o, const struct ld_watch *w)
{
	char b[7][32], name[NAME_SHOWN];

	fprintf(o, "  %-14s %14s %10s %12s %10s %12s %10s %6s\n", "clock", "rate ppm", "+/- ppm", "0.5 s +/-",
		"scatter", "drift ppm/h", "+/-", "steps");
	for (size_t i = 0; w->clocks.state == LD_SET && i < w->clocks.n; i++) {
		struct ld_watch_clock c;
		ld_watch_clocks_at(w, i, &c);
		fprintf(o, "  %-14s %14s %10s %12s %10s %12s %10s %6s\n", str(name, sizeof name, c.name.node, "?"),
			num(b[0], 32, c.rate_ppm.node, 3, true), num(b[1], 32, c.u_ppm.node, 4, false),
			num(b[2], 32, c.window_u_ppm.node, 3, false), num(b[3], 32, c.window_sd_ppm.node, 3, false),
			num(b[4], 32, c.drift_ppm_per_h.node, 3, true),
			num(b[6], 32, c.drift_u_ppm_per_h.node, 3, false), num(b[5], 32, c.steps.node, 0, false));
	}
	fprintf(o, "  (the TSC against its boot calibration; each counter against the counters' consensus)\n");
}

static void steps(FILE *o, const struct ld_watch *w)
{
	char b[3][32], clock[NAME_SHOWN];

	for (size_t i = 0; w->steps.state == LD_SET && i < w->steps.n; i++) {
		struct ld_watch_step s;
		ld_watch_steps_at(w, i, &s);
		bool on_cpu = is_num(s.cpu.node);
		bool tsc = !strcmp(ld_str_or(s.clock, ""), "tsc");
		fprintf(o, "  step at %s s: %s moved %s us", num(b[0], 32, s.t_s.node, 1, false),
			str(clock, sizeof clock, s.clock.node, "?"), num(b[1], 32, s.step_us.node, 3, true));
		if (on_cpu)
			fprintf(o, " on CPU %s against the boot CPU's", num(b[2], 32, s.cpu.node, 0, false));
		else if (tsc)
			fprintf(o, " (every counter saw the TSC move)");
		fprintf(o, "\n");
	}
}

static void eras(FILE *o, const struct ld_watch *w)
{
	const struct ld_watch_linux *l = &w->linux_watchdog;
	char b[4][32], era[NAME_SHOWN];

	if (l->reference.state != LD_SET) {
		fprintf(o, "  Linux's watchdog: no HPET or PM timer to be its reference here\n");
		return;
	}
	said(o, "  Linux's watchdog with ", l->reference.node, "?", " as its reference, window by window:\n");
	for (size_t i = 0; l->eras.state == LD_SET && i < l->eras.n; i++) {
		struct ld_watch_era e;
		double n = 0;
		ld_watch_linux_eras_at(l, i, &e);
		lr_num(e.windows_unstable.node, &n);
		fprintf(o, "    %-10s %s window(s) would mark the TSC unstable", str(era, sizeof era, e.era.node, "?"),
			num(b[0], 32, e.windows_unstable.node, 0, false));
		if (n > 0)
			fprintf(o, ", the first at %s s", num(b[1], 32, e.first_t_s.node, 1, false));
		fprintf(o, "; %s readout(s) over its bound; worst skew %s ns (",
			num(b[2], 32, e.timeouts.node, 0, false), num(b[3], 32, e.worst_skew_ns.node, 0, false));
		said(o, "", e.rule.node, "?", ")\n");
	}
}

static void cpus(FILE *o, const struct ld_watch *w)
{
	char b[7][32];

	for (size_t i = 0; w->cpus.state == LD_SET && i < w->cpus.n; i++) {
		struct ld_watch_cpu c;
		ld_watch_cpus_at(w, i, &c);
		fprintf(o, "  CPU %s: TSC offset %s to %s cycles, slope %s +/- %s cycles/h",
			num(b[0], 32, c.cpu.node, 0, false), num(b[1], 32, c.offset_first.node, 0, true),
			num(b[2], 32, c.offset_last.node, 0, true), num(b[3], 32, c.slope_cycles_per_h.node, 1, true),
			num(b[5], 32, c.slope_u_cycles_per_h.node, 1, false));
		if (is_num(c.offsets_loose.node) && c.offsets_loose.node->u)
			fprintf(o, "; %s segment(s) too loosely bounded, left out",
				num(b[6], 32, c.offsets_loose.node, 0, false));
		if (is_num(c.tsc_adjust.node))
			fprintf(o, "; TSC_ADJUST %s, written %s time(s)", num(b[4], 32, c.tsc_adjust.node, 0, false),
				num(b[0], 32, c.tsc_adjust_changes.node, 0, false));
		fprintf(o, "\n");
	}
}

/* One VM event: what the guest saw, in words, then each clock and CPU. */
static void show_event(FILE *o, const struct lr_node *node)
{
	struct ld_watch_event e;
	char b[6][32], name[NAME_SHOWN];

	ld_decode_watch_event(node, &e);
	said(o, "    ", e.verdict.node, "no verdict", "\n");
	if (e.clocks.state != LD_SET || !e.clocks.n)
		return;
	fprintf(o, "      %-14s %16s %14s %14s %s\n", "clock", "advance s", "jump ns", "within ns", "");
	for (size_t i = 0; i < e.clocks.n; i++) {
		struct ld_watch_event_clock c;
		ld_watch_event_clocks_at(&e, i, &c);
		fprintf(o, "      %-14s %16s %14s %14s%s\n", str(name, sizeof name, c.name.node, "?"),
			num(b[0], 32, c.advance_s.node, 9, false), num(b[1], 32, c.jump_ns.node, 1, true),
			num(b[2], 32, c.tolerance_ns.node, 1, false), ld_true(c.backward) ? "  went back" : "");
	}
	for (size_t i = 0; e.cpus.state == LD_SET && i < e.cpus.n; i++) {
		struct ld_watch_event_cpu c;
		ld_watch_event_cpus_at(&e, i, &c);
		fprintf(o, "      CPU %s: TSC offset %s -> %s cycles, moved %s (within %s)\n",
			num(b[0], 32, c.cpu.node, 0, false), num(b[1], 32, c.before_cycles.node, 0, true),
			num(b[2], 32, c.after_cycles.node, 0, true), num(b[3], 32, c.jump_cycles.node, 0, true),
			num(b[4], 32, c.tolerance_cycles.node, 0, false));
	}
}

/* The VM events of the watch (vm_events: the watch record's summary, NULL
 * when the run ended before it). */
static void show_watch_events(FILE *o, const struct lrun *r, const struct ld_watch_vm_events *vm)
{
	char b[3][32];
	unsigned n = 0;
	bool summary = vm && vm->ld.state == LD_SET;

	if (summary) {
		uint64_t port = vm->port.state == LD_SET ? vm->port.v : 0;
		fprintf(o, "  VM events: the host's line at port 0x%llx", (unsigned long long)port);
		if (!ld_true(vm->listening)) {
			said(o, " not listened on: ", vm->problem.node, "?", "\n");
			return;
		}
		fprintf(o, ", %s event(s); %s line(s) not understood, %s out of turn\n",
			num(b[0], 32, vm->events.node, 0, false), num(b[1], 32, vm->bad_lines.node, 0, false),
			num(b[2], 32, vm->refused.node, 0, false));
	}
	for (size_t i = 0; i < r->nrecs; i++)
		if (!strcmp(r->recs[i].type, "watch_event")) {
			if (!n++ && !(vm && vm->ld.node))
				fprintf(o, "  VM events:\n");
			show_event(o, r->recs[i].root);
		}
	if (summary && !n)
		fprintf(o, "    none came: the host announced no event during the watch\n");
}

void show_watch_text(FILE *o, const struct lrun *r)
{
	const struct lr_node *begin = lrun_first(r, "watch_begin"), *watch = lrun_first(r, "watch");
	struct ld_watch_begin b;
	struct ld_watch w;
	char t[3][32];

	if (!begin)
		return;
	ld_decode_watch_begin(begin, &b);
	ld_decode_watch(watch, &w);
	if (b.skipped.state == LD_SET) {
		said(o, "\nWatch: not run: ", b.skipped.node, "", "\n");
		return;
	}
	fprintf(o, "\nWatch: %s s asked, %s windows of 0.5 s", num(t[0], 32, b.duration_s.node, 0, false),
		num(t[1], 32, w.windows.node, 0, false));
	if (b.fault.state == LD_SET)
		said(o, " (a test fault: ", b.fault.node, "", ")");
	if (!watch) {
		fprintf(o, "\n  no watch record: the run ended before the watch did\n");
		show_watch_events(o, r, NULL);
		return;
	}
	said(o, "\n  ", w.verdict.node, "no verdict", "\n");
	clocks(o, &w);
	steps(o, &w);
	eras(o, &w);
	cpus(o, &w);
	if (w.smi.ld.state == LD_SET)
		fprintf(o, "  SMIs: %s during the watch, at most %s in one window\n",
			num(t[2], 32, w.smi.total.node, 0, false), num(t[0], 32, w.smi.window_max.node, 0, false));
	show_watch_events(o, r, &w.vm_events);
}

void show_watch_json(FILE *o, const struct lrun *r)
{
	const struct lr_node *w = lrun_first(r, "watch");
	size_t k;

	for (k = 0; k < r->nrecs && r->recs[k].root != w; k++)
		;
	/* A log without a watch keeps the members it always had. */
	if (!w || k == r->nrecs)
		return;
	fprintf(o, ",\n\"watch\":");
	ts_json_copy(o, r->recs[k].text, r->recs[k].len);
	fprintf(o, ",\n\"watch_events\":[");
	for (size_t i = 0, n = 0; i < r->nrecs; i++) {
		if (strcmp(r->recs[i].type, "watch_event"))
			continue;
		fputs(n++ ? ",\n" : "\n", o);
		ts_json_copy(o, r->recs[i].text, r->recs[i].len);
	}
	fprintf(o, "]");
}
