/* SPDX-License-Identifier: BSD-2-Clause */
#include "probe/records.h"
#include "lib/fmt.h"
#include "probe/hist_codec.h"
#include "lib/util.h"

#define SAMPLES_PER_RECORD 1000

/* Without a TSC frequency there are no nanoseconds: NaN, which the JSON
 * writer turns into null (never a cycle count under an ns key). */
static double ns(double cycles, double tsc_hz) { return tsc_hz > 0 ? cycles * 1e9 / tsc_hz : __builtin_nan(""); }

void write_cost(struct put_cost c, const struct hist *h)
{
	put_cost_min(c, h->min);
	put_cost_p50(c, hist_quantile(h, 500000));
	put_cost_mean(c, hist_mean(h));
	put_cost_sd(c, hist_sd(h));
	put_cost_p99(c, hist_quantile(h, 990000));
	put_cost_p999(c, hist_quantile(h, 999000));
	put_cost_max(c, h->max);
	put_cost_close(c);
}

static void write_modes(struct put_timer t, const struct hist *h)
{
	struct hist_mode m[5];
	int n = hist_modes(h, m, 5);
	struct put_timer_modes_list modes = put_timer_modes_open(t);

	for (int i = 0; i < n; i++)
		put_timer_modes_add(modes, m[i].value, m[i].count);
	put_timer_modes_close(modes);
}

void write_rounds(struct put_rounds_columns c, const double *p50_ns, const double *mean_ns, uint32_t n)
{
	/* Schema 2: one column per metric, not the keys again in every round. */
	struct put_rounds_p50_column p50 = put_rounds_p50_column_open(c);
	struct put_rounds_mean_column mean;

	for (uint32_t i = 0; i < n; i++)
		put_rounds_p50_column_add(p50, p50_ns[i]);
	put_rounds_p50_column_close(p50);
	mean = put_rounds_mean_column_open(c);
	for (uint32_t i = 0; i < n; i++)
		put_rounds_mean_column_add(mean, mean_ns[i]);
	put_rounds_mean_column_close(mean);
	put_rounds_columns_close(c);
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
static void write_core_clock(struct put_timer t, const struct timer_figures *f)
{
	const struct core_clock *cc = &f->core;
	struct put_core_clock k = put_timer_core_clock_open(t);

	put_core_clock_aperf(k, cc->aperf);
	put_core_clock_mperf(k, cc->mperf);
	put_core_clock_ratio(k, cc->ratio);
	put_core_clock_effective_hz(k, cc->effective_hz);
	put_core_clock_close(k);
	if (cc->mperf) {
		struct put_core_cost c = put_timer_cost_core_cycles_open(t);
		put_core_cost_min(c, core_clock_cycles(cc, (double)f->cost->min));
		put_core_cost_p50(c, core_clock_cycles(cc, (double)hist_quantile(f->cost, 500000)));
		put_core_cost_close(c);
	}
}

static void write_delta(struct put_timer t, const struct timer_figures *f)
{
	if (f->has_delta && f->delta) {
		const struct delta_summary *d = f->delta;
		/* Over min(samples, 16384) reads (RUN_DELTA_READS), in counter
		 * ticks, positional (docs/log-format.md): the keys again in every
		 * record took 70 bytes. */
		struct put_delta a = put_timer_delta_open(t);
		put_delta_min(a, d->min);
		put_delta_granularity(a, d->granularity);
		put_delta_mode(a, d->mode);
		put_delta_mode_count(a, d->mode_count);
		put_delta_max(a, d->max);
		put_delta_backwards(a, d->backwards);
		put_delta_wraps(a, d->wraps);
		put_delta_close(a);
	} else if (f->has_delta) {
		put_timer_delta_null(t);
	}
}

static void write_outliers(struct put_timer t, const struct timer_figures *f)
{
	/* Exact values, not histogram buckets: the largest samples are the ones
	 * most likely past HIST_EXACT, where a bucket's lower bound is up to
	 * 1/HIST_SUB below the sample (the image once wrote bucket bounds). */
	struct put_outliers o = put_timer_outliers_open(t);
	struct put_outliers_largest_list largest = put_outliers_largest_open(o);

	for (int i = 0; i < f->n_largest; i++)
		put_outliers_largest_add(largest, f->largest[i]);
	put_outliers_largest_close(largest);
	put_outliers_over_10x_p50(o, timer_over_10x_p50(f->cost));
	put_outliers_close(o);
}

static void write_freq(struct put_timer t, const struct freq_check *fq)
{
	struct put_freq o = put_timer_freq_open(t);

	if (fq->nominal_hz) /* 0: no nominal rate (the APIC timer without CPUID 0x15) */
		put_freq_nominal_hz(o, fq->nominal_hz);
	else
		put_freq_nominal_hz_null(o);
	put_freq_measured_hz(o, fq->measured_hz);
	put_freq_ppm(o, fq->ppm); /* not derivable: 1 Hz is "1.0" */
	put_freq_err_ppm(o, fq->err_ppm);
	if (fq->reference) /* the counter that timed the TSC; absent: false */
		put_freq_reference(o, true);
	put_freq_close(o);
}

/* A counter not measured: the name and the reason say it all. */
static void write_not_measured(struct put_timer t, const struct timer_what *w)
{
	put_timer_present(t, w->present);
	put_timer_healthy(t, false);
	put_timer_reason(t, w->reason && w->reason[0] ? w->reason : "not measured");
	if (w->note && w->note[0])
		put_timer_note(t, w->note);
	if (w->more)
		w->more(t, w->more_ctx);
	put_timer_samples(t, 0);
}

void timer_members(struct put_timer t, const struct timer_what *w, const struct timer_figures *f, timer_hist_fn hist,
		   const void *hist_ctx)
{
	const struct freq_check *fq = f ? f->freq : NULL;
	struct put_throughput tp;

	put_timer_name(t, w->name);
	if (w->call) {
		put_timer_clocksource(t, w->clocksource);
		put_timer_call(t, w->call);
	}
	if (!w->healthy || !f || !f->cost || !f->cost->count) {
		write_not_measured(t, w);
		return;
	}
	/* Measured: present and healthy, which samples > 0 says. */
	if (w->note && w->note[0])
		put_timer_note(t, w->note);
	put_timer_method(t, w->method);
	if (w->width)
		put_timer_width(t, w->width);
	else
		put_timer_width_null(t);
	if (w->address)
		put_timer_address(t, w->address);
	if (w->insns >= 0)
		put_timer_insns(t, (uint64_t)w->insns);
	if (w->more)
		w->more(t, w->more_ctx);
	/* What follows from other members is not written again (docs/log-format.md,
	 * "Derived members"): the ns figures from cost_cycles and the tsc
	 * record's hz, reads_per_s from throughput, the samples requested when
	 * they were all taken, the overhead from the overhead record. */
	put_timer_samples(t, f->cost->count);
	if (f->samples_requested != f->cost->count)
		put_timer_samples_requested(t, f->samples_requested);
	if (f->clamped)
		put_timer_clamped(t, f->clamped);
	write_cost(put_timer_cost_cycles_open(t), f->cost);
	if (!hist(t, f->cost, hist_ctx))
		write_modes(t, f->cost);

	tp = put_timer_throughput_open(t);
	put_throughput_reads(tp, f->tp_reads);
	put_throughput_cycles(tp, f->tp_cycles);
	put_throughput_close(tp);

	write_rounds(put_timer_rounds_open(t), f->round_p50_ns, f->round_mean_ns, f->rounds);

	write_delta(t, f);
	write_outliers(t, f);
	if (fq && fq->valid)
		write_freq(t, fq);
	if (f->smi_valid) {
		struct put_smi smi = put_timer_smi_open(t);
		put_smi_before(smi, f->smi_before);
		put_smi_after(smi, f->smi_after);
		put_smi_close(smi);
	}
	if (f->has_core && f->core_valid)
		write_core_clock(t, f);
}

static bool hist_whole(struct put_timer t, const struct hist *h, const void *ctx)
{
	(void)ctx;
	/* Schema 2: every non-empty bin as (skip, count), probe/hist_codec.h. */
	put_timer_hist(t, h);
	return true;
}

static bool hist_omitted(struct put_timer t, const struct hist *h, const void *ctx)
{
	(void)h;
	(void)ctx;
	put_timer_hist_text(t, "omitted: more distinct values than one record holds");
	return false;
}

static void cpu_member(struct put_timer t, const void *ctx)
{
	put_timer_cpu(t, *(const unsigned *)ctx);
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
		.name = c->desc->name,
		.present = s->present,
		.healthy = s->healthy,
		.reason = s->reason,
		.note = s->note,
		.method = c->method,
		.width = counter_width(c), /* address: in the acpi record */
		/* 0: a compiled read whose instruction count is not fixed (kvmclock) */
		.insns = c->desc->insns ? (int)c->desc->insns : -1,
		.more = cpu < 0 ? NULL : cpu_member,
		.more_ctx = &on,
	};
	struct timer_figures fig = { .cost = NULL };
	struct put_timer t;

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
	t = put_record_timer(l);
	timer_members(t, &w, s->healthy && r && cost ? &fig : NULL, hist_whole, NULL);
	/* A histogram of more distinct costs than one record holds (about 7000
	 * at 100000 samples) must not cost the whole record: write it again
	 * without the histogram, and say so. */
	if (t.j->overflow) {
		t = put_record_timer(l);
		timer_members(t, &w, &fig, hist_omitted, NULL);
	}
	log_end(l);
}

void record_overhead(struct log *l, const char *sequence, const struct hist *cost, uint64_t subtracted,
		     const struct overhead_candidate *cand, int n_cand, bool hist_bounds)
{
	struct put_overhead o = put_record_overhead(l);
	struct put_overhead_candidates_list list;

	put_overhead_sequence(o, sequence);
	list = put_overhead_candidates_open(o);
	for (int i = 0; i < n_cand; i++) {
		struct put_bracket_candidate c = put_overhead_candidates_add(list);
		put_bracket_candidate_sequence(c, cand[i].sequence);
		put_bracket_candidate_min(c, cand[i].min);
		put_bracket_candidate_p50(c, cand[i].p50);
		put_bracket_candidate_round_min_spread(c, cand[i].round_min_spread);
		put_bracket_candidate_close(c);
	}
	put_overhead_candidates_close(list);
	put_overhead_samples(o, cost->count);
	write_cost(put_overhead_cycles_open(o), cost);
	put_overhead_hist(o, cost);
	if (hist_bounds) {
		put_overhead_hist_exact_below(o, HIST_EXACT);
		put_overhead_hist_rel_error(o, 1.0 / HIST_SUB);
	}
	put_overhead_subtracted(o, subtracted);
	log_end(l);
}

void record_samples(struct log *l, const char *name, const uint32_t *raw, uint32_t n)
{
	for (uint32_t off = 0; off < n; off += SAMPLES_PER_RECORD) {
		struct put_samples s = put_record_samples(l);
		struct put_samples_values_list values;
		put_samples_name(s, name);
		put_samples_offset(s, off);
		values = put_samples_values_open(s);
		for (uint32_t i = off; i < n && i < off + SAMPLES_PER_RECORD; i++)
			put_samples_values_add(values, raw[i]);
		put_samples_values_close(values);
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
		return tp_snprintf(buf, cap, "%-13s %9s %9s %9s %9s %12s  %s\n", c->desc->name, "-", "-", "-", "-", "-",
				   s->present ? "unhealthy" : "absent");
	return tp_snprintf(buf, cap, "%-13s %9.1f %9.1f %9.1f %9.1f %12.0f  ok\n", c->desc->name,
			   ns((double)hist_quantile(cost, 500000), tsc_hz), ns((double)cost->min, tsc_hz),
			   ns(hist_mean(cost), tsc_hz), ns(hist_sd(cost), tsc_hz),
			   r->tp_cycles ? (double)r->tp_reads * tsc_hz / (double)r->tp_cycles : 0.0);
}
