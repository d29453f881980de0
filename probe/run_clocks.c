/* SPDX-License-Identifier: BSD-2-Clause */
/* The run's part for the clocks that do not calibrate the TSC: their rates
 * against it (the APIC timer, the RTC, the paravirtual clocks), the core
 * clock seen around the measurements, and the counters that only some
 * machines have. */
#include "probe/run.h"
#include "probe/core_clock.h"
#include "lib/fmt.h"
#include "lib/util.h"

/* Below 100 Hz a window of calib_ms (20-100 ms) would hold a tick or two:
 * such a counter (the RTC's seconds, 1 Hz) is timed from one edge to the
 * next instead, each edge found within the poll around it: 1 to 2.5 s of
 * a run, which slow_rates=off leaves out (the many boots of a test suite). */
#define SLOW_HZ 100
#define IS_SLOW(c) ((c)->nominal_hz && (c)->nominal_hz < SLOW_HZ)
/* Between two polls of a slow counter: a spin of plain instructions, so the
 * edge is found within about a microsecond on hardware (2 ppm of a second)
 * while the device sees one access per poll, not millions, and so that
 * qemu -icount, where each I/O access ends a translation block, spends its
 * wall time on cheap instructions. */
#define SPIN_LOOPS 1024
/* An edge is awaited for 1.25 periods: one period at most for the first
 * (the phase is anywhere), exactly one for the second, plus a quarter for a
 * counter up to 25 % slow (the frequency check calls 2 % off unhealthy).
 * For the RTC that is 1.25 s an edge, 2.5 s at most in all. */
#define EDGE_WAIT_NUM 5
#define EDGE_WAIT_DEN 4
#define ASSUMED_MAX_HZ 5e9 /* the TSC's rate when not known: the bounds then err long */

static void spin(void)
{
	for (volatile uint32_t i = 0; i < SPIN_LOOPS; i++)
		;
}

struct edge {
	uint64_t value, at, width; /* the new value; the middle of its interval and its width */
	uint64_t reads;
};

/* The first change of c's value from from: it happened after the last read
 * that still saw from began and before the read that saw the change ended. */
static bool edge(const struct counter *c, const struct probe_clock *pc, uint64_t from, uint64_t bound,
		 struct edge *e)
{
	uint64_t start = pc->tsc(), prev = start;

	for (e->reads = 0; e->reads < bound / SPIN_LOOPS + 1; e->reads++) {
		uint64_t before = pc->tsc(), v = c->read(c) & c->mask, after = pc->tsc();
		if (v != from) {
			e->value = v;
			e->width = after - prev;
			e->at = prev + e->width / 2;
			return true;
		}
		if (after - start >= bound)
			break;
		prev = before;
		spin();
	}
	return false;
}

static bool edge_rate(const struct counter *c, const struct probe_clock *pc, double tsc_hz, struct rate *r,
		      char *why, unsigned cap)
{
	double hz = tsc_hz > 0 ? tsc_hz : ASSUMED_MAX_HZ;
	uint64_t bound = (uint64_t)(hz * EDGE_WAIT_NUM / EDGE_WAIT_DEN / (double)c->nominal_hz);
	double wait_s = (double)EDGE_WAIT_NUM / EDGE_WAIT_DEN / (double)c->nominal_hz;
	uint64_t v0 = c->read(c) & c->mask, t0 = pc->tsc();
	struct edge a, b;

	tp_memset(r, 0, sizeof *r);
	if (!edge(c, pc, v0, bound, &a)) {
		tp_snprintf(why, cap,
			    "%s does not tick (stuck at 0x%llx for %llu reads, %llu TSC cycles; the bound is %.2f s)",
			    c->desc->name, (unsigned long long)v0, (unsigned long long)a.reads,
			    (unsigned long long)(pc->tsc() - t0), wait_s);
		return false;
	}
	if (!edge(c, pc, a.value, bound, &b)) {
		tp_snprintf(why, cap, "%s ticked once, then stayed at 0x%llx for over %.2f s", c->desc->name,
			    (unsigned long long)a.value, wait_s);
		return false;
	}
	r->ticks = 1;
	r->cycles = b.at - a.at;
	if (!r->cycles) {
		tp_snprintf(why, cap, "%s: no time passed on the TSC between two ticks", c->desc->name);
		return false;
	}
	r->ticks_per_cycle = 1.0 / (double)r->cycles;
	r->err_ppm = (double)(a.width + b.width) / 2.0 / (double)r->cycles * 1e6;
	return true;
}

/* Without a nominal rate the window in ticks comes from a first look of
 * about a millisecond (counter_ticks_in). */
static bool ticks_per_ms(const struct counter *c, const struct probe_clock *pc, double tsc_hz, uint64_t *ticks,
			 char *why, unsigned cap)
{
	uint64_t ms = (uint64_t)((tsc_hz > 0 ? tsc_hz : ASSUMED_MAX_HZ) / 1000.0);

	*ticks = counter_ticks_in(c, pc, ms);
	if (!*ticks)
		tp_snprintf(why, cap, "%s did not move in %llu TSC cycles", c->desc->name, (unsigned long long)ms);
	return *ticks != 0;
}

static bool rate_of(const struct counter *c, const struct probe_clock *clock, uint32_t window_ms, double tsc_hz,
		    struct rate *r, char *why, unsigned cap)
{
	struct probe_clock pc = *clock;
	uint64_t window;

	if (IS_SLOW(c))
		return edge_rate(c, &pc, tsc_hz, r, why, cap);
	/* As the TSC calibration: a window at up to 5 GHz, four times over,
	 * plus the first-tick bound. */
	pc.max_wait_cycles = window_ms * 5000000ull * 4 + clock->max_wait_cycles;
	pc.max_wait_loops = pc.max_wait_cycles / 8;
	if (c->nominal_hz) {
		window = c->nominal_hz * window_ms / 1000;
	} else {
		if (!ticks_per_ms(c, clock, tsc_hz, &window, why, cap))
			return false;
		window *= window_ms;
	}
	return counter_rate(c, &pc, window ? window : 1, r, why, cap);
}

/* No HPET, PM timer or PIT timed the TSC, and no CPUID leaf states its
 * rate (QEMU's microvm with pit=off): a rated counter whose nominal rate is
 * known times it instead, the one with the smallest error: the local APIC
 * timer where CPUID leaf 0x15 names its crystal, the RTC's seconds (1 to 2.5
 * s).  Its calibrator is kept, so run_rates does not time it again. */
bool run_calibrate_from_rated(struct run *r)
{
	char why[COUNTER_TEXT];
	int best = -1;

	for (unsigned i = 0; i < r->n && r->n_cal < RUN_MAX_CALIBRATORS; i++) {
		struct run_counter *rc = &r->counters[i];
		struct calibrator *cal = &r->cal[r->n_cal];
		if (!rc->c || !rc->desc->rated || rc->desc->rate_from || !rc->c->nominal_hz || !rc->s.present ||
		    !rc->s.healthy)
			continue;
		r->step = rc->desc->name;
		run_prepare(r, rc);
		*cal = (struct calibrator){ .c = rc->c, .s = &rc->s, .source = rc->desc->name };
		cal->ok = rate_of(rc->c, &r->clock, r->opt->calib_ms, 0, &cal->rate, why, sizeof why);
		if (!cal->ok) {
			run_text(r, "%-13s cannot time the TSC: %s\n", rc->desc->name, why);
			continue;
		}
		rc->cal = r->n_cal;
		if (best < 0 || cal->rate.err_ppm < r->cal[best].rate.err_ppm)
			best = r->n_cal;
		r->n_cal++;
	}
	run_settle(r);
	if (best < 0)
		return false;
	r->tsc = (struct tsc_choice){ (double)r->cal[best].c->nominal_hz / r->cal[best].rate.ticks_per_cycle,
				      r->cal[best].rate.err_ppm, r->cal[best].source, &r->cal[best] };
	return true;
}

void run_rates(struct run *r)
{
	char why[COUNTER_TEXT];

	r->n_tsc_cal = r->n_cal;
	for (unsigned i = 0; i < r->n; i++) {
		struct run_counter *rc = &r->counters[i];
		struct calibrator *cal = &r->cal[r->n_cal];
		if (!rc->c || !rc->desc->rated || rc->desc->rate_from || rc->cal >= 0 || !rc->s.healthy ||
		    !run_counter_in_use(r, rc) || r->n_cal >= RUN_MAX_CALIBRATORS)
			continue;
		if (r->opt->slow_rates_off && IS_SLOW(rc->c)) {
			run_text(r, "%-13s rate not timed (slow_rates=off)\n", rc->desc->name);
			continue;
		}
		r->step = rc->desc->name;
		run_prepare(r, rc);
		*cal = (struct calibrator){ .c = rc->c, .s = &rc->s, .source = rc->desc->name };
		cal->ok = rate_of(rc->c, &r->clock, r->opt->calib_ms, r->tsc.hz, &cal->rate, why, sizeof why);
		if (!cal->ok) {
			rc->s.healthy = false;
			tp_snprintf(rc->s.reason, sizeof rc->s.reason, "%s", why);
			run_text(r, "%-13s skipped: %s\n", rc->desc->name, rc->s.reason);
			continue;
		}
		rc->cal = r->n_cal++;
	}
	/* Those whose rate is another's, and those that need another healthy. */
	for (unsigned i = 0; i < r->n; i++) {
		struct run_counter *rc = &r->counters[i];
		struct run_counter *from = run_counter_named(r, rc->desc->rate_from);
		struct run_counter *need = run_counter_named(r, rc->desc->needs);
		if (from && rc->cal < 0)
			rc->cal = from->cal;
		if (need && need->s.present && !need->s.healthy && rc->s.healthy) {
			rc->s.healthy = false;
			tp_snprintf(rc->s.reason, sizeof rc->s.reason, "%s: %s", need->desc->name, need->s.reason);
		}
	}
	run_settle(r);
}

uint32_t run_samples(const struct run *r, const struct run_counter *rc)
{
	unsigned div = rc->desc->samples_div > 1 ? rc->desc->samples_div : 1;
	return (r->opt->samples / div) ? r->opt->samples / div : 1;
}

bool run_absent_by_design(const struct run *r, const struct run_counter *rc)
{
	return !rc->s.present && rc->s.by_design && !run_counter_asked(r, rc);
}

void run_core_clock_seen(struct run *r, const struct measure_result *m)
{
	struct core_clock cc;

	if (!m->core_valid)
		return;
	core_clock_from(m->aperf_before, m->aperf_after, m->mperf_before, m->mperf_after, r->tsc.hz, &cc);
	if (cc.ratio != cc.ratio) /* MPERF stood still */
		return;
	if (!r->core_ratio_hi || cc.ratio < r->core_ratio_lo)
		r->core_ratio_lo = cc.ratio;
	if (cc.ratio > r->core_ratio_hi)
		r->core_ratio_hi = cc.ratio;
}

void run_measure_footer(struct run *r)
{
	char names[160];
	size_t len = 0;

	names[0] = 0;
	for (unsigned i = 0; i < r->n && len < sizeof names; i++)
		if (r->counters[i].wanted && run_absent_by_design(r, &r->counters[i]))
			len += (size_t)tp_snprintf(names + len, sizeof names - len, " %s", r->counters[i].desc->name);
	if (len)
		run_text(r, "absent by design:%s\n", names);
	if (!r->clock.aperf_mperf)
		run_text(r, "core clock: %s\n", r->clock.core_clock_none ? r->clock.core_clock_none : "not readable");
	else if (r->core_ratio_hi)
		run_text(r, "core clock: APERF/MPERF %.3f..%.3f of the TSC during the measurements\n",
			 r->core_ratio_lo, r->core_ratio_hi);
}
