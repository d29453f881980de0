/* SPDX-License-Identifier: BSD-2-Clause */
#include "probe/records.h"
#include "lib/fmt.h"
#include "probe/hist_codec.h"
#include "lib/util.h"

#define SAMPLES_PER_RECORD 1000

/* Without a TSC frequency there are no nanoseconds: NaN, which the JSON
 * writer turns into null (never a cycle count under an ns key). */
static double ns(double cycles, double tsc_hz) { return tsc_hz > 0 ? cycles * 1e9 / tsc_hz : __builtin_nan(""); }

void json_cost(struct json *j, const char *key, const struct hist *h)
{
	json_object_begin(j, key);
	json_u64(j, "min", h->min);
	json_u64(j, "p50", hist_quantile(h, 500000));
	json_fixed(j, "mean", hist_mean(h), 1);
	json_fixed(j, "sd", hist_sd(h), 1);
	json_u64(j, "p99", hist_quantile(h, 990000));
	json_u64(j, "p999", hist_quantile(h, 999000));
	json_u64(j, "max", h->max);
	json_object_end(j);
}

static void json_hist(struct json *j, const struct hist *h)
{
	/* Schema 2: every non-empty bin as (skip, count), probe/hist_codec.h. */
	hist_encode(j, "hist", h);
}

static void json_modes(struct json *j, const struct hist *h)
{
	struct hist_mode m[5];
	int n = hist_modes(h, m, 5);

	json_array_begin(j, "modes");
	for (int i = 0; i < n; i++)
		json_pair_u64(j, m[i].value, m[i].count);
	json_array_end(j);
}

void json_rounds(struct json *j, const double *p50_ns, const double *mean_ns, uint32_t n)
{
	/* Schema 2: one column per metric, not the keys again in every round. */
	json_object_begin(j, "rounds");
	json_array_begin(j, "p50");
	for (uint32_t i = 0; i < n; i++)
		json_fixed(j, NULL, p50_ns[i], 1);
	json_array_end(j);
	json_array_begin(j, "mean");
	for (uint32_t i = 0; i < n; i++)
		json_fixed(j, NULL, mean_ns[i], 1);
	json_array_end(j);
	json_object_end(j);
}

uint64_t timer_over_10x_p50(const struct hist *h)
{
	/* Two rules were once in use for a p50 of 0: a limit of 10 (this one)
	 * and a limit of 1.  Ten times the p50 taken at the histogram's one-cycle
	 * resolution keeps the limit where a p50 of 1 puts it; a limit of 1
	 * would count a 2-cycle sample as a tenfold outlier. */
	uint64_t p50 = hist_quantile(h, 500000), limit = 10 * (p50 ? p50 : 1);
	uint64_t value, count, over = 0;
	size_t cursor = 0;

	while (hist_next(h, &cursor, &value, &count))
		if (value > limit)
			over += count;
	return over;
}

/* The core clock over the measurement (probe/core_clock.h) and, where its
 * ratio is known, the cost in core cycles.  Not written where the CPU has no
 * APERF/MPERF: the machine record's core_clock says why. */
static void json_core_clock(struct json *j, const struct timer_figures *f)
{
	const struct core_clock *cc = &f->core;

	json_object_begin(j, "core_clock");
	json_u64(j, "aperf", cc->aperf);
	json_u64(j, "mperf", cc->mperf);
	json_fixed(j, "ratio", cc->ratio, 4);
	json_fixed(j, "effective_hz", cc->effective_hz, 0);
	json_object_end(j);
	if (cc->mperf) {
		json_object_begin(j, "cost_core_cycles");
		json_fixed(j, "min", core_clock_cycles(cc, (double)f->cost->min), 1);
		json_fixed(j, "p50", core_clock_cycles(cc, (double)hist_quantile(f->cost, 500000)), 1);
		json_object_end(j);
	}
}

static void json_delta(struct json *j, const struct timer_figures *f)
{
	if (f->has_delta && f->delta) {
		const struct delta_summary *d = f->delta;
		/* Over min(samples, 16384) reads (RUN_DELTA_READS), in counter
		 * ticks: [min, granularity, mode, mode_count, max, backwards, wraps]
		 * (docs/log-format.md): the keys again in every record took 70 bytes. */
		json_array_begin(j, "delta");
		json_u64(j, NULL, d->min);
		json_u64(j, NULL, d->granularity);
		json_u64(j, NULL, d->mode);
		json_u64(j, NULL, d->mode_count);
		json_u64(j, NULL, d->max);
		json_u64(j, NULL, d->backwards);
		json_u64(j, NULL, d->wraps);
		json_array_end(j);
	} else if (f->has_delta) {
		json_null(j, "delta");
	}
}

static void json_outliers(struct json *j, const struct timer_figures *f)
{
	/* Exact values, not histogram buckets: the largest samples are the ones
	 * most likely past HIST_EXACT, where a bucket's lower bound is up to
	 * 1/HIST_SUB below the sample (the image once wrote bucket bounds). */
	json_object_begin(j, "outliers");
	json_array_begin(j, "largest");
	for (int i = 0; i < f->n_largest; i++)
		json_u64(j, NULL, f->largest[i]);
	json_array_end(j);
	json_u64(j, "over_10x_p50", timer_over_10x_p50(f->cost));
	json_object_end(j);
}

static void json_freq(struct json *j, const struct freq_check *fq)
{
	json_object_begin(j, "freq");
	if (fq->nominal_hz) /* 0: no nominal rate (the APIC timer without CPUID 0x15) */
		json_u64(j, "nominal_hz", fq->nominal_hz);
	else
		json_null(j, "nominal_hz");
	json_fixed(j, "measured_hz", fq->measured_hz, 1);
	json_fixed(j, "ppm", fq->ppm, 2); /* not derivable: 1 Hz is "1.0" */
	json_fixed(j, "err_ppm", fq->err_ppm, 2);
	if (fq->reference) /* the counter that timed the TSC; absent: false */
		json_bool(j, "reference", true);
	json_object_end(j);
}

void timer_members(struct json *j, const struct timer_what *w, const struct timer_figures *f,
		   timer_hist_fn hist, const void *hist_ctx)
{
	const struct freq_check *fq = f ? f->freq : NULL;

	json_str(j, "name", w->name);
	if (w->call) {
		json_str(j, "clocksource", w->clocksource);
		json_str(j, "call", w->call);
	}
	if (!w->healthy || !f || !f->cost || !f->cost->count) {
		/* Not measured: the name and the reason say it all. */
		json_bool(j, "present", w->present);
		json_bool(j, "healthy", false);
		json_str(j, "reason", w->reason && w->reason[0] ? w->reason : "not measured");
		if (w->note && w->note[0])
			json_str(j, "note", w->note);
		if (w->more)
			w->more(j, w->more_ctx);
		json_u64(j, "samples", 0);
		return;
	}
	/* Measured: present and healthy, which samples > 0 says. */
	if (w->note && w->note[0])
		json_str(j, "note", w->note);
	json_str(j, "method", w->method);
	if (w->width)
		json_u64(j, "width", w->width);
	else
		json_null(j, "width");
	if (w->address)
		json_u64(j, "address", w->address);
	if (w->insns >= 0)
		json_u64(j, "insns", (uint64_t)w->insns);
	if (w->more)
		w->more(j, w->more_ctx);
	/* What follows from other members is not written again (docs/log-format.md,
	 * "Derived members"): the ns figures from cost_cycles and the tsc
	 * record's hz, reads_per_s from throughput, the samples requested when
	 * they were all taken, the overhead from the overhead record. */
	json_u64(j, "samples", f->cost->count);
	if (f->samples_requested != f->cost->count)
		json_u64(j, "samples_requested", f->samples_requested);
	if (f->clamped)
		json_u64(j, "clamped", f->clamped);
	json_cost(j, "cost_cycles", f->cost);
	if (!hist(j, f->cost, hist_ctx))
		json_modes(j, f->cost);

	json_object_begin(j, "throughput");
	json_u64(j, "reads", f->tp_reads);
	json_u64(j, "cycles", f->tp_cycles);
	json_object_end(j);

	json_rounds(j, f->round_p50_ns, f->round_mean_ns, f->rounds);

	json_delta(j, f);
	json_outliers(j, f);
	if (fq && fq->valid)
		json_freq(j, fq);
	if (f->smi_valid) {
		json_object_begin(j, "smi");
		json_u64(j, "before", f->smi_before);
		json_u64(j, "after", f->smi_after);
		json_object_end(j);
	}
	if (f->has_core && f->core_valid)
		json_core_clock(j, f);
}

static bool hist_whole(struct json *j, const struct hist *h, const void *ctx)
{
	(void)ctx;
	json_hist(j, h);
	return true;
}

static bool hist_omitted(struct json *j, const struct hist *h, const void *ctx)
{
	(void)h, (void)ctx;
	json_str(j, "hist", "omitted: more distinct values than one record holds");
	return false;
}

static void cpu_member(struct json *j, const void *ctx)
{
	json_u64(j, "cpu", *(const unsigned *)ctx);
}

void record_timer(struct log *l, const struct counter *c, const struct counter_state *s,
		  const struct measure_result *r, const struct hist *cost, const struct freq_check *f,
		  double tsc_hz, uint32_t samples)
{
	record_timer_on(l, -1, c, s, r, cost, f, tsc_hz, samples);
}

void record_timer_on(struct log *l, int cpu, const struct counter *c, const struct counter_state *s,
		     const struct measure_result *r, const struct hist *cost, const struct freq_check *f,
		     double tsc_hz, uint32_t samples)
{
	double p50_ns[MEASURE_MAX_ROUNDS], mean_ns[MEASURE_MAX_ROUNDS];
	unsigned on = cpu < 0 ? 0 : (unsigned)cpu;
	struct timer_what w = {
		.name = c->name, .present = s->present, .healthy = s->healthy, .reason = s->reason,
		.note = s->note, .method = c->method, .width = c->width, /* address: in the acpi record */
		/* 0: a compiled read whose instruction count is not fixed (kvmclock) */
		.insns = c->insns ? (int)c->insns : -1,
		.more = cpu < 0 ? NULL : cpu_member, .more_ctx = &on,
	};
	struct timer_figures fig = { .cost = NULL };
	struct json *j;

	if (s->healthy && r && cost) {
		for (uint32_t i = 0; i < r->rounds && i < MEASURE_MAX_ROUNDS; i++) {
			p50_ns[i] = ns((double)r->round_p50[i], tsc_hz);
			mean_ns[i] = ns(r->round_mean[i], tsc_hz);
		}
		fig = (struct timer_figures){
			.cost = cost, .samples_requested = samples, .clamped = r->clamped,
			.tp_reads = r->tp_reads, .tp_cycles = r->tp_cycles, .rounds = r->rounds,
			.round_p50_ns = p50_ns, .round_mean_ns = mean_ns, .has_delta = true,
			.delta = r->delta_valid ? &r->delta : NULL, .largest = r->largest, .n_largest = r->n_largest,
			.freq = f, .smi_valid = r->smi_valid, .smi_before = r->smi_before, .smi_after = r->smi_after,
			.has_core = true, .core_valid = r->core_valid,
		};
		if (r->core_valid)
			core_clock_from(r->aperf_before, r->aperf_after, r->mperf_before, r->mperf_after, tsc_hz,
					&fig.core);
	}
	j = log_begin(l, "timer");
	timer_members(j, &w, s->healthy && r && cost ? &fig : NULL, hist_whole, NULL);
	/* A histogram of more distinct costs than one record holds (about 7000
	 * at 100000 samples) must not cost the whole record: write it again
	 * without the histogram, and say so. */
	if (j->overflow) {
		j = log_begin(l, "timer");
		timer_members(j, &w, &fig, hist_omitted, NULL);
	}
	log_end(l);
}

void record_overhead(struct log *l, const char *sequence, const struct hist *cost, uint64_t subtracted,
		     const struct overhead_candidate *cand, int n_cand)
{
	struct json *j = log_begin(l, "overhead");
	json_str(j, "sequence", sequence);
	json_array_begin(j, "candidates");
	for (int i = 0; i < n_cand; i++) {
		json_object_begin(j, NULL);
		json_str(j, "sequence", cand[i].sequence);
		json_u64(j, "min", cand[i].min);
		json_u64(j, "p50", cand[i].p50);
		json_u64(j, "round_min_spread", cand[i].round_min_spread);
		json_object_end(j);
	}
	json_array_end(j);
	json_u64(j, "samples", cost->count);
	json_cost(j, "cycles", cost);
	json_hist(j, cost);
	json_u64(j, "subtracted", subtracted);
	log_end(l);
}

void record_samples(struct log *l, const char *name, const uint32_t *raw, uint32_t n)
{
	for (uint32_t off = 0; off < n; off += SAMPLES_PER_RECORD) {
		struct json *j = log_begin(l, "samples");
		json_str(j, "name", name);
		json_u64(j, "offset", off);
		json_array_begin(j, "values");
		for (uint32_t i = off; i < n && i < off + SAMPLES_PER_RECORD; i++)
			json_u64(j, NULL, raw[i]);
		json_array_end(j);
		log_end(l);
	}
}

int table_header(char *buf, size_t cap)
{
	return tp_snprintf(buf, cap, "%-13s %9s %9s %9s %9s %12s  %s\n", "counter", "p50 ns", "min ns",
			   "mean ns", "sd ns", "reads/s", "health");
}

int table_row(char *buf, size_t cap, const struct counter *c, const struct counter_state *s,
	      const struct measure_result *r, const struct hist *cost, double tsc_hz)
{
	if (!s->healthy)
		return tp_snprintf(buf, cap, "%-13s %9s %9s %9s %9s %12s  %s\n", c->name, "-", "-", "-", "-",
				   "-", s->present ? "unhealthy" : "absent");
	return tp_snprintf(buf, cap, "%-13s %9.1f %9.1f %9.1f %9.1f %12.0f  ok\n", c->name,
			   ns((double)hist_quantile(cost, 500000), tsc_hz), ns((double)cost->min, tsc_hz),
			   ns(hist_mean(cost), tsc_hz), ns(hist_sd(cost), tsc_hz),
			   r->tp_cycles ? (double)r->tp_reads * tsc_hz / (double)r->tp_cycles : 0.0);
}
