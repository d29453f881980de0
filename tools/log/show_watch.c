/* SPDX-License-Identifier: BSD-2-Clause */
/* A watch in `tickprobe show` (show_watch.h). */
#include "tools/log/show_watch.h"
#include <string.h>
#include "tools/common/json_out.h"

static bool is_num(const struct lr_node *n) { return n && n->kind == LR_NUM; }

static const char *str(const struct lr_node *n, const char *dflt)
{
	const char *s = lr_str(n);
	return s ? s : dflt;
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
	char b[7][32];

	fprintf(o, "  %-14s %14s %10s %12s %10s %12s %10s %6s\n", "clock", "rate ppm", "+/- ppm", "0.5 s +/-",
		"scatter", "drift ppm/h", "+/-", "steps");
	for (c = c && c->kind == LR_ARR ? c->child : NULL; c; c = c->next)
		fprintf(o, "  %-14s %14s %10s %12s %10s %12s %10s %6s\n", str(lr_get(c, "name"), "?"),
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
	char b[3][32];

	for (s = s && s->kind == LR_ARR ? s->child : NULL; s; s = s->next) {
		bool on_cpu = is_num(lr_get(s, "cpu")), tsc = !strcmp(str(lr_get(s, "clock"), ""), "tsc");
		fprintf(o, "  step at %s s: %s moved %s us", num(b[0], 32, lr_get(s, "t_s"), 1, false),
			str(lr_get(s, "clock"), "?"), num(b[1], 32, lr_get(s, "step_us"), 3, true));
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
	char b[4][32];

	if (!lr_str(lr_get(l, "reference"))) {
		fprintf(o, "  Linux's watchdog: no HPET or PM timer to be its reference here\n");
		return;
	}
	fprintf(o, "  Linux's watchdog with %s as its reference, window by window:\n", lr_str(lr_get(l, "reference")));
	for (e = e && e->kind == LR_ARR ? e->child : NULL; e; e = e->next) {
		double n = 0;
		lr_num(lr_get(e, "windows_unstable"), &n);
		fprintf(o, "    %-10s %s window(s) would mark the TSC unstable", str(lr_get(e, "era"), "?"),
			num(b[0], 32, lr_get(e, "windows_unstable"), 0, false));
		if (n > 0)
			fprintf(o, ", the first at %s s", num(b[1], 32, lr_get(e, "first_t_s"), 1, false));
		fprintf(o, "; %s readout(s) over its bound; worst skew %s ns (%s)\n",
			num(b[2], 32, lr_get(e, "timeouts"), 0, false), num(b[3], 32, lr_get(e, "worst_skew_ns"), 0, false),
			str(lr_get(e, "rule"), "?"));
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

void show_watch_text(FILE *o, const struct lrun *r)
{
	const struct lr_node *b = lrun_first(r, "watch_begin"), *w = lrun_first(r, "watch"), *smi;
	char t[3][32];

	if (!b)
		return;
	if (lr_str(lr_get(b, "skipped"))) {
		fprintf(o, "\nWatch: not run: %s\n", lr_str(lr_get(b, "skipped")));
		return;
	}
	fprintf(o, "\nWatch: %s s asked, %s windows of 0.5 s", num(t[0], 32, lr_get(b, "duration_s"), 0, false),
		num(t[1], 32, lr_get(w, "windows"), 0, false));
	if (lr_str(lr_get(b, "fault")))
		fprintf(o, " (a test fault: %s)", lr_str(lr_get(b, "fault")));
	if (!w) {
		fprintf(o, "\n  no watch record: the run ended before the watch did\n");
		return;
	}
	fprintf(o, "\n  %s\n", str(lr_get(w, "verdict"), "no verdict"));
	clocks(o, w);
	steps(o, w);
	eras(o, w);
	cpus(o, w);
	smi = lr_get(w, "smi");
	if (smi && smi->kind == LR_OBJ)
		fprintf(o, "  SMIs: %s during the watch, at most %s in one window\n",
			num(t[2], 32, lr_get(smi, "total"), 0, false), num(t[0], 32, lr_get(smi, "window_max"), 0, false));
}

void show_watch_json(FILE *o, const struct lrun *r)
{
	const struct lr_node *w = lrun_first(r, "watch");
	size_t k;

	fprintf(o, ",\n\"watch\":");
	for (k = 0; k < r->nrecs && r->recs[k].root != w; k++)
		;
	if (w && k < r->nrecs)
		fwrite(r->recs[k].text, 1, r->recs[k].len, o);
	else
		fprintf(o, "null");
}
