/* SPDX-License-Identifier: BSD-2-Clause */
/* Record writers for `tickprobe os` (tools/os/record.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/hist_codec.h"
#include "probe/records.h"
#include "tools/lib/stats.h"
#include "tools/os/record.h"

void os_json_hist(struct json *j, const char *key, const struct hist *h, uint64_t step)
{
	size_t cur = 0;
	uint64_t v, n, bin = 0, acc = 0;
	bool have = false;
	struct hist_enc e;

	/* A merged bin's value, a multiple of step (at most 4096), is still a
	 * bin's lower bound: log buckets start at multiples of 128 or more. */
	hist_enc_begin(&e, j, key);
	while (hist_next(h, &cur, &v, &n)) {
		uint64_t b = step > 1 ? v / step * step : v;
		if (have && b != bin) {
			hist_enc_add(&e, bin, acc);
			acc = 0;
		}
		bin = b;
		acc += n;
		have = true;
		if (j->overflow)
			break;
	}
	if (have)
		hist_enc_add(&e, bin, acc);
	hist_enc_end(&e);
}

void os_json_modes(struct json *j, const char *key, const struct hist *h)
{
	struct hist_mode m[5];
	int n = hist_modes(h, m, 5);

	json_array_begin(j, key);
	for (int i = 0; i < n; i++)
		json_pair_u64(j, m[i].value, m[i].count);
	json_array_end(j);
}

static void stats_obj(struct json *j, const char *key, const double *v, int n, int decimals)
{
	double *tmp = malloc((n ? n : 1) * sizeof *tmp);
	struct stats s;

	json_object_begin(j, key);
	if (!tmp || n == 0) {
		json_null(j, "min"), json_null(j, "median"), json_null(j, "mean");
		json_null(j, "sd"), json_null(j, "max");
	} else {
		memcpy(tmp, v, n * sizeof *tmp);
		stats_compute(tmp, (size_t)n, &s);
		json_fixed(j, "min", s.min, decimals);
		json_fixed(j, "median", s.median, decimals);
		json_fixed(j, "mean", s.mean, decimals);
		json_fixed(j, "sd", s.sd, decimals);
		json_fixed(j, "max", s.max, decimals);
	}
	json_object_end(j);
	free(tmp);
}

/* The OS side's own members of a timer record: how the call reaches the
 * kernel. */
static void vdso_members(struct json *j, const void *ctx)
{
	const struct os_timer_rec *r = ctx;

	if (!r->has_vdso)
		return;
	if (r->vdso < 0)
		json_null(j, "vdso");
	else
		json_bool(j, "vdso", r->vdso == 1);
	json_object_begin(j, "vdso_evidence");
	json_str(j, "method", r->vdso_method);
	json_u64(j, "calls", r->vdso_calls);
	if (r->syscalls_per_call >= 0)
		json_fixed(j, "syscalls_per_call", r->syscalls_per_call, 3);
	else
		json_null(j, "syscalls_per_call");
	if (r->cost_ratio >= 0)
		json_fixed(j, "cost_ratio", r->cost_ratio, 3);
	else
		json_null(j, "cost_ratio");
	json_str(j, "text", r->vdso_text);
	json_object_end(j);
}

/* The histogram, its bins merged to multiples of *step: exact only at 1. */
static bool merged_hist(struct json *j, const struct hist *h, const void *ctx)
{
	uint64_t step = *(const uint64_t *)ctx;

	os_json_hist(j, "hist", h, step);
	if (step > 1)
		json_u64(j, "hist_bin", step);
	json_fixed(j, "hist_rel_error", 1.0 / HIST_SUB, 5);
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
		struct json *j = log_begin(l, "timer");
		timer_members(j, &w, d && r->healthy ? &f : NULL, merged_hist, &step);
		if (!l->j.overflow || step >= 4096)
			break;
		step *= 8;
	}
	log_end(l);
	free(p50);
	free(mean);
}

void os_write_overhead(struct log *l, const char *sequence, const struct os_dist *d, uint64_t subtracted)
{
	struct json *j = log_begin(l, "overhead");

	json_str(j, "sequence", sequence);
	/* One candidate only: the image's other bracket uses CPUID, a VM exit. */
	json_array_begin(j, "candidates");
	json_object_begin(j, NULL);
	json_str(j, "sequence", sequence);
	json_u64(j, "min", d->h->count ? d->h->min : 0);
	json_u64(j, "p50", hist_quantile(d->h, 500000));
	{
		double lo = 0, hi = 0;
		for (int i = 0; i < d->nrounds; i++) {
			lo = i == 0 || d->round_min[i] < lo ? d->round_min[i] : lo;
			hi = i == 0 || d->round_min[i] > hi ? d->round_min[i] : hi;
		}
		json_u64(j, "round_min_spread", (uint64_t)(hi - lo));
	}
	json_object_end(j);
	json_array_end(j);
	json_u64(j, "samples", d->h->count);
	json_cost(j, "cycles", d->h);
	os_json_hist(j, "hist", d->h, 1);
	json_u64(j, "hist_exact_below", HIST_EXACT);
	json_fixed(j, "hist_rel_error", 1.0 / HIST_SUB, 5);
	json_u64(j, "subtracted", subtracted);
	log_end(l);
}

struct json *os_begin_call_record(struct log *l, const char *type, const char *kind, const char *clocksource)
{
	char name[96];
	struct json *j = log_begin(l, type);

	snprintf(name, sizeof name, "%s:clock_gettime(MONOTONIC)@%s", kind, clocksource);
	json_str(j, "name", name);
	json_str(j, "clocksource", clocksource);
	json_str(j, "call", "clock_gettime(MONOTONIC)");
	return j;
}

void os_write_rate(struct log *l, const char *clocksource, uint32_t calls, const double *runs, int nruns)
{
	struct json *j = os_begin_call_record(l, "rate", "loop", clocksource);

	json_str(j, "method", "back-to-back calls in a loop, the loop timed with the TSC");
	json_u64(j, "calls", calls);
	json_array_begin(j, "runs");
	for (int i = 0; i < nruns; i++)
		json_fixed(j, NULL, runs[i], 1);
	json_array_end(j);
	stats_obj(j, "calls_per_s", runs, nruns, 1);
	log_end(l);
}

void os_write_gaps(struct log *l, const char *clocksource, const struct hist *h, uint64_t backwards)
{
	struct json *j = os_begin_call_record(l, "gaps", "gaps", clocksource);

	json_u64(j, "samples", h->count);
	json_object_begin(j, "gap_ns");
	if (h->count) {
		json_u64(j, "min", h->min);
		json_u64(j, "p50", hist_quantile(h, 500000));
		json_fixed(j, "mean", hist_mean(h), 2);
		json_fixed(j, "sd", hist_sd(h), 2);
		json_u64(j, "max", h->max);
	} else {
		json_null(j, "min"), json_null(j, "p50"), json_null(j, "mean");
		json_null(j, "sd"), json_null(j, "max");
	}
	json_object_end(j);
	os_json_modes(j, "modes", h);
	json_u64(j, "backwards", backwards);
	os_json_hist(j, "hist", h, 1);
	log_end(l);
}

void os_write_ctxsw(struct log *l, const char *clocksource, const struct os_ctxsw *c)
{
	char name[96];
	struct json *j;

	snprintf(name, sizeof name, "ctxsw@%s", clocksource);
	j = log_begin(l, "ctxsw");
	json_str(j, "name", name);
	json_str(j, "clocksource", clocksource);
	json_bool(j, "healthy", c->ok);
	if (!c->ok)
		json_str(j, "reason", c->why);
	json_str(j, "method", "one-byte pipe ping-pong between two processes pinned to one CPU, timed with the TSC");
	json_i64(j, "cpu", c->cpu);
	json_u64(j, "batches", c->batches);
	json_u64(j, "round_trips", c->trips);
	json_u64(j, "switches", c->switches);
	json_fixed(j, "seconds", c->seconds, 3);
	json_rounds(j, c->round_p50_ns, c->round_mean_ns, (uint32_t)c->nrounds);
	json_array_begin(j, "runs");
	for (int i = 0; i < c->nrounds; i++)
		json_fixed(j, NULL, c->round_per_s[i], 1);
	json_array_end(j);
	stats_obj(j, "switches_per_s", c->round_per_s, c->nrounds, 1);
	log_end(l);
}
