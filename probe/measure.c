/* SPDX-License-Identifier: BSD-2-Clause */
#include "probe/measure.h"
#include "lib/fmt.h"
#include "lib/util.h"

/* Reads of the monotonicity check: at 3.58 MHz the PM timer ticks about
 * every 280 ns, so 20000 reads at ~1 us each span several thousand ticks
 * and, for a 24-bit timer read at 32 bits, the chance to see a bad carry. */
#define MONOTONIC_READS 20000
#define ALL_ONES_READS 16
#define ENDPOINT_TRIES 8

/* "hpet at 0xfed00000", or just "tsc" for a counter with no address. */
static const char *where(const struct counter *c, char *buf, unsigned cap)
{
	if (c->hw)
		tp_snprintf(buf, cap, "%s at 0x%llx", c->desc->name, (unsigned long long)c->hw);
	else
		tp_snprintf(buf, cap, "%s", c->desc->name);
	return buf;
}

bool counter_check(const struct counter *c, struct counter_state *s, const struct probe_clock *pc)
{
	char at[48];
	uint64_t v0, v, prev, start, backwards = 0, ones = 0;
	uint64_t loops;

	s->healthy = false;
	if (!s->present)
		return false;
	if (!c->desc->is_counter) { /* a bare port access: nothing to count */
		s->healthy = true;
		return true;
	}
	for (int i = 0; i < ALL_ONES_READS; i++)
		if ((c->read(c) & c->mask) == c->mask)
			ones++;
	if (ones == ALL_ONES_READS && c->mask != ~0ull) {
		tp_snprintf(s->reason, sizeof s->reason, "%s reads 0x%llx (all ones): nothing answers",
			    where(c, at, sizeof at), (unsigned long long)c->mask);
		return false;
	}

	/* Counting: wait for one change, bounded twice over. */
	v0 = c->read(c) & c->mask;
	start = pc->tsc();
	for (loops = 0;; loops++) {
		v = c->read(c) & c->mask;
		if (v != v0)
			break;
		if (loops >= pc->max_wait_loops || pc->tsc() - start >= pc->max_wait_cycles) {
			tp_snprintf(s->reason, sizeof s->reason,
				    "%s does not count (stuck at 0x%llx for %llu reads, %llu TSC cycles)",
				    where(c, at, sizeof at), (unsigned long long)v0,
				    (unsigned long long)loops, (unsigned long long)(pc->tsc() - start));
			return false;
		}
	}

	/* Monotonic: every step forward and under half the range, so a wrap of a
	 * 24-, 32- or 16-bit counter reads as the small step it is. */
	prev = c->read(c) & c->mask;
	for (int i = 0; i < MONOTONIC_READS; i++) {
		v = c->read(c) & c->mask;
		if (((v - prev) & c->mask) > c->mask / 2)
			backwards++;
		prev = v;
	}
	if (backwards) {
		tp_snprintf(s->reason, sizeof s->reason, "%s went backwards %llu times in %d reads", c->desc->name,
			    (unsigned long long)backwards, MONOTONIC_READS);
		return false;
	}
	s->healthy = true;
	return true;
}

struct endpoint {
	uint64_t prev;  /* last value read */
	uint64_t ticks; /* ticks accumulated up to the chosen read */
	uint64_t at;    /* TSC at the chosen read: middle of its bracket */
	uint64_t width; /* that bracket's width in cycles */
};

/* The gaps between the reads of a window, by size: bucket k holds the gaps
 * of 2^k to 2^(k+1) - 1 TSC cycles and the ticks counted across them. */
#define GAP_BUCKETS 64

struct gaps {
	bool started;
	uint64_t last; /* TSC after the last read */
	uint64_t widest;
	uint64_t ticks[GAP_BUCKETS], cycles[GAP_BUCKETS];
};

static void gap_note(struct gaps *g, uint64_t now, uint64_t step)
{
	uint64_t gap = now - g->last;

	if (g->started && gap) {
		int k = 63 - __builtin_clzll(gap);
		g->ticks[k] += step;
		g->cycles[k] += gap;
		if (gap > g->widest)
			g->widest = gap;
	}
	g->started = true;
	g->last = now;
}

/* Whether the widest gap may have hidden whole wraps: at the rate the short
 * gaps show (under a sixteenth of the widest), the counter moved half its
 * range or more in it.  A 16-bit PIT wraps every 55 ms, and a vCPU
 * descheduled that long on a busy host loses whole wraps with no sign in the
 * values.  A vCPU held off again and again slows every long gap alike, so
 * the rate is not taken over them.  Judged once the window is over, so that a gap
 * in either endpoint counts too. */
static bool held_off(const struct counter *c, const struct gaps *g)
{
	uint64_t ticks = 0, cycles = 0;

	for (int k = 0; k < GAP_BUCKETS - 1 && (2ull << k) <= g->widest / 16; k++) {
		ticks += g->ticks[k];
		cycles += g->cycles[k];
	}
	if (ticks < 16 || !cycles)
		return false;
	return (double)g->widest * (double)ticks / (double)cycles >= (double)c->mask / 2;
}

/* The tightest of ENDPOINT_TRIES bracketed reads: its midpoint is the time of
 * the value within half the bracket. */
static void endpoint(const struct counter *c, const struct probe_clock *pc, struct endpoint *e, uint64_t *ticks,
		     struct gaps *g)
{
	e->width = ~0ull;
	for (int i = 0; i < ENDPOINT_TRIES; i++) {
		uint64_t t0 = pc->tsc();
		uint64_t v = c->read(c) & c->mask;
		uint64_t t1 = pc->tsc();
		uint64_t d = (v - e->prev) & c->mask;
		/* A read that comes back behind the last one is not a step: keep
		 * the last value, or the lag would be counted twice. */
		if (d > c->mask / 2)
			d = 0;
		else
			e->prev = v;
		*ticks += d;
		gap_note(g, t1, d);
		if (t1 - t0 < e->width) {
			e->width = t1 - t0;
			e->at = t0 + (t1 - t0) / 2;
			e->ticks = *ticks;
		}
	}
}

/* One try at the window; false with *lost set when the reader was held off
 * too long to count every wrap (held_off). */
static bool rate_once(const struct counter *c, const struct probe_clock *pc, uint64_t window_ticks,
		      struct rate *r, char *why, unsigned why_len, bool *lost)
{
	struct endpoint a, b;
	struct gaps g;
	uint64_t ticks = 0, start, loops;

	*lost = false;
	tp_memset(r, 0, sizeof *r);
	tp_memset(&g, 0, sizeof g);
	a.prev = c->read(c) & c->mask;
	gap_note(&g, pc->tsc(), 0);
	endpoint(c, pc, &a, &ticks, &g);
	b.prev = a.prev;
	start = pc->tsc();
	for (loops = 0; ticks - a.ticks < window_ticks; loops++) {
		uint64_t v = c->read(c) & c->mask;
		uint64_t now = pc->tsc(), d = (v - b.prev) & c->mask;
		if (d > c->mask / 2)
			d = 0;
		else
			b.prev = v;
		ticks += d;
		gap_note(&g, now, d);
		if (loops >= pc->max_wait_loops || now - start >= pc->max_wait_cycles) {
			tp_snprintf(why, why_len, "%s: only %llu of %llu ticks within the wait bound", c->desc->name,
				    (unsigned long long)(ticks - a.ticks), (unsigned long long)window_ticks);
			return false;
		}
	}
	endpoint(c, pc, &b, &ticks, &g);
	if (held_off(c, &g)) {
		*lost = true;
		tp_snprintf(why, why_len, "%s: a read held off past half the counter's range: wraps lost",
			    c->desc->name);
		return false;
	}
	r->ticks = b.ticks - a.ticks;
	r->cycles = b.at - a.at;
	if (!r->ticks || !r->cycles) {
		tp_snprintf(why, why_len, "%s: no time passed on the TSC during the window", c->desc->name);
		return false;
	}
	r->ticks_per_cycle = (double)r->ticks / (double)r->cycles;
	r->err_ppm = ((double)(a.width + b.width) / 2.0 / (double)r->cycles + 1.0 / (double)r->ticks) * 1e6;
	return true;
}

/* Three tries: a window spoilt by lost wraps is measured again, not used. */
#define RATE_TRIES 3

bool counter_rate(const struct counter *c, const struct probe_clock *pc, uint64_t window_ticks,
		  struct rate *r, char *why, unsigned why_len)
{
	bool lost = false;
	for (int t = 0; t < RATE_TRIES; t++) {
		if (rate_once(c, pc, window_ticks, r, why, why_len, &lost))
			return true;
		if (!lost)
			return false;
	}
	return false;
}

uint64_t counter_ticks_in(const struct counter *c, const struct probe_clock *pc, uint64_t cycles)
{
	/* Each end's TSC is read after its counter read: a read held off then
	 * counts in the cycles as well as in the ticks. */
	uint64_t v0 = c->read(c) & c->mask;
	uint64_t t0 = pc->tsc();
	uint64_t now = t0;
	uint64_t loops = 0;
	uint64_t ticks, t1, scaled;

	while (now - t0 < cycles && loops++ < pc->max_wait_loops)
		now = pc->tsc();
	ticks = (c->read(c) - v0) & c->mask;
	t1 = pc->tsc();
	if (!ticks || t1 <= t0)
		return ticks;
	scaled = (uint64_t)((double)ticks * (double)cycles / (double)(t1 - t0));
	return scaled ? scaled : 1;
}

void measure_deltas(const struct counter *c, uint64_t *values, uint32_t n, struct hist *scratch,
		    struct delta_summary *d)
{
	struct hist_mode mode;
	uint32_t i;

	for (i = 0; i < n; i++)
		values[i] = c->read(c) & c->mask;
	tp_memset(d, 0, sizeof *d);
	hist_init(scratch);
	for (i = 1; i < n; i++) {
		uint64_t step = (values[i] - values[i - 1]) & c->mask;
		if (step > c->mask / 2) {
			d->backwards++;
			continue;
		}
		if (values[i] < values[i - 1])
			d->wraps++;
		hist_add(scratch, step);
		if (step && (!d->granularity || step < d->granularity))
			d->granularity = step;
	}
	d->samples = scratch->count;
	if (scratch->count) {
		d->min = scratch->min;
		d->max = scratch->max;
		if (hist_modes(scratch, &mode, 1)) {
			d->mode = mode.value;
			d->mode_count = mode.count;
		}
	}
}

/* The MEASURE_LARGEST largest costs, exact (a histogram bucket above
 * HIST_EXACT would give only its lower bound), largest first. */
static void keep_largest(struct measure_result *r, uint64_t cycles)
{
	int i;

	if (r->n_largest == MEASURE_LARGEST && cycles <= r->largest[MEASURE_LARGEST - 1])
		return;
	i = r->n_largest < MEASURE_LARGEST ? r->n_largest++ : MEASURE_LARGEST - 1;
	for (; i > 0 && r->largest[i - 1] < cycles; i--)
		r->largest[i] = r->largest[i - 1];
	r->largest[i] = cycles;
}

void measure_counter(const struct counter *c, const struct probe_clock *pc, uint64_t subtract,
		     uint32_t samples, uint32_t rounds, struct hist *cost, struct hist *round,
		     uint32_t *raw, uint32_t raw_cap, struct measure_result *r)
{
	counter_read_fn fn = c->read;
	uint32_t per_round, k;

	tp_memset(r, 0, sizeof *r);
	if (rounds < 1)
		rounds = 1;
	if (rounds > MEASURE_MAX_ROUNDS)
		rounds = MEASURE_MAX_ROUNDS;
	per_round = (samples / rounds) ? samples / rounds : 1;
	r->subtracted = subtract;
	r->rounds = rounds;
	r->smi_valid = pc->smi_count && pc->smi_count(&r->smi_before);
	r->core_valid = pc->aperf_mperf && pc->aperf_mperf(&r->aperf_before, &r->mperf_before);
	hist_init(cost);

	/* A few untimed reads first: the first access to a device can pay for
	 * a cold TLB entry or bus path that no later read pays. */
	for (k = 0; k < 16; k++)
		pc->bracket(fn, c);

	for (uint32_t i = 0; i < rounds; i++) {
		hist_init(round);
		for (k = 0; k < per_round; k++) {
			uint64_t cycles = pc->bracket(fn, c);
			if (cycles >= subtract) {
				cycles -= subtract;
			} else {
				cycles = 0;
				r->clamped++;
			}
			if (raw && r->n_raw < raw_cap)
				raw[r->n_raw++] = cycles > 0xffffffffu ? 0xffffffffu : (uint32_t)cycles;
			hist_add(round, cycles);
			keep_largest(r, cycles);
		}
		r->round_min[i] = round->min;
		r->round_p50[i] = hist_quantile(round, 500000);
		r->round_mean[i] = hist_mean(round);
		hist_merge(cost, round);
	}

	r->tp_reads = per_round < 10000 ? per_round : 10000;
	r->tp_cycles = pc->block(fn, c, r->tp_reads);
	if (r->core_valid)
		r->core_valid = pc->aperf_mperf(&r->aperf_after, &r->mperf_after);
	if (r->smi_valid)
		r->smi_valid = pc->smi_count(&r->smi_after);
}
