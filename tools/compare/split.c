/* SPDX-License-Identifier: BSD-2-Clause */
/* Hardware, user space and the kernel, side by side (split.h). */
#include <string.h>
#include "tools/compare/split.h"
#include "tools/lib/logschema.h"
#include "tools/lib/textsafe.h"

/* " (OS vs HW)": the two runs' names, escaped. */
static void runs_vs(FILE *o, const struct lrun *os, const struct lrun *hw)
{
	fputs(" (", o);
	ts_puts(o, os->name);
	fputs(" vs ", o);
	ts_puts(o, hw->name);
	fputc(')', o);
}

/* "971.0 +/- 7.3" or "… (n.s.)" */
static void diff_text(char *b, size_t cap, int tested, double diff, double err, int significant)
{
	if (!tested)
		snprintf(b, cap, "-");
	else
		snprintf(b, cap, "%.1f +/- %.1f%s", diff, err, significant ? "" : " (n.s.)");
}

void split_print(FILE *o, const struct lineup *lu, const char *metric, double conf)
{
	size_t rows = 0, pairs = 0;
	const struct lineup_row *first = NULL;

	for (size_t i = 0; i < lu->n; i++) {
		const struct lineup_row *r = &lu->rows[i];
		if (!r->call || strcmp(r->call, LINEUP_CALL))
			continue;
		rows++;
		if (!first)
			first = r;
		pairs += r->os_run != first->os_run || r->hw_run != first->hw_run;
	}
	if (!rows)
		return;
	fprintf(o,
		"\nHardware, user space and kernel, per clocksource: " LINEUP_CALL " (per-round %s, ns; %.1f%% "
		"confidence)\n",
		metric, conf);
	if (!pairs) {
		fputs("  ", o);
		ts_puts(o, first->os_run->name);
		fputs(" against ", o);
		ts_puts(o, first->hw_run->name);
		fputc('\n', o);
	}
	fprintf(o, "  hardware: the probe's read, no OS; user space: the same read by `tickprobe os --raw-io`;\n"
		   "  kernel share: the call's mean minus the hardware read's, with its confidence interval (and\n"
		   "  minus the user-space read's); \"of it\": the share of the call's median that is not the read\n");
	fprintf(o, "%-10s %-10s %9s %10s %10s  %-26s %5s  %s\n", "clocksrc", "counter", "hardware", "user space",
		"call", "kernel share (call - hw)", "of it", "call - user space");
	for (size_t i = 0; i < lu->n; i++) {
		const struct lineup_row *r = &lu->rows[i];
		char share[64], user[24], minus_user[64], pct[16], cs[64], counter[64];
		if (!r->call || strcmp(r->call, LINEUP_CALL))
			continue;
		ts_str(cs, sizeof cs, r->clocksource ? r->clocksource : "?");
		ts_str(counter, sizeof counter, r->counter ? r->counter : "?");
		if (!r->tested) {
			fprintf(o, "%-10s %-10s  fewer than 2 rounds (OS %zu, hardware %zu): no split\n", cs, counter,
				r->os_n, r->hw_n);
			continue;
		}
		diff_text(share, sizeof share, r->tested, r->diff, r->err, r->significant);
		diff_text(minus_user, sizeof minus_user, r->user_tested, r->user_diff, r->user_err, r->user_significant);
		if (r->user_tested)
			snprintf(user, sizeof user, "%.1f", r->user_p50);
		else
			snprintf(user, sizeof user, "%s", r->user_n ? "1 round" : "-");
		if (r->os_p50 > 0) /* of the medians: what part of a typical call is not the read */
			snprintf(pct, sizeof pct, "%.0f%%", 100 * (r->os_p50 - r->hw_p50) / r->os_p50);
		else
			snprintf(pct, sizeof pct, "-");
		fprintf(o, "%-10s %-10s %9.1f %10s %10.1f  %-26s %5s  %s", cs, counter, r->hw_p50, user, r->os_p50, share,
			pct, minus_user);
		if (pairs)
			runs_vs(o, r->os_run, r->hw_run);
		fputc('\n', o);
	}
}

static void cell(FILE *o, const struct ld_num *v, int width, int decimals)
{
	if (v->state == LD_SET)
		fprintf(o, " %*.*f", width, decimals, v->v);
	else
		fprintf(o, " %*s", width, "-");
}

void contention_print(FILE *o, const struct lrun *const *runs, size_t nruns, const struct seeds *s)
{
	bool head = false;

	for (size_t i = 0; i < s->n; i++) {
		const struct seed_row *row = &s->rows[i];
		struct ld_os_contention oc;
		const struct lr_node *hw = NULL;
		const char *counter = lineup_counter(row->clocksource);
		const struct lrun *hw_run = NULL;
		char cs[64];
		ld_decode_os_contention(row->contention, &oc);
		if (oc.readers.state != LD_SET)
			continue;
		ts_str(cs, sizeof cs, row->clocksource ? row->clocksource : "?");
		for (size_t h = 0; h < nruns && !hw; h++)
			if (!lineup_is_os(runs[h]) && (hw = lineup_hw_contention(runs[h], counter)))
				hw_run = runs[h];
		if (!head) {
			fprintf(o, "\nContention: n threads on n CPUs calling " LINEUP_CALL
				   " at once (OS), against n CPUs "
				   "reading the counter at once (hardware, the probe's contention record):\n");
			fprintf(o, "%-10s %-10s %3s %10s %10s %14s %10s %10s %14s\n", "clocksrc", "counter", "n", "os p50",
				"os p99", "os calls/s", "hw p50", "hw p99", "hw reads/s");
			head = true;
		}
		for (size_t k = 0; k < oc.readers.n; k++) {
			struct ld_os_level m;
			struct ld_contention_level hr;
			double n;
			ld_os_contention_readers_at(&oc, k, &m);
			if (!lr_num(m.n.node, &n))
				continue;
			ld_decode_contention_level(lineup_readers_n(hw, n), &hr);
			fprintf(o, "%-10s %-10s %3.0f", cs, counter ? counter : "-", n);
			cell(o, &m.p50_ns, 10, 1);
			cell(o, &m.p99_ns, 10, 1);
			cell(o, &m.reads_per_s, 14, 0);
			cell(o, &hr.p50_ns, 10, 1);
			cell(o, &hr.p99_ns, 10, 1);
			cell(o, &hr.reads_per_s, 14, 0);
			fputc('\n', o);
		}
		if (!hw)
			fprintf(o, "%-10s %-10s     (no bare-metal contention record of %s in these logs)\n", cs,
				counter ? counter : "-", counter ? counter : "this clocksource");
		else if (nruns > 2) {
			fprintf(o, "%-10s %-10s    ", "", "");
			runs_vs(o, row->run, hw_run);
			fputc('\n', o);
		}
	}
}
