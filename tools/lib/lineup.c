/* SPDX-License-Identifier: BSD-2-Clause */
/* The kernel's clock call lined up with the bare hardware read beneath it:
 * see tools/lib/lineup.h. */
#include <stdlib.h>
#include <string.h>
#include "tools/lib/lineup.h"
#include "tools/lib/logschema.h"
#include "tools/lib/stats.h"

/* OS clocksource -> the hardware counter it reads.  Linux's "acpi_pm" reads
 * the PM timer once on a sound chipset, as the probe's "acpi-fast" does
 * ("acpi-safe" reads until two agree).  "tsc-early" is the TSC before the
 * kernel's refined calibration: the same rdtsc.  Extend here for more
 * clocksources. */
static const struct {
	const char *clocksource, *counter;
} os_map[] = {
	{ "tsc", "tsc" },
	{ "tsc-early", "tsc" },
	{ "hpet", "hpet" },
	{ "acpi_pm", "acpi-fast" },
};

/* Calls that return the time kept at the last tick and read no counter:
 * CLOCK_MONOTONIC_COARSE, and time(), which is the vDSO's stored seconds
 * whatever the clocksource.  Set against a hardware read they would show a
 * "kernel path" below zero (time() at -112 ns against a 140 ns HPET read
 * under TCG), so they are not lined up. */
static const char *const tick_calls[] = { "clock_gettime(MONOTONIC_COARSE)", "time" };

static int reads_no_counter(const char *call)
{
	for (size_t i = 0; call && i < sizeof tick_calls / sizeof tick_calls[0]; i++)
		if (!strcmp(call, tick_calls[i]))
			return 1;
	return 0;
}

int lineup_is_os(const struct lrun *r)
{
	const char *boot = lrun_boot(r);
	return boot && !strcmp(boot, "linux");
}

size_t lineup_runs(const struct logfile *files, size_t nfiles, const struct lrun **out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < nfiles; i++)
		for (size_t k = 0; k < files[i].nruns && n < cap; k++) {
			const struct lrun *r = &files[i].runs[k];
			if (!r->info.newer_schema && r->nrecs)
				out[n++] = r;
		}
	return n;
}

const char *lineup_counter(const char *clocksource)
{
	if (!clocksource)
		return NULL;
	for (size_t m = 0; m < sizeof os_map / sizeof os_map[0]; m++)
		if (!strcmp(clocksource, os_map[m].clocksource))
			return os_map[m].counter;
	return NULL;
}

static int push(struct lineup *l, size_t *cap, const struct lineup_row *row)
{
	if (l->n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 16;
		struct lineup_row *p = realloc(l->rows, ncap * sizeof *p);
		if (!p)
			return -1;
		l->rows = p;
		*cap = ncap;
	}
	l->rows[l->n++] = *row;
	return 0;
}

/* The row for one OS timer against one hardware timer; *so summarises the OS
 * timer's per-round values (row->os_n of them) when there are 2 or more. */
static void measure(struct lineup_row *row, const struct lr_node *hw, const char *metric, const struct stats *so,
		    int conf_index)
{
	double *h = NULL;
	struct stats sh;
	struct stats_diff d;

	row->hw_n = timer_rounds(hw, metric, &h);
	if (row->os_n >= 2 && row->hw_n >= 2) {
		stats_compute(h, row->hw_n, &sh);
		stats_compare(&sh, so, conf_index, &d);
		row->tested = 1;
		row->os_p50 = so->median;
		row->hw_p50 = sh.median;
		row->diff = d.diff;
		row->err = d.err;
		row->significant = d.significant;
	}
	free(h);
}

/* The OS log's own raw read of the counter (clocksource null), beside the call. */
static void user_read(struct lineup_row *row, const struct lr_node *raw, const char *metric, const struct stats *so,
		      int conf_index)
{
	double *u = NULL;
	struct stats su;
	struct stats_diff d;
	struct ld_timer t;

	ld_decode_timer(raw, &t);
	if (!raw || t.clocksource.state == LD_SET)
		return;
	row->user_n = timer_rounds(raw, metric, &u);
	if (row->user_n >= 2 && row->os_n >= 2) {
		stats_compute(u, row->user_n, &su);
		stats_compare(&su, so, conf_index, &d);
		row->user_tested = 1;
		row->user_p50 = su.median;
		row->user_diff = d.diff;
		row->user_err = d.err;
		row->user_significant = d.significant;
	}
	free(u);
}

int lineup_build(const struct lrun *const *runs, size_t nruns, const char *metric, int conf_index,
		 struct lineup *out)
{
	size_t cap = 0;

	out->rows = NULL;
	out->n = 0;
	for (size_t j = 0; j < nruns; j++) {
		const struct lr_node *t;
		if (!lineup_is_os(runs[j]))
			continue;
		for (size_t i = 0; (t = lrun_timer_at(runs[j], i)); i++) {
			struct ld_timer timer;
			ld_decode_timer(t, &timer);
			const char *cs = ld_str_or(timer.clocksource, NULL), *counter = cs ? lineup_counter(cs) : NULL;
			double *o = NULL;
			struct stats so = { 0 };
			struct lineup_row row;
			int fail = 0;

			if (!counter || reads_no_counter(ld_str_or(timer.call, NULL)))
				continue;
			memset(&row, 0, sizeof row);
			row.clocksource = cs;
			row.call = ld_str_or(timer.call, NULL);
			row.counter = counter;
			row.os_log = j;
			row.os_run = runs[j];
			row.os_n = timer_rounds(t, metric, &o);
			if (row.os_n >= 2)
				stats_compute(o, row.os_n, &so); /* sorts o; it is not used after */
			user_read(&row, lrun_timer(runs[j], counter), metric, &so, conf_index);
			for (size_t h = 0; h < nruns && !fail; h++) {
				const struct lr_node *hw = lineup_is_os(runs[h]) ? NULL : lrun_timer(runs[h], counter);
				struct lineup_row r = row;
				if (!hw)
					continue;
				r.hw_log = h;
				r.hw_run = runs[h];
				measure(&r, hw, metric, &so, conf_index);
				fail = push(out, &cap, &r);
			}
			free(o);
			if (fail) {
				lineup_free(out);
				return -1;
			}
		}
	}
	return 0;
}

void lineup_free(struct lineup *l)
{
	free(l->rows);
	l->rows = NULL;
	l->n = 0;
}

const struct lr_node *lineup_hw_contention(const struct lrun *r, const char *counter)
{
	for (size_t i = 0; counter && i < r->nrecs; i++) {
		const struct lrec *rec = &r->recs[i];
		struct ld_contention c;
		if (!rec->type || strcmp(rec->type, "contention"))
			continue;
		ld_decode_contention(rec->root, &c);
		if (c.counter.state == LD_SET && !strcmp(c.counter.s, counter))
			return rec->root;
	}
	return NULL;
}

const struct lr_node *lineup_readers_n(const struct lr_node *rec, double n)
{
	struct ld_contention c;

	ld_decode_contention(rec, &c);
	for (size_t i = 0; c.readers.state == LD_SET && i < c.readers.n; i++) {
		struct ld_contention_level m;
		double k;
		ld_contention_readers_at(&c, i, &m);
		if (lr_num(m.n.node, &k) && k == n) /* any number, as written */
			return m.ld.node;
	}
	return NULL;
}
