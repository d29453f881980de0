/* SPDX-License-Identifier: BSD-2-Clause */
/* The run's measuring steps: the TSC frequency, the harness overhead and the
 * bracket it picks, the plan, and each counter's measurement. */
#include "probe/run.h"
#include "lib/fmt.h"
#include "probe/records.h"
#include "lib/util.h"

/* ---- the TSC frequency ------------------------------------------------- */

static void say(void *ctx, const char *line) { run_text(ctx, "%s\n", line); }

/* The TSC's rate, where it came from, and what that is worth. */
static void say_tsc(struct run *r)
{
	const char *src = r->tsc.source;

	if (r->tsc.hz <= 0)
		run_text(r, "TSC: frequency unknown: no HPET, PM timer or PIT timed it, no CPUID or hypervisor leaf "
			    "states it, and no other counter with a known rate was there to time it: costs in cycles only\n");
	else if (r->tsc.err_ppm >= 0 && r->tsc.reference && !r->tsc.reference->c->desc->tsc_based &&
		 (tp_streq(src, "hpet") || tp_streq(src, "pm_timer") || tp_streq(src, "pit")))
		run_text(r, "TSC: %.0f Hz from %s (error %.2f ppm)\n", r->tsc.hz, src, r->tsc.err_ppm);
	else if (r->tsc.err_ppm >= 0)
		run_text(r, "TSC: %.0f Hz from %s (error %.2f ppm): no HPET, PM timer or PIT timed it, and no CPUID "
			    "leaf states it; this counter's nominal rate did\n", r->tsc.hz, src, r->tsc.err_ppm);
	else
		run_text(r, "TSC: %.0f Hz as %s states it (no counter to check it against: exact only if the %s is)\n",
			 r->tsc.hz, tp_streq(src, "hypervisor") ? "the hypervisor's leaf 0x40000010"
				    : tp_streq(src, "cpuid15") ? "CPUID leaf 0x15" : "CPUID leaf 0x16 (whole MHz)",
			 tp_streq(src, "hypervisor") ? "hypervisor" : "firmware");
}

void run_calibrate(struct run *r)
{
	const struct platform *p = r->p;
	struct tsc_claims claims;
	uint64_t cycles = r->clock.max_wait_cycles, loops = r->clock.max_wait_loops;

	r->step = "TSC calibration";
	r->n_cal = 0;
	for (unsigned i = 0; i < r->n && r->n_cal < RUN_MAX_CALIBRATORS; i++) {
		struct run_counter *rc = &r->counters[i];
		if (!rc->c || !rc->desc->calibrates)
			continue;
		r->cal[r->n_cal] = (struct calibrator){ .c = rc->c, .s = &rc->s, .source = rc->desc->calibrates };
		rc->cal = r->n_cal++;
	}
	/* A counter whose rate is its device's: the calibration of that device. */
	for (unsigned i = 0; i < r->n; i++) {
		struct run_counter *rc = &r->counters[i], *from = run_counter_named(r, rc->desc->rate_from);
		if (from && rc->cal < 0)
			rc->cal = from->cal;
	}
	p->tsc_claims(p->ctx, &claims);
	/* A window of calib_ms at a TSC of up to 5 GHz, four times over, plus the
	 * first-tick bound: a counter that stops mid-window ends it. */
	r->clock.max_wait_cycles = r->opt->calib_ms * 5000000ull * 4 + cycles;
	r->clock.max_wait_loops = r->clock.max_wait_cycles / 8;
	r->tsc = tsc_calibrate(r->cal, r->n_cal, &claims, &r->clock, r->opt->calib_ms, say, r);
	r->clock.max_wait_cycles = cycles;
	r->clock.max_wait_loops = loops;
	if (r->tsc.hz <= 0)
		run_calibrate_from_rated(r);
	r->step = "TSC calibration";
	record_tsc(r->log, &r->tsc, r->cal, r->n_cal, &claims, r->opt->calib_ms, p->invariant_tsc);
	say_tsc(r);
}

/* ---- the harness overhead ---------------------------------------------- */

/* Every bracket the CPU can run is measured with an empty body; the one
 * whose per-round minimum holds stillest wins (ties: the smaller minimum),
 * because the minimum is what gets subtracted from every sample.  Paoloni's
 * sequence needs RDTSCP; the lfence one runs everywhere. */
void run_choose_bracket(struct run *r)
{
	const struct platform *p = r->p;
	/* A platform that names no bracket has the clock's own. */
	const struct platform_bracket own = { r->clock.bracket_name, r->clock.bracket };
	const struct platform_bracket *list = p->n_brackets ? p->brackets : &own;
	struct overhead_candidate cand[8];
	static const struct counter_desc empty_desc = { .name = "empty" };
	struct counter empty = { .desc = &empty_desc, .read = r->clock.empty };
	unsigned n = p->n_brackets < 8 ? (p->n_brackets ? p->n_brackets : 1) : 8, best = 0;

	r->step = "harness overhead";
	tp_memset(cand, 0, sizeof cand);
	for (unsigned k = 0; k < n; k++) {
		uint64_t lo = ~0ull, hi = 0;
		r->clock.bracket = list[k].fn;
		measure_counter(&empty, &r->clock, 0, r->opt->samples, r->opt->rounds, r->cost, r->round, NULL, 0,
				&r->result);
		for (uint32_t i = 0; i < r->result.rounds; i++) {
			lo = r->result.round_min[i] < lo ? r->result.round_min[i] : lo;
			hi = r->result.round_min[i] > hi ? r->result.round_min[i] : hi;
		}
		cand[k] = (struct overhead_candidate){ list[k].name, r->cost->min,
						       hist_quantile(r->cost, 500000), hi - lo };
		if (k == 0 || cand[k].round_min_spread < cand[best].round_min_spread ||
		    (cand[k].round_min_spread == cand[best].round_min_spread && cand[k].min < cand[best].min))
			best = k;
	}
	r->clock.bracket = list[best].fn;
	r->clock.bracket_name = list[best].name;
	if (best != n - 1) /* the histogram in hand is another bracket's */
		measure_counter(&empty, &r->clock, 0, r->opt->samples, r->opt->rounds, r->cost, r->round, NULL, 0,
				&r->result);
	r->subtract = cand[best].min;
	record_overhead(r->log, r->clock.bracket_name, r->cost, r->subtract, cand, (int)n, false);
	run_text(r, "harness overhead: %s, min %llu cycles, p50 %llu, subtracted %llu\n", r->clock.bracket_name,
		 (unsigned long long)r->cost->min, (unsigned long long)hist_quantile(r->cost, 500000),
		 (unsigned long long)r->subtract);
}

/* ---- the plan ----------------------------------------------------------- */

/* The time the measurements will take, from a short block of reads of each
 * counter: printed before the long part starts, so a person at the screen
 * knows what to expect (an i8254 read is 3-5 us on real hardware, so its
 * 100000 reads alone take about half a second). */
void run_plan(struct run *r)
{
	struct put_plan plan = put_record_plan(r->log);
	struct put_plan_estimate_s_map estimate;
	struct put_plan_absent_map absent;
	double total = 0, hz = r->tsc.hz;

	r->step = "plan";
	estimate = put_plan_estimate_s_open(plan);
	for (unsigned i = 0; i < r->n; i++) {
		const struct run_counter *rc = &r->counters[i];
		const struct counter *c = rc->c;
		uint64_t bare, bracketed;
		double s;
		if (!rc->s.healthy || !rc->wanted || hz <= 0)
			continue;
		run_prepare(r, rc);
		bracketed = r->clock.tsc();
		for (int k = 0; k < 256; k++)
			r->clock.bracket(c->read, c);
		bracketed = r->clock.tsc() - bracketed;
		bare = r->clock.block(c->read, c, 256);
		/* the bracketed samples, then the throughput block and the delta reads */
		s = ((double)bracketed * run_samples(r, rc) + (double)bare * (10000 + RUN_DELTA_READS)) / 256.0 / hz;
		put_plan_estimate_s_add(estimate, rc->desc->name, s);
		total += s;
	}
	put_plan_estimate_s_close(estimate);
	put_plan_total_s(plan, total);
	/* Counters this machine lacks by design (no x2APIC, not KVM), unless
	 * counters= asked for them: their reasons here rather than a timer
	 * record each, six of them on most machines. */
	absent = put_plan_absent_open(plan);
	for (unsigned i = 0; i < r->n; i++)
		if (r->counters[i].wanted && run_absent_by_design(r, &r->counters[i]))
			put_plan_absent_add(absent, r->counters[i].desc->name, r->counters[i].s.reason);
	put_plan_absent_close(absent);
	log_end(r->log);
	/* The plan's reads disturb as the measured ones do (the i8254's single
	 * accesses, the APIC timer's programming). */
	run_settle(r);
	run_text(r, "measuring: about %.1f s for %u reads of each counter\n", total, r->opt->samples);
	if (tp_streq(r->opt->preset, "default") && total > 10.0)
		run_text(r, "tickprobe: this machine's counters are slow: the default preset will take over 10 s\n");
}

/* ---- measuring ---------------------------------------------------------- */

void run_measure_counter(struct run *r, struct run_counter *rc, uint32_t raw_cap)
{
	const struct counter *c = rc->c;

	run_prepare(r, rc);
	measure_counter(c, &r->clock, r->subtract, run_samples(r, rc), r->opt->rounds, r->cost, r->round, r->raw,
			raw_cap, &r->result);
	if (c->desc->is_counter) {
		measure_deltas(c, r->delta_values,
			       r->opt->samples < RUN_DELTA_READS ? r->opt->samples : RUN_DELTA_READS, r->round,
			       &r->result.delta);
		r->result.delta_valid = true;
	}
	if (rc->desc->disturbs && rc->driver->settle)
		rc->driver->settle(r->p->ctx);
}

static void measure_one(struct run *r, struct run_counter *rc)
{
	const struct counter *c = rc->c;
	uint32_t raw_cap = r->opt->raw_samples < RUN_MAX_RAW ? r->opt->raw_samples : RUN_MAX_RAW;
	struct freq_check f;
	char row[160];

	r->step = rc->desc->name;
	if (c)
		frequency_check(c, &rc->s, rc->cal >= 0 ? &r->cal[rc->cal] : NULL, &r->tsc, &f);
	if (!c || !rc->s.healthy) {
		struct counter named = { .desc = rc->desc, .method = "not set up" };
		bool expected = run_absent_by_design(r, rc);
		if (expected) /* in the plan's absent, and one line under the table */
			return;
		r->some_absent = true;
		record_timer(r->log, c ? c : &named, &rc->s, NULL, NULL, NULL, r->tsc.hz, 0);
		table_row(row, sizeof row, c ? c : &named, &rc->s, NULL, NULL, r->tsc.hz);
		run_text(r, "%s", row);
		return;
	}
	run_measure_counter(r, rc, raw_cap);
	record_timer(r->log, c, &rc->s, &r->result, r->cost, &f, r->tsc.hz, run_samples(r, rc));
	run_core_clock_seen(r, &r->result);
	if (r->result.n_raw)
		record_samples(r->log, c->desc->name, r->raw, r->result.n_raw);
	table_row(row, sizeof row, c, &rc->s, &r->result, r->cost, r->tsc.hz);
	run_text(r, "%s", row);
}

void run_measure(struct run *r)
{
	char line[160];

	table_header(line, sizeof line);
	run_text(r, "%s", line);
	for (unsigned i = 0; i < r->n; i++) {
		if (!r->counters[i].wanted)
			continue;
		measure_one(r, &r->counters[i]);
		/* fault=: after the first counter measured, whichever it is, so the
		 * log shows records kept before the exception. */
		if (r->opt->fault[0] && !r->fault_done) {
			r->fault_done = true;
			r->p->fault(r->p->ctx, r->opt->fault);
		}
	}
	run_measure_footer(r);
}
