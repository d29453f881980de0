/* SPDX-License-Identifier: BSD-2-Clause */
/* Record writers for `tickprobe os` (tools/os/record.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/hist_codec.h"
#include "probe/records.h"
#include "tools/lib/stats.h"
#include "tools/os/record.h"

/* Every non-empty bin, merged to multiples of step (1: exact), into an
 * encoder begun for a hist member.  A merged bin's value, a multiple of
 * step (at most 4096), is still a bin's lower bound: log buckets start at
 * multiples of 128 or more. */
static void hist_merged(struct hist_enc *e, const struct hist *h, uint64_t step)
{
	size_t cur = 0;
	uint64_t v, n, bin = 0, acc = 0;
	bool have = false;

	while (hist_next(h, &cur, &v, &n)) {
		uint64_t b = step > 1 ? v / step * step : v;
		if (have && b != bin) {
			hist_enc_add(e, bin, acc);
			acc = 0;
		}
		bin = b;
		acc += n;
		have = true;
		if (e->j->overflow)
			break;
	}
	if (have)
		hist_enc_add(e, bin, acc);
	hist_enc_end(e);
}

/* A spread's members over n values (all null when there are none); closes s. */
static void write_spread(struct put_spread s, const double *v, int n)
{
	double *tmp = malloc((n ? n : 1) * sizeof *tmp);
	struct stats st;

	if (!tmp || n == 0) {
		put_spread_min_null(s);
		put_spread_median_null(s);
		put_spread_mean_null(s);
		put_spread_sd_null(s);
		put_spread_max_null(s);
	} else {
		memcpy(tmp, v, n * sizeof *tmp);
		stats_compute(tmp, (size_t)n, &st);
		put_spread_min(s, st.min);
		put_spread_median(s, st.median);
		put_spread_mean(s, st.mean);
		put_spread_sd(s, st.sd);
		put_spread_max(s, st.max);
	}
	put_spread_close(s);
	free(tmp);
}

/* The OS side's own members of a timer record: how the call reaches the
 * kernel. */
static void vdso_members(struct put_timer t, const void *ctx)
{
	const struct os_timer_rec *r = ctx;
	struct put_vdso_evidence e;

	if (!r->has_vdso)
		return;
	if (r->vdso < 0)
		put_timer_vdso_null(t);
	else
		put_timer_vdso(t, r->vdso == 1);
	e = put_timer_vdso_evidence_open(t);
	put_vdso_evidence_method(e, r->vdso_method);
	put_vdso_evidence_calls(e, r->vdso_calls);
	if (r->syscalls_per_call >= 0)
		put_vdso_evidence_syscalls_per_call(e, r->syscalls_per_call);
	else
		put_vdso_evidence_syscalls_per_call_null(e);
	if (r->cost_ratio >= 0)
		put_vdso_evidence_cost_ratio(e, r->cost_ratio);
	else
		put_vdso_evidence_cost_ratio_null(e);
	put_vdso_evidence_text(e, r->vdso_text);
	put_vdso_evidence_close(e);
}

/* The histogram, its bins merged to multiples of *step: exact only at 1. */
static bool merged_hist(struct put_timer t, const struct hist *h, const void *ctx)
{
	uint64_t step = *(const uint64_t *)ctx;
	struct hist_enc e;

	put_timer_hist_encoder(t, &e);
	hist_merged(&e, h, step);
	if (step > 1)
		put_timer_hist_bin(t, step);
	put_timer_hist_rel_error(t, 1.0 / HIST_SUB);
	return step <= 1;
}

void os_write_timer(struct log *l, const struct os_timer_rec *r)
{
	static const double unknown = __builtin_nan("");
	const struct os_dist *d = r->d;
	struct timer_what w = {
		.name = r->name, .call = r->call, .clocksource = r->clocksource, .present = r->present,
		.healthy = r->healthy, .reason = r->reason ? r->reason : "unknown", .note = r->note,
		.method = r->method, .width = r->width > 0 ? (unsigned)r->width : 0, .address = r->address,
		.insns = -1, .more = vdso_members, .more_ctx = r,
	};
	struct freq_check fq = { 0 };
	struct timer_figures f = { 0 };
	double *p50 = NULL, *mean = NULL;
	uint64_t step = 1;
	int n_largest = 0;

	if (d && r->healthy) {
		while (n_largest < OS_TOP && d->top[n_largest])
			n_largest++;
		/* Without a TSC frequency there are no nanoseconds: null, not 0. */
		p50 = malloc((d->nrounds ? d->nrounds : 1) * sizeof *p50);
		mean = malloc((d->nrounds ? d->nrounds : 1) * sizeof *mean);
		for (int i = 0; p50 && mean && i < d->nrounds; i++) {
			p50[i] = r->hz > 0 ? d->round_p50_ns[i] : unknown;
			mean[i] = r->hz > 0 ? d->round_mean_ns[i] : unknown;
		}
		if (r->has_freq)
			fq = (struct freq_check){ .valid = true, .nominal_hz = (uint64_t)(r->nominal_hz + 0.5),
						  .measured_hz = r->measured_hz,
						  .ppm = (r->measured_hz - r->nominal_hz) / r->nominal_hz * 1e6,
						  .err_ppm = unknown, .reference = false };
		f = (struct timer_figures){
			.cost = d->h, .samples_requested = r->samples_requested,
			.clamped = d->clamped, .tp_reads = d->tp_reads, .tp_cycles = d->tp_cycles,
			.rounds = p50 && mean ? (uint32_t)d->nrounds : 0, .round_p50_ns = p50, .round_mean_ns = mean,
			.has_delta = false, .largest = d->top, .n_largest = n_largest, .freq = &fq, .smi_valid = false,
		};
	}
	/* A histogram of thousands of distinct costs (a slow, noisy clock) can pass
	 * the 96 KB record limit; then bins are merged, 8x at a time, and the
	 * record says so with hist_bin rather than being lost. */
	for (;;) {
		struct put_timer t = put_record_timer(l);
		timer_members(t, &w, d && r->healthy ? &f : NULL, merged_hist, &step);
		if (!t.j->overflow || step >= 4096)
			break;
		step *= 8;
	}
	log_end(l);
	free(p50);
	free(mean);
}

void os_write_overhead(struct log *l, const char *sequence, const struct os_dist *d, uint64_t subtracted)
{
	/* One candidate only: the image's other bracket uses CPUID, a VM exit. */
	struct overhead_candidate cand = { sequence, d->h->count ? d->h->min : 0, hist_quantile(d->h, 500000), 0 };
	double lo = 0, hi = 0;

	for (int i = 0; i < d->nrounds; i++) {
		lo = i == 0 || d->round_min[i] < lo ? d->round_min[i] : lo;
		hi = i == 0 || d->round_min[i] > hi ? d->round_min[i] : hi;
	}
	cand.round_min_spread = (uint64_t)(hi - lo);
	record_overhead(l, sequence, d->h, subtracted, &cand, 1, true);
}

void os_call_name(char *buf, size_t cap, const char *kind, const char *clocksource)
{
	snprintf(buf, cap, "%s:clock_gettime(MONOTONIC)@%s", kind, clocksource);
}

void os_write_rate(struct log *l, const char *clocksource, uint32_t calls, const double *runs, int nruns)
{
	struct put_rate r = put_record_rate(l);
	struct put_rate_runs_list list;
	char name[96];

	os_call_name(name, sizeof name, "loop", clocksource);
	put_rate_name(r, name);
	put_rate_clocksource(r, clocksource);
	put_rate_call(r, OS_CALL_MONOTONIC);
	put_rate_method(r, "back-to-back calls in a loop, the loop timed with the TSC");
	put_rate_calls(r, calls);
	list = put_rate_runs_open(r);
	for (int i = 0; i < nruns; i++)
		put_rate_runs_add(list, runs[i]);
	put_rate_runs_close(list);
	write_spread(put_rate_calls_per_s_open(r), runs, nruns);
	log_end(l);
}

static void gap_stats(struct put_gap_stats g, const struct hist *h)
{
	if (h->count) {
		put_gap_stats_min(g, h->min);
		put_gap_stats_p50(g, hist_quantile(h, 500000));
		put_gap_stats_mean(g, hist_mean(h));
		put_gap_stats_sd(g, hist_sd(h));
		put_gap_stats_max(g, h->max);
	} else {
		put_gap_stats_min_null(g);
		put_gap_stats_p50_null(g);
		put_gap_stats_mean_null(g);
		put_gap_stats_sd_null(g);
		put_gap_stats_max_null(g);
	}
	put_gap_stats_close(g);
}

void os_write_gaps(struct log *l, const char *clocksource, const struct hist *h, uint64_t backwards)
{
	struct put_gaps g = put_record_gaps(l);
	struct put_gaps_modes_list modes;
	struct hist_mode m[5];
	int n = hist_modes(h, m, 5);
	char name[96];

	os_call_name(name, sizeof name, "gaps", clocksource);
	put_gaps_name(g, name);
	put_gaps_clocksource(g, clocksource);
	put_gaps_call(g, OS_CALL_MONOTONIC);
	put_gaps_samples(g, h->count);
	gap_stats(put_gaps_gap_ns_open(g), h);
	modes = put_gaps_modes_open(g);
	for (int i = 0; i < n; i++)
		put_gaps_modes_add(modes, m[i].value, m[i].count);
	put_gaps_modes_close(modes);
	put_gaps_backwards(g, backwards);
	put_gaps_hist(g, h);
	log_end(l);
}

void os_write_ctxsw(struct log *l, const char *clocksource, const struct os_ctxsw *c)
{
	struct put_ctxsw x = put_record_ctxsw(l);
	struct put_ctxsw_runs_list runs;
	char name[96];

	snprintf(name, sizeof name, "ctxsw@%s", clocksource);
	put_ctxsw_name(x, name);
	put_ctxsw_clocksource(x, clocksource);
	put_ctxsw_healthy(x, c->ok);
	if (!c->ok)
		put_ctxsw_reason(x, c->why);
	put_ctxsw_method(x, "one-byte pipe ping-pong between two processes pinned to one CPU, timed with the TSC");
	put_ctxsw_cpu(x, c->cpu);
	put_ctxsw_batches(x, c->batches);
	put_ctxsw_round_trips(x, c->trips);
	put_ctxsw_switches(x, c->switches);
	put_ctxsw_seconds(x, c->seconds);
	write_rounds(put_ctxsw_rounds_open(x), c->round_p50_ns, c->round_mean_ns, (uint32_t)c->nrounds);
	runs = put_ctxsw_runs_open(x);
	for (int i = 0; i < c->nrounds; i++)
		put_ctxsw_runs_add(runs, c->round_per_s[i]);
	put_ctxsw_runs_close(runs);
	write_spread(put_ctxsw_switches_per_s_open(x), c->round_per_s, c->nrounds);
	log_end(l);
}
