/* SPDX-License-Identifier: BSD-2-Clause */
/* A watch in `tickprobe show` (show_watch.h). */
#include "tools/log/show_watch.h"
#include <string.h>
#include "tools/lib/json_out.h"
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

static void clocks(FILE *o, const struct lr_node *w)
{
	const struct lr_node *c = lr_get(w, "clocks");
	char b[7][32], name[NAME_SHOWN];

	fprintf(o, "  %-14s %14s %10s %12s %10s %12s %10s %6s\n", "clock", "rate ppm", "+/- ppm", "0.5 s +/-",
		"scatter", "drift ppm/h", "+/-", "steps");
	for (c = c && c->kind == LR_ARR ? c->child : NULL; c; c = c->next)
		fprintf(o, "  %-14s %14s %10s %12s %10s %12s %10s %6s\n", str(name, sizeof name, lr_get(c, "name"), "?"),
			num(b[0], 32, lr_get(c, "rate_ppm"), 3, true), num(b[1], 32, lr_get(c, "u_ppm"), 4, false),
			num(b[2], 32, lr_get(c, "window_u_ppm"), 3, false),
			num(b[3], 32, lr_get(c, "window_sd_ppm"), 3, false),
			num(b[4], 32, lr_get(c, "drift_ppm_per_h"), 3, true),
			num(b[6], 32, lr_get(c, "drift_u_ppm_per_h"), 3, false), num(b[5], 32, lr_get(c, "steps"), 0, false));
	fprintf(o, "  (the TSC against its boot calibration; each counter against the counters' consensus)\n");
}

static void steps(FILE *o, const struct lr_node *w)
{
	const struct lr_node *s = lr_get(w, "steps");
	char b[3][32], clock[NAME_SHOWN];

	for (s = s && s->kind == LR_ARR ? s->child : NULL; s; s = s->next) {
		bool on_cpu = is_num(lr_get(s, "cpu")), tsc = lr_str(lr_get(s, "clock")) &&
							       !strcmp(lr_str(lr_get(s, "clock")), "tsc");
		fprintf(o, "  step at %s s: %s moved %s us", num(b[0], 32, lr_get(s, "t_s"), 1, false),
			str(clock, sizeof clock, lr_get(s, "clock"), "?"), num(b[1], 32, lr_get(s, "step_us"), 3, true));
		if (on_cpu)
			fprintf(o, " on CPU %s against the boot CPU's", num(b[2], 32, lr_get(s, "cpu"), 0, false));
		else if (tsc)
			fprintf(o, " (every counter saw the TSC move)");
		fprintf(o, "\n");
	}
}

static void eras(FILE *o, const struct lr_node *w)
{
	const struct lr_node *l = lr_get(w, "linux"), *e = lr_get(l, "eras");
	char b[4][32], era[NAME_SHOWN];

	if (!lr_str(lr_get(l, "reference"))) {
		fprintf(o, "  Linux's watchdog: no HPET or PM timer to be its reference here\n");
		return;
	}
	said(o, "  Linux's watchdog with ", lr_get(l, "reference"), "?", " as its reference, window by window:\n");
	for (e = e && e->kind == LR_ARR ? e->child : NULL; e; e = e->next) {
		double n = 0;
		lr_num(lr_get(e, "windows_unstable"), &n);
		fprintf(o, "    %-10s %s window(s) would mark the TSC unstable", str(era, sizeof era, lr_get(e, "era"), "?"),
			num(b[0], 32, lr_get(e, "windows_unstable"), 0, false));
		if (n > 0)
			fprintf(o, ", the first at %s s", num(b[1], 32, lr_get(e, "first_t_s"), 1, false));
		fprintf(o, "; %s readout(s) over its bound; worst skew %s ns (",
			num(b[2], 32, lr_get(e, "timeouts"), 0, false), num(b[3], 32, lr_get(e, "worst_skew_ns"), 0, false));
		said(o, "", lr_get(e, "rule"), "?", ")\n");
	}
}

static void cpus(FILE *o, const struct lr_node *w)
{
	const struct lr_node *c = lr_get(w, "cpus");
	char b[7][32];

	for (c = c && c->kind == LR_ARR ? c->child : NULL; c; c = c->next) {
		fprintf(o, "  CPU %s: TSC offset %s to %s cycles, slope %s +/- %s cycles/h", num(b[0], 32, lr_get(c, "cpu"), 0, false),
			num(b[1], 32, lr_get(c, "offset_first"), 0, true), num(b[2], 32, lr_get(c, "offset_last"), 0, true),
			num(b[3], 32, lr_get(c, "slope_cycles_per_h"), 1, true),
			num(b[5], 32, lr_get(c, "slope_u_cycles_per_h"), 1, false));
		if (is_num(lr_get(c, "offsets_loose")) && lr_get(c, "offsets_loose")->u)
			fprintf(o, "; %s segment(s) too loosely bounded, left out",
				num(b[6], 32, lr_get(c, "offsets_loose"), 0, false));
		if (is_num(lr_get(c, "tsc_adjust")))
			fprintf(o, "; TSC_ADJUST %s, written %s time(s)", num(b[4], 32, lr_get(c, "tsc_adjust"), 0, false),
				num(b[0], 32, lr_get(c, "tsc_adjust_changes"), 0, false));
		fprintf(o, "\n");
	}
}

/* One VM event: what the guest saw, in words, then each clock and CPU. */
static void show_event(FILE *o, const struct lr_node *e)
{
	const struct lr_node *c = lr_get(e, "clocks");
	char b[6][32], name[NAME_SHOWN];

	said(o, "    ", lr_get(e, "verdict"), "no verdict", "\n");
	if (!c || c->kind != LR_ARR || !c->child)
		return;
	fprintf(o, "      %-14s %16s %14s %14s %s\n", "clock", "advance s", "jump ns", "within ns", "");
	for (c = c->child; c; c = c->next)
		fprintf(o, "      %-14s %16s %14s %14s%s\n", str(name, sizeof name, lr_get(c, "name"), "?"),
			num(b[0], 32, lr_get(c, "advance_s"), 9, false), num(b[1], 32, lr_get(c, "jump_ns"), 1, true),
			num(b[2], 32, lr_get(c, "tolerance_ns"), 1, false),
			lr_true(lr_get(c, "backward")) ? "  went back" : "");
	c = lr_get(e, "cpus");
	for (c = c && c->kind == LR_ARR ? c->child : NULL; c; c = c->next)
		fprintf(o, "      CPU %s: TSC offset %s -> %s cycles, moved %s (within %s)\n",
			num(b[0], 32, lr_get(c, "cpu"), 0, false), num(b[1], 32, lr_get(c, "before_cycles"), 0, true),
			num(b[2], 32, lr_get(c, "after_cycles"), 0, true), num(b[3], 32, lr_get(c, "jump_cycles"), 0, true),
			num(b[4], 32, lr_get(c, "tolerance_cycles"), 0, false));
}

/* The VM events of the watch (vm_events: the watch record's summary, NULL
 * when the run ended before it). */
static void show_watch_events(FILE *o, const struct lrun *r, const struct lr_node *vm)
{
	char b[3][32];
	unsigned n = 0;

	if (vm && vm->kind == LR_OBJ) {
		bool listening = lr_true(lr_get(vm, "listening"));
		uint64_t port = 0;
		lr_uint(lr_get(vm, "port"), &port);
		fprintf(o, "  VM events: the host's line at port 0x%llx", (unsigned long long)port);
		if (!listening) {
			said(o, " not listened on: ", lr_get(vm, "problem"), "?", "\n");
			return;
		}
		fprintf(o, ", %s event(s); %s line(s) not understood, %s out of turn\n",
			num(b[0], 32, lr_get(vm, "events"), 0, false), num(b[1], 32, lr_get(vm, "bad_lines"), 0, false),
			num(b[2], 32, lr_get(vm, "refused"), 0, false));
	}
	for (size_t i = 0; i < r->nrecs; i++)
		if (!strcmp(r->recs[i].type, "watch_event")) {
			if (!n++ && !vm)
				fprintf(o, "  VM events:\n");
			show_event(o, r->recs[i].root);
		}
	if (vm && vm->kind == LR_OBJ && !n)
		fprintf(o, "    none came: the host announced no event during the watch\n");
}

void show_watch_text(FILE *o, const struct lrun *r)
{
	const struct lr_node *b = lrun_first(r, "watch_begin"), *w = lrun_first(r, "watch"), *smi;
	char t[3][32];

	if (!b)
		return;
	if (lr_str(lr_get(b, "skipped"))) {
		said(o, "\nWatch: not run: ", lr_get(b, "skipped"), "", "\n");
		return;
	}
	fprintf(o, "\nWatch: %s s asked, %s windows of 0.5 s", num(t[0], 32, lr_get(b, "duration_s"), 0, false),
		num(t[1], 32, lr_get(w, "windows"), 0, false));
	if (lr_str(lr_get(b, "fault")))
		said(o, " (a test fault: ", lr_get(b, "fault"), "", ")");
	if (!w) {
		fprintf(o, "\n  no watch record: the run ended before the watch did\n");
		show_watch_events(o, r, NULL);
		return;
	}
	said(o, "\n  ", lr_get(w, "verdict"), "no verdict", "\n");
	clocks(o, w);
	steps(o, w);
	eras(o, w);
	cpus(o, w);
	smi = lr_get(w, "smi");
	if (smi && smi->kind == LR_OBJ)
		fprintf(o, "  SMIs: %s during the watch, at most %s in one window\n",
			num(t[2], 32, lr_get(smi, "total"), 0, false), num(t[0], 32, lr_get(smi, "window_max"), 0, false));
	show_watch_events(o, r, lr_get(w, "vm_events"));
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
