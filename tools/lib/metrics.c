/* SPDX-License-Identifier: BSD-2-Clause */
/* A run's figures as Prometheus metrics (metrics.h). */
#include "tools/lib/metrics.h"
#include <stdlib.h>
#include <string.h>
#include "tools/lib/exit_codes.h"
#include "tools/lib/xalloc.h"
#include "tools/lib/verdict.h"
#include "tools/lib/logschema.h"

#define LABEL_MAX 64 /* a label value from a log is cut here: a log is no one's to trust */

/* A label value in the exposition format's escapes (\\, \", \n), other
 * control bytes dropped, at most LABEL_MAX bytes of it. */
static void label(FILE *o, const char *s)
{
	size_t n = 0;

	fputc('"', o);
	for (; s && *s && n < LABEL_MAX; s++, n++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\\' || c == '"')
			fprintf(o, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", o);
		else if (c >= 0x20 && c != 0x7f)
			fputc(c, o);
	}
	fputc('"', o);
}

static void family(FILE *o, const char *name, const char *type, const char *unit, const char *help,
		   const struct metrics_opts *mo)
{
	fprintf(o, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
	if (mo->openmetrics && unit)
		fprintf(o, "# UNIT %s %s\n", name, unit);
}

/* One sample: name{log="…", key="value"…} value; log only when the run
 * has a name (several logs in one exposition). */
static void sample(FILE *o, const char *name, const struct metrics_run *run, const char *k1, const char *v1,
		   const char *k2, const char *v2, double value)
{
	const char *sep = "";

	fputs(name, o);
	if (!run->log && !k1) {
		fprintf(o, " %.12g\n", value);
		return;
	}
	fputc('{', o);
	if (run->log) {
		fputs("log=", o);
		label(o, run->log);
		sep = ",";
	}
	if (k1) {
		fprintf(o, "%s%s=", sep, k1);
		label(o, v1);
		sep = ",";
	}
	if (k2) {
		fprintf(o, "%s%s=", sep, k2);
		label(o, v2);
	}
	fprintf(o, "} %.12g\n", value);
}

/* A summary's _sum and _count, from the reads measured: without them a
 * scraper reads a count of 0 beside the quantiles. */
static void cost_total(FILE *o, const struct metrics_run *run, const struct ld_timer *t)
{
	const char *name = ld_str_or(t->name, NULL);
	double samples;

	/* samples: any number, as written */
	if (t->cost_ns.mean.state != LD_SET || !lr_num(t->samples.node, &samples))
		return;
	sample(o, "tickprobe_read_cost_seconds_sum", run, "counter", name, NULL, NULL,
	       t->cost_ns.mean.v * samples * 1e-9);
	sample(o, "tickprobe_read_cost_seconds_count", run, "counter", name, NULL, NULL, samples);
}

static void costs(FILE *o, const struct metrics_run *runs, size_t n, const struct metrics_opts *mo)
{
	const struct lr_node *node;
	struct ld_timer t;

	family(o, "tickprobe_read_cost_seconds", "summary", "seconds",
	       "What one read of a counter costs, the harness subtracted (quantile 0.5 and 0.99).", mo);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; (node = lrun_timer_at(runs[k].r, i)); i++) {
			ld_decode_timer(node, &t);
			if (t.clocksource.state == LD_SET || t.cost_ns.p50.state != LD_SET)
				continue;
			sample(o, "tickprobe_read_cost_seconds", &runs[k], "counter", ld_str_or(t.name, NULL),
			       "quantile", "0.5", t.cost_ns.p50.v * 1e-9);
			if (t.cost_ns.p99.state == LD_SET)
				sample(o, "tickprobe_read_cost_seconds", &runs[k], "counter", ld_str_or(t.name, NULL),
				       "quantile", "0.99", t.cost_ns.p99.v * 1e-9);
			cost_total(o, &runs[k], &t);
		}
	family(o, "tickprobe_clock_healthy", "gauge", NULL,
	       "1 when the counter is present and passed its checks, 0 when not.", mo);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; (node = lrun_timer_at(runs[k].r, i)); i++) {
			ld_decode_timer(node, &t);
			if (t.clocksource.state != LD_SET)
				sample(o, "tickprobe_clock_healthy", &runs[k], "counter", ld_str_or(t.name, NULL), NULL,
				       NULL, ld_true(t.healthy) ? 1 : 0);
		}
}

/* An OS log's clock_gettime(MONOTONIC) on a clocksource, with its p50. */
static bool monotonic_cost(const struct ld_timer *t)
{
	const char *call = ld_str_or(t->call, NULL);

	return t->clocksource.state == LD_SET && call && !strcmp(call, "clock_gettime(MONOTONIC)") &&
	       t->cost_ns.p50.state == LD_SET;
}

static bool any_call(const struct lrun *r)
{
	const struct lr_node *node;
	struct ld_timer t;

	for (size_t i = 0; (node = lrun_timer_at(r, i)); i++) {
		ld_decode_timer(node, &t);
		if (monotonic_cost(&t))
			return true;
	}
	return false;
}

static void os_calls(FILE *o, const struct metrics_run *runs, size_t n, const struct metrics_opts *mo)
{
	const struct lr_node *node;
	struct ld_timer t;
	struct ld_begin b;
	bool any = false, cs = false;

	for (size_t k = 0; k < n; k++) {
		any |= any_call(runs[k].r);
		ld_decode_begin(lrun_first(runs[k].r, "begin"), &b);
		cs |= b.current_clocksource.state == LD_SET;
	}
	if (any)
		family(o, "tickprobe_clock_gettime_seconds", "gauge", "seconds",
		       "The p50 cost of clock_gettime(CLOCK_MONOTONIC) on each clocksource measured.", mo);
	for (size_t k = 0; any && k < n; k++)
		for (size_t i = 0; (node = lrun_timer_at(runs[k].r, i)); i++) {
			ld_decode_timer(node, &t);
			if (monotonic_cost(&t))
				sample(o, "tickprobe_clock_gettime_seconds", &runs[k], "clocksource", t.clocksource.s,
				       NULL, NULL, t.cost_ns.p50.v * 1e-9);
		}
	if (cs)
		family(o, "tickprobe_clocksource_info", "gauge", NULL, "The kernel's current clocksource.", mo);
	for (size_t k = 0; cs && k < n; k++) {
		ld_decode_begin(lrun_first(runs[k].r, "begin"), &b);
		if (b.current_clocksource.state == LD_SET)
			sample(o, "tickprobe_clocksource_info", &runs[k], "clocksource", b.current_clocksource.s, NULL,
			       NULL, 1);
	}
}

static void tsc(FILE *o, const struct metrics_run *runs, size_t n, const struct metrics_opts *mo)
{
	bool any_hz = false, any_bare = false;
	struct bare_verdict v;
	struct ld_tsc t;

	for (size_t k = 0; k < n; k++) {
		const char *boot = lrun_boot(runs[k].r);
		ld_decode_tsc(lrun_first(runs[k].r, "tsc"), &t);
		any_hz |= t.hz.state == LD_SET;
		any_bare |= boot && strcmp(boot, "linux");
	}
	if (any_hz)
		family(o, "tickprobe_tsc_frequency_hertz", "gauge", "hertz", "The TSC's calibrated frequency.", mo);
	for (size_t k = 0; any_hz && k < n; k++) {
		ld_decode_tsc(lrun_first(runs[k].r, "tsc"), &t);
		if (t.hz.state == LD_SET)
			sample(o, "tickprobe_tsc_frequency_hertz", &runs[k], NULL, NULL, NULL, NULL, t.hz.v);
	}
	if (!any_bare)
		return;
	family(o, "tickprobe_tsc_reliable", "gauge", NULL,
	       "1 when the TSC is fit to keep time on every CPU, 0 when not; absent when not known.", mo);
	for (size_t k = 0; k < n; k++) {
		const char *boot = lrun_boot(runs[k].r);
		if (!boot || !strcmp(boot, "linux"))
			continue;
		bare_verdict(runs[k].r, &v);
		if (v.tsc != TV_UNKNOWN)
			sample(o, "tickprobe_tsc_reliable", &runs[k], NULL, NULL, NULL, NULL, v.tsc == TV_RELIABLE ? 1 : 0);
	}
}

static void watch(FILE *o, const struct metrics_run *runs, size_t n, const struct metrics_opts *mo)
{
	static const struct {
		const char *name;
		size_t member; /* a struct ld_num in struct ld_watch_clock */
		const char *help;
	} rates[] = {
		{ "tickprobe_watch_rate_offset_ratio", offsetof(struct ld_watch_clock, rate_ppm),
		  "The watch: each counter's rate against the others' consensus (the TSC's against its calibration), "
		  "as a ratio (1e-6 is 1 ppm)." },
		{ "tickprobe_watch_drift_ratio_per_hour", offsetof(struct ld_watch_clock, drift_ppm_per_h),
		  "The watch: how fast each clock's rate changed, per hour, as a ratio." },
	};
	bool any = false;
	struct ld_watch w;

	for (size_t k = 0; k < n; k++)
		any |= lrun_first(runs[k].r, "watch") != NULL;
	if (!any)
		return;
	for (size_t m = 0; m < sizeof rates / sizeof rates[0]; m++) {
		family(o, rates[m].name, "gauge", NULL, rates[m].help, mo);
		for (size_t k = 0; k < n; k++) {
			ld_decode_watch(lrun_first(runs[k].r, "watch"), &w);
			for (size_t i = 0; w.clocks.state == LD_SET && i < w.clocks.n; i++) {
				struct ld_watch_clock c;
				ld_watch_clocks_at(&w, i, &c);
				const struct ld_num *v = (const struct ld_num *)((const char *)&c + rates[m].member);
				if (v->state == LD_SET)
					sample(o, rates[m].name, &runs[k], "clock", ld_str_or(c.name, NULL), NULL, NULL,
					       v->v * 1e-6);
			}
		}
	}
	family(o, "tickprobe_watch_odd_clock_info", "gauge", NULL,
	       "The watch: the clock that disagrees with the rest (clock=\"none\" when none does).", mo);
	for (size_t k = 0; k < n; k++) {
		const struct lr_node *node = lrun_first(runs[k].r, "watch");
		ld_decode_watch(node, &w);
		if (node)
			sample(o, "tickprobe_watch_odd_clock_info", &runs[k], "clock", ld_str_or(w.odd, "none"), NULL,
			       NULL, 1);
	}
}

void metrics_write(FILE *o, const struct metrics_run *runs, size_t n, const struct metrics_opts *mo)
{
	costs(o, runs, n, mo);
	os_calls(o, runs, n, mo);
	tsc(o, runs, n, mo);
	watch(o, runs, n, mo);
	if (mo->openmetrics)
		fputs("# EOF\n", o);
}

int metrics_export(char *const *paths, size_t n, bool openmetrics, long only_run)
{
	struct logfile *files = calloc(n ? n : 1, sizeof *files);
	struct metrics_run *runs = NULL;
	struct metrics_opts mo = { openmetrics };
	size_t nruns = 0, cap = 0;
	int status = EXIT_CLEAN;

	if (!files)
		return EXIT_UNREADABLE;
	for (size_t i = 0; i < n; i++) {
		logfile_load(&files[i], paths[i]);
		logfile_report(&files[i], stderr, "tickprobe export");
		status = exit_worse(status, files[i].status);
		for (size_t k = 0; k < files[i].nruns; k++) {
			if ((only_run && (size_t)only_run != k + 1) || files[i].runs[k].info.newer_schema)
				continue;
			if (nruns == cap) {
				cap = cap ? 2 * cap : 16;
				runs = xrealloc(runs, cap * sizeof *runs);
			}
			runs[nruns].r = &files[i].runs[k];
			runs[nruns].log = files[i].runs[k].name;
			nruns++;
		}
	}
	metrics_write(stdout, runs, nruns, &mo);
	for (size_t i = 0; i < n; i++)
		logfile_free(&files[i]);
	free(files);
	free(runs);
	return status;
}
