/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/measure.c on a simulated platform (tests/unit/sim_counter.h):
 * health checks, rate against the TSC, cost distributions from scripted
 * brackets, deltas from scripted values.  The records written from them:
 * test_timer_record.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "probe/measure.h"
#include "probe/records.h" /* timer_over_10x_p50 */
#include "tests/unit/sim_counter.h"
#include "tests/unit/check.h"

#define MONOTONIC_READS 20000 /* the reads measure.c's monotonic check makes */

/* ---- counter_check ------------------------------------------------------- */

/* Stuck: bounded by loops, by cycles, and by loops when the TSC stands still. */
static void test_check_stuck(void)
{
	static struct sim_counter s;
	struct probe_clock pc;
	bool ok;

	sim_clock(&pc);
	sim_counter_init(&s, "hpet", SIM_CONST, 32, 14318180);
	s.value = 0x123456;
	s.st.healthy = true;
	pc.max_wait_loops = 1000;
	ok = counter_check(&s.c, &s.st, &pc);
	check(COND(!ok) && COND(!s.st.healthy) && COND(strstr(s.st.reason, "does not count")) &&
		      COND(strstr(s.st.reason, "0x123456")) && COND(s.reads <= 16 + 2 + pc.max_wait_loops),
	      "check: a stuck counter fails after %llu reads (bound %llu loops): %s", (unsigned long long)s.reads,
	      (unsigned long long)pc.max_wait_loops, s.st.reason);
	sim_counter_init(&s, "hpet", SIM_CONST, 32, 14318180);
	s.value = 7;
	s.read_cost = 100;
	pc.max_wait_loops = ~0ull;
	pc.max_wait_cycles = 100000;
	ok = counter_check(&s.c, &s.st, &pc);
	check(COND(!ok) && COND(strstr(s.st.reason, "does not count")) &&
		      COND(s.reads <= 16 + 2 + 100000 / (100 + 10) + 2),
	      "check: the cycle bound (100000) stops the wait after %llu reads", (unsigned long long)s.reads);
	sim_counter_init(&s, "hpet", SIM_CONST, 32, 14318180);
	s.value = 7;
	s.read_cost = 0;
	sim_tsc_step = 0;
	pc.max_wait_loops = 500;
	pc.max_wait_cycles = 1000;
	ok = counter_check(&s.c, &s.st, &pc);
	check(COND(!ok) && COND(strstr(s.st.reason, "does not count")) && COND(s.reads <= 16 + 2 + 500),
	      "check: with the TSC standing still the loop bound (500) stops the wait after %llu reads",
	      (unsigned long long)s.reads);
	sim_clock(&pc); /* the TSC runs again for the checks after these */
}

static void test_check(void)
{
	static struct sim_counter s;
	struct probe_clock pc;
	bool ok;

	sim_clock(&pc);
	sim_counter_init(&s, "acpi-fast", SIM_RATE, 24, 3579545);
	ok = counter_check(&s.c, &s.st, &pc);
	check(COND(ok) && COND(s.st.healthy), "check: a 3.58 MHz 24-bit counter read every 1 us is healthy (%s)",
	      s.st.reason);

	/* Wraps inside the monotonic reads are small steps, not going back. */
	sim_counter_init(&s, "acpi-fast", SIM_RATE, 24, 3579545);
	s.offset = 0xffffff - 20000 - (uint64_t)((unsigned __int128)sim_now * 3579545 / SIM_TSC_HZ);
	ok = counter_check(&s.c, &s.st, &pc);
	check(COND(ok) && COND(s.wraps_seen >= 1) && COND(s.first_wrap_read > 18),
	      "check: a 24-bit counter wrapping during the monotonic reads is healthy (%llu wraps, first at read %llu)",
	      (unsigned long long)s.wraps_seen, (unsigned long long)s.first_wrap_read);
	sim_counter_init(&s, "i8254", SIM_RATE, 16, 1193182);
	s.down = true;
	s.read_cost = 3000;
	ok = counter_check(&s.c, &s.st, &pc);
	check(COND(ok) && COND(s.wraps_seen >= 1),
	      "check: a 16-bit down-counter read negated wraps %llu times and is healthy (%s)",
	      (unsigned long long)s.wraps_seen, s.st.reason);
	s.kind = SIM_SCRIPT; /* the raw down count, not negated: every step goes back */
	{
		static uint64_t down[MONOTONIC_READS + 100];
		for (size_t i = 0; i < sizeof down / sizeof down[0]; i++)
			down[i] = (0x8000 - 3 * i) & 0xffff;
		s.script = down;
		s.n_script = sizeof down / sizeof down[0];
		s.reads = 0;
		ok = counter_check(&s.c, &s.st, &pc);
		check(COND(!ok) && COND(strstr(s.st.reason, "went backwards")),
		      "check: a down-counter not negated goes backwards: %s", s.st.reason);
	}

	test_check_stuck();

	sim_counter_init(&s, "acpi-fast", SIM_CONST, 24, 3579545);
	s.value = 0xffffffff; /* a 24-bit counter on a bus that floats high */
	ok = counter_check(&s.c, &s.st, &pc);
	check(COND(!ok) && COND(strstr(s.st.reason, "all ones")) && COND(s.reads == 16),
	      "check: all ones fails at once: %s", s.st.reason);
	sim_counter_init(&s, "hpet", SIM_CONST, 32, 14318180);
	s.value = 0xffffffff;
	ok = counter_check(&s.c, &s.st, &pc);
	check(COND(!ok) && COND(strstr(s.st.reason, "all ones")), "check: a 32-bit counter reading 0xffffffff: %s",
	      s.st.reason);

	/* Going backwards: every 997th read comes back 50 ticks early. */
	sim_counter_init(&s, "hpet", SIM_RATE, 32, 14318180);
	s.glitch_every = 997;
	s.glitch_by = 50;
	ok = counter_check(&s.c, &s.st, &pc);
	{
		uint64_t want = 0;
		char text[64];
		for (size_t i = 0; i < s.n_glitch; i++)
			want += s.glitch_at[i] >= s.reads - MONOTONIC_READS;
		snprintf(text, sizeof text, "went backwards %llu times in %d reads", (unsigned long long)want,
			 MONOTONIC_READS);
		check(COND(!ok) && COND(want > 0) && COND(strstr(s.st.reason, text)),
		      "check: %llu glitches in the monotonic reads: %s", (unsigned long long)want, s.st.reason);
	}

	sim_counter_init(&s, "hpet", SIM_RATE, 32, 14318180);
	s.st.present = false;
	s.st.healthy = true;
	ok = counter_check(&s.c, &s.st, &pc);
	check(COND(!ok) && COND(!s.st.healthy) && COND(s.reads == 0),
	      "check: an absent counter is not healthy and is never read");
	sim_counter_init(&s, "port80", SIM_CONST, 0, 0);
	s.desc.is_counter = false;
	ok = counter_check(&s.c, &s.st, &pc);
	check(COND(ok) && COND(s.st.healthy) && COND(s.reads == 0),
	      "check: a bare port access is healthy without reads");
}

/* ---- counter_rate ------------------------------------------------------- */

static void rate_case(const char *what, struct sim_counter *s, uint64_t window, double max_claim)
{
	struct probe_clock pc;
	struct rate r;
	char why[128] = "";
	double truth = (double)s->hz / SIM_TSC_HZ, err;
	bool ok;

	sim_clock(&pc);
	ok = counter_rate(&s->c, &pc, window, &r, why, sizeof why);
	/* The claim is about the measured value: truth within measured * (1 +- err). */
	err = fabs(truth / r.ticks_per_cycle - 1) * 1e6;
	check(COND(ok) && COND(r.ticks >= window) && COND(err <= r.err_ppm) && COND(r.err_ppm > 0) &&
		      COND(r.err_ppm < max_claim) &&
		      COND(fabs((double)r.ticks / (double)r.cycles - r.ticks_per_cycle) < 1e-15),
	      "rate: %s: %llu ticks in %llu cycles, truth %.3f ppm away, within the claimed %.3f ppm %s", what,
	      (unsigned long long)r.ticks, (unsigned long long)r.cycles, err, r.err_ppm, why);
}

/* A simulated i8254, 3000 cycles a read, whose read number FIRST (0: none)
 * is held off COST cycles more, and so is every EVERY-th read after it
 * (0: only that one). */
static void pit_held_off(struct sim_counter *s, uint64_t first, uint64_t every, uint64_t cost)
{
	sim_counter_init(s, "i8254", SIM_RATE, 16, 1193182);
	s->read_cost = 3000;
	s->stall_read = first;
	s->stall_every = every;
	s->stall_cost = cost;
}

/* Reads held off past the i8254's wrap, once or again and again, as a
 * descheduled vCPU is. */
static void test_rate_held_off(void)
{
	static struct sim_counter s;
	struct probe_clock pc;
	struct rate r;
	char why[128], said[160];
	uint64_t reads;
	bool ok;

	/* A read held off past a 16-bit counter's wrap, in the last endpoint's
	 * first read, where no rate so far is there to judge the gap: the window
	 * is measured again, not used with the wrap lost.  The read number comes
	 * from a first run with no stall (the simulation is exact). */
	pit_held_off(&s, 0, 0, 0);
	rate_case("i8254, no stall (counting its reads)", &s, 20000, 1000);
	reads = s.reads;
	pit_held_off(&s, reads - 8 + 1, 0, SIM_TSC_HZ / 10);
	rate_case("i8254, one read held off 100 ms as the window ends", &s, 20000, 1000);
	pit_held_off(&s, reads / 2, 0, SIM_TSC_HZ / 10);
	rate_case("i8254, one read held off 100 ms mid-window", &s, 20000, 1000);

	/* Held off 60 ms again and again, after every 12 ms of reads: each gap
	 * hides a wrap, and the window taken over the long gaps too shows a
	 * rate (about 280 kHz) at which the widest looks harmless.  Every try
	 * is spoilt alike: the rate says so rather than give a wrong one. */
	pit_held_off(&s, 1000, 4000, SIM_TSC_HZ * 6 / 100);
	sim_clock(&pc);
	why[0] = 0;
	ok = counter_rate(&s.c, &pc, 200000, &r, why, sizeof why);
	if (ok)
		snprintf(said, sizeof said, "measured at %.0f Hz", r.ticks_per_cycle * SIM_TSC_HZ);
	else
		snprintf(said, sizeof said, "no rate: %s", why);
	check(COND(!ok) && COND(strstr(why, "wraps lost") != NULL), "rate: i8254 held off 60 ms every 4000 reads: %s",
	      said);
	/* Held off 10 ms as often: under a wrap each time, every tick counted. */
	pit_held_off(&s, 1000, 4000, SIM_TSC_HZ / 100);
	rate_case("i8254, held off 10 ms every 4000 reads", &s, 200000, 1000);
}

static void test_rate(void)
{
	static struct sim_counter s;
	struct probe_clock pc;
	struct rate r;
	char why[128];
	bool ok;

	sim_counter_init(&s, "acpi-fast", SIM_RATE, 24, 3579545);
	rate_case("PM timer, 100 ms", &s, 357954, 100);
	sim_counter_init(&s, "hpet", SIM_RATE, 32, 14318180);
	s.jitter = 5000; /* reads of 1-6 us: the tightest bracket wins */
	rate_case("HPET, jittery reads", &s, 1431818, 100);
	sim_counter_init(&s, "acpi-fast", SIM_RATE, 24, 3579545);
	s.offset = 0xffffff - 1000 - (uint64_t)((unsigned __int128)sim_now * 3579545 / SIM_TSC_HZ);
	rate_case("PM timer wrapping in the window", &s, 1000000, 100);
	check(s.wraps_seen >= 1, "rate: the 24-bit window above did wrap (%llu)", (unsigned long long)s.wraps_seen);
	sim_counter_init(&s, "i8254", SIM_RATE, 16, 1193182);
	s.down = true;
	s.read_cost = 3000;
	rate_case("i8254 down-counter, 4 wraps", &s, 4 * 65536 + 100, 100);

	/* Brackets of 20 cycles at the start and 50 us at the end of a 10 ms
	 * window: the first endpoint is exact, the second 25000 cycles (2500 ppm)
	 * off, and the claimed error must still cover it. */
	sim_counter_init(&s, "acpi-fast", SIM_RATE, 24, 3579545);
	s.read_cost = 10;
	s.slow_cost = 50000;
	s.slow_from = sim_now + 5000000;
	rate_case("PM timer, brackets 20 cycles then 50 us", &s, 35795, 3000);

	/* A 1 kHz counter over 10 ticks: quantisation (up to one tick in 10)
	 * dominates the claimed error, brackets (110 cycles in 1e7) do not. */
	sim_counter_init(&s, "slow", SIM_RATE, 32, 1000);
	s.read_cost = 100;
	s.offset = 12345;
	rate_case("1 kHz counter, 10 ticks", &s, 10, 200000);

	/* One read in 20000 comes back 50 ticks early: a glitch costs those 50
	 * ticks (the step back is dropped, the step after counts), never 2^32. */
	sim_clock(&pc);
	sim_counter_init(&s, "hpet", SIM_RATE, 32, 14318180);
	s.glitch_every = 20000;
	s.glitch_by = 50;
	ok = counter_rate(&s.c, &pc, 1431818, &r, why, sizeof why);
	check(COND(ok) && COND(s.n_glitch >= 2) &&
		      COND(fabs(r.ticks_per_cycle / 0.01431818 - 1) * 1e6 <
			   50.0 * (double)s.n_glitch / 1431818 * 1e6 + r.err_ppm),
	      "rate: %zu early reads in the window cost their 50 ticks each, no more (%.1f ppm off)", s.n_glitch,
	      fabs(r.ticks_per_cycle / 0.01431818 - 1) * 1e6);

	/* A counter that stops mid-window: false, said why, bounded. */
	sim_clock(&pc);
	sim_counter_init(&s, "acpi-fast", SIM_RATE, 24, 3579545);
	s.stop_at = sim_now + 1000000;
	pc.max_wait_loops = 100000;
	ok = counter_rate(&s.c, &pc, 357954, &r, why, sizeof why);
	check(COND(!ok) && COND(strstr(why, "only")) && COND(strstr(why, "wait bound")) &&
		      COND(s.reads <= 1 + 8 + 100000 + 1),
	      "rate: a counter stopping after 1 ms fails after %llu reads: %s", (unsigned long long)s.reads, why);
	sim_counter_init(&s, "acpi-fast", SIM_RATE, 24, 3579545);
	s.stop_at = sim_now + 1000000;
	pc.max_wait_loops = ~0ull;
	pc.max_wait_cycles = 50000000;
	ok = counter_rate(&s.c, &pc, 357954, &r, why, sizeof why);
	check(COND(!ok) && COND(strstr(why, "wait bound")) && COND(s.reads <= 8 + 50000000 / 1010 + 2),
	      "rate: the cycle bound stops it too, after %llu reads", (unsigned long long)s.reads);

	/* Ticks with no TSC time: no rate. */
	sim_clock(&pc);
	sim_tsc_step = 0;
	sim_counter_init(&s, "hpet", SIM_PER_READ, 32, 14318180);
	s.read_cost = 0;
	ok = counter_rate(&s.c, &pc, 100, &r, why, sizeof why);
	check(COND(!ok) && COND(strstr(why, "no time passed")), "rate: ticks without TSC time give no rate: %s", why);
	sim_tsc_step = 10;
}

/* ---- measure_counter ---------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t binned(uint64_t v) { return hist_bin_low(hist_bin_of(v)); }

static uint64_t median_of(const uint64_t *v, size_t n) /* nearest rank */
{
	uint64_t *s = malloc(n * sizeof *s), m;
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_u64);
	m = binned(s[(n + 1) / 2 - 1]);
	free(s);
	return m;
}

static void test_measure_counter(void)
{
	enum { SAMPLES = 1005, ROUNDS = 10, PER = 100, N = PER * ROUNDS, SUB = 20, RAW = 150 };
	static uint64_t script[16 + N], costs[N];
	static uint32_t raw[RAW + 8];
	static struct measure_result r;
	static struct sim_counter s;
	struct hist *cost = sim_hist(), *round = sim_hist();
	struct probe_clock pc;
	uint64_t clamped = 0, equal = 0, sum = 0, all[5], over = 0, limit;
	int ok = 1;

	for (int i = 0; i < 16; i++)
		script[i] = 999999; /* the untimed warm-up reads: must not count */
	for (int i = 0; i < N; i++) {
		uint64_t v = 40 + sim_rand() % 8 + (uint64_t)(i / PER); /* each round a cycle slower */
		if (i % 37 == 5)
			v = 5 + (uint64_t)i % 15; /* below the overhead */
		if (i % 101 == 7)
			v = SUB; /* exactly the overhead: 0, not clamped */
		if (i == 3)
			v = (1ull << 33) + SUB; /* past 32 bits in the raw buffer */
		if (i == 250 || i == 777)
			v = 9000 + (uint64_t)i;
		if (i == 500)
			v = 32768 + SUB; /* a log bucket's exact lower bound */
		script[16 + i] = v;
		costs[i] = v >= SUB ? v - SUB : 0;
		clamped += v < SUB;
		equal += v == SUB;
		sum += costs[i];
	}
	sim_clock(&pc);
	sim_counter_init(&s, "hpet", SIM_RATE, 32, 14318180);
	sim_bracket_script(script, sizeof script / sizeof script[0]);
	memset(raw, 0xee, sizeof raw);
	measure_counter(&s.c, &pc, SUB, SAMPLES, ROUNDS, cost, round, raw, RAW, &r);

	check(COND(cost->count == N) && COND(sim_br_calls == 16 + N) && COND(r.rounds == ROUNDS),
	      "measure: %d samples in %d rounds give %llu costs (%d per round) after 16 untimed reads (%llu brackets)",
	      SAMPLES, ROUNDS, (unsigned long long)cost->count, PER, (unsigned long long)sim_br_calls);
	check(COND(r.subtracted == SUB) && COND(r.clamped == clamped) && COND(cost->sum == sum) &&
		      COND(cost->exact[0] == clamped + equal) && COND(equal > 0),
	      "measure: %d subtracted from each, %llu below it clamped to 0 (got %llu), sums exact", SUB,
	      (unsigned long long)clamped, (unsigned long long)r.clamped);
	for (int i = 0; i < ROUNDS; i++) {
		const uint64_t *c = costs + i * PER;
		uint64_t mn = ~0ull, rs = 0;
		for (int k = 0; k < PER; k++) {
			mn = c[k] < mn ? c[k] : mn;
			rs += c[k];
		}
		ok &= r.round_min[i] == mn && r.round_p50[i] == median_of(c, PER) &&
		      fabs(r.round_mean[i] - (double)rs / PER) < 1e-9 * ((double)rs / PER + 1);
	}
	check(ok, "measure: per-round min, p50 and mean match the scripted costs in all %d rounds", ROUNDS);

	ok = r.n_raw == RAW && raw[RAW] == 0xeeeeeeeeu && raw[3] == 0xffffffffu;
	for (int i = 0; i < RAW; i++)
		ok &= i == 3 || raw[i] == costs[i];
	check(ok, "measure: the raw buffer keeps the first %d costs, a cost past 2^32 saturated, nothing more", RAW);

	limit = 10 * median_of(costs, N);
	{
		uint64_t *sorted = malloc(sizeof costs);
		memcpy(sorted, costs, sizeof costs);
		qsort(sorted, N, sizeof *sorted, cmp_u64);
		for (int i = 0; i < 5; i++)
			all[i] = sorted[N - 1 - i]; /* exact, largest first */
		for (int i = 0; i < N; i++)
			over += binned(costs[i]) > limit;
		free(sorted);
	}
	check(COND(r.n_largest == 5) && COND(!memcmp(r.largest, all, sizeof all)) &&
		      COND(timer_over_10x_p50(cost) == over) && COND(over == 4),
	      "measure: the 5 largest, exact (%llu, %llu, ...) and %llu over 10x p50 (%llu)",
	      (unsigned long long)r.largest[0], (unsigned long long)r.largest[1],
	      (unsigned long long)timer_over_10x_p50(cost), (unsigned long long)limit);
	check(COND(r.tp_reads == PER) && COND(sim_block_k == PER) && COND(r.tp_cycles == 7 * PER + 3) &&
		      COND(sim_block_calls == 1),
	      "measure: throughput times one block of %llu reads: %llu cycles", (unsigned long long)r.tp_reads,
	      (unsigned long long)r.tp_cycles);
	check(COND(r.smi_valid) && COND(r.smi_before == 41) && COND(r.smi_after == 42),
	      "measure: SMI count read before and after");

	free(cost);
	free(round);
}

/* The outliers at the boundary, and the bounds on rounds, the throughput
 * block's size and the SMI count. */
static void test_measure_bounds(void)
{
	static struct measure_result r;
	static struct sim_counter s;
	struct hist *cost = sim_hist(), *round = sim_hist();
	struct probe_clock pc;

	sim_clock(&pc);
	sim_counter_init(&s, "hpet", SIM_RATE, 32, 14318180);
	/* Outliers at the boundary: p50 10, so 100 is not over 10x p50, 101 is. */
	static uint64_t few[16 + 100];
	for (int i = 0; i < 16 + 100; i++)
		few[i] = i < 16 + 50 ? 10 : 12;
	few[16 + 97] = 100;
	few[16 + 98] = 101;
	few[16 + 99] = 5000;
	sim_bracket_script(few, 16 + 100);
	measure_counter(&s.c, &pc, 0, 100, 1, cost, round, NULL, 0, &r);
	check(COND(r.round_p50[0] == 10) && COND(timer_over_10x_p50(cost) == 2) && COND(r.n_largest == 5) &&
		      COND(r.largest[4] == 12) && COND(r.largest[3] == 12) && COND(r.largest[2] == 100) &&
		      COND(r.largest[1] == 101) && COND(r.largest[0] == 5000),
	      "measure: p50 10: 100 is not over 10x p50, 101 and 5000 are (%llu); largest 5000 101 100 12 12",
	      (unsigned long long)timer_over_10x_p50(cost));

	/* Bounds on rounds, the throughput block's size, SMI not available. */
	sim_bracket_script(NULL, 0);
	measure_counter(&s.c, &pc, 0, 30000, 2, cost, round, NULL, 0, &r);
	check(COND(cost->count == 30000) && COND(r.tp_reads == 10000) && COND(r.n_raw == 0) &&
		      COND(cost->min == sim_br_default),
	      "measure: 15000 per round: the throughput block stays at 10000 reads");
	measure_counter(&s.c, &pc, 0, 1000, 0, cost, round, NULL, 0, &r);
	check(COND(r.rounds == 1) && COND(cost->count == 1000), "measure: rounds=0 is one round");
	measure_counter(&s.c, &pc, 0, 1000, 500, cost, round, NULL, 0, &r);
	check(COND(r.rounds == MEASURE_MAX_ROUNDS) && COND(cost->count == 1000), "measure: rounds=500 is capped at %d",
	      MEASURE_MAX_ROUNDS);
	pc.smi_count = NULL;
	measure_counter(&s.c, &pc, 0, 100, 1, cost, round, NULL, 0, &r);
	check(!r.smi_valid, "measure: no SMI counter, smi not valid");
	pc.smi_count = sim_smi;
	sim_bracket_script(NULL, 0);
	sim_smi_fail_after = true;
	measure_counter(&s.c, &pc, 0, 100, 1, cost, round, NULL, 0, &r);
	check(!r.smi_valid, "measure: an SMI count that fails afterwards is not valid");
	free(cost);
	free(round);
}

/* ---- measure_deltas ----------------------------------------------------- */

static void test_deltas(void)
{
	/* steps: 3 3 3 3 3 3(wrap) 3 back 4 3 0 3 4 */
	static const uint64_t seq[] = { 0xfffff0, 0xfffff3, 0xfffff6, 0xfffff9, 0xfffffc, 0xffffff, 0x000002,
					0x000005, 0x000004, 0x000008, 0x00000b, 0x00000b, 0x00000e, 0x000012 };
	enum { NSEQ = sizeof seq / sizeof seq[0], NR = 5000 };
	static struct sim_counter s;
	static uint64_t values[NR], walk[NR];
	struct hist *scratch = sim_hist();
	struct delta_summary d;
	uint64_t back = 0, wraps = 0, cnt[16] = { 0 }, gran = 0, mode = 0, mn = ~0ull, mx = 0;

	sim_counter_init(&s, "acpi-fast", SIM_SCRIPT, 24, 3579545);
	s.script = seq;
	s.n_script = NSEQ;
	measure_deltas(&s.c, values, NSEQ, scratch, &d);
	check(!memcmp(values, seq, sizeof seq), "deltas: the values are the reads, in order");
	check(COND(d.samples == 12) && COND(d.backwards == 1) && COND(d.wraps == 1) && COND(d.granularity == 3) &&
		      COND(d.mode == 3) && COND(d.mode_count == 9) && COND(d.min == 0) && COND(d.max == 4),
	      "deltas: 24-bit wrap and one step back: samples %llu backwards %llu wraps %llu granularity %llu "
	      "mode %llu x%llu min %llu max %llu",
	      (unsigned long long)d.samples, (unsigned long long)d.backwards, (unsigned long long)d.wraps,
	      (unsigned long long)d.granularity, (unsigned long long)d.mode, (unsigned long long)d.mode_count,
	      (unsigned long long)d.min, (unsigned long long)d.max);

	/* A random walk on 16 bits: steps 0..9, now and then 1..200 back. */
	walk[0] = 0xff00;
	for (int i = 1; i < NR; i++) {
		uint64_t r = sim_rand();
		int64_t step = r % 50 == 0 ? -(int64_t)(1 + r / 50 % 200) : (int64_t)(r / 50 % 10);
		walk[i] = (walk[i - 1] + (uint64_t)step) & 0xffff;
		if (step < 0) {
			back++;
			continue;
		}
		wraps += walk[i] < walk[i - 1];
		cnt[step]++;
		gran = step && (!gran || (uint64_t)step < gran) ? (uint64_t)step : gran;
		mn = (uint64_t)step < mn ? (uint64_t)step : mn;
		mx = (uint64_t)step > mx ? (uint64_t)step : mx;
	}
	for (int k = 1; k < 10; k++)
		mode = cnt[k] > cnt[mode] ? (uint64_t)k : mode;
	sim_counter_init(&s, "i8254", SIM_SCRIPT, 16, 1193182);
	s.script = walk;
	s.n_script = NR;
	measure_deltas(&s.c, values, NR, scratch, &d);
	check(COND(d.samples == NR - 1 - back) && COND(d.backwards == back) && COND(d.wraps == wraps) &&
		      COND(wraps > 0) && COND(d.granularity == gran) && COND(d.mode == mode) &&
		      COND(d.mode_count == cnt[mode]) && COND(d.min == mn) && COND(d.max == mx),
	      "deltas: a %d-read random walk: %llu back, %llu wraps, mode %llu x%llu", NR, (unsigned long long)back,
	      (unsigned long long)wraps, (unsigned long long)mode, (unsigned long long)cnt[mode]);

	sim_counter_init(&s, "tsc", SIM_PER_READ, 64, 0);
	s.value = ~0ull - 2; /* a 64-bit counter: 2^64 - 3, ... wraps through 0 */
	measure_deltas(&s.c, values, 6, scratch, &d);
	check(COND(d.samples == 5) && COND(d.granularity == 1) && COND(d.mode == 1) && COND(d.mode_count == 5) &&
		      COND(d.wraps == 1) && COND(!d.backwards),
	      "deltas: a 64-bit counter counting through 2^64 wraps once, steps of 1");
	measure_deltas(&s.c, values, 1, scratch, &d);
	check(COND(d.samples == 0) && COND(d.granularity == 0) && COND(d.mode == 0),
	      "deltas: one read gives no deltas");
	free(scratch);
}

/* The first look at a rate nobody states (counter_ticks_in), over 1 ms of
 * TSC: a read held off 100 ms at either end, as a descheduled vCPU is, must
 * not make the answer 100 times too large (the window sized from it then
 * cannot end within its bound). */
static void first_look(const char *what, uint64_t stall_read, enum sim_kind kind, uint64_t hz, uint64_t want,
		       uint64_t tolerance)
{
	struct probe_clock pc;
	struct sim_counter s;
	uint64_t got;

	sim_clock(&pc);
	sim_counter_init(&s, "apic", kind, 32, hz);
	s.stall_read = stall_read;
	s.stall_cost = SIM_TSC_HZ / 10;
	got = counter_ticks_in(&s.c, &pc, SIM_TSC_HZ / 1000);
	check(COND(got + tolerance >= want) && COND(got <= want + tolerance),
	      "first look: %s: %llu ticks in 1 ms, want %llu", what, (unsigned long long)got, (unsigned long long)want);
}

static void test_first_look(void)
{
	first_look("25 MHz", 0, SIM_RATE, 25000000, 25000, 250);
	first_look("25 MHz, the closing read held off 100 ms", 2, SIM_RATE, 25000000, 25000, 250);
	first_look("25 MHz, the opening read held off 100 ms", 1, SIM_RATE, 25000000, 25000, 250);
	first_look("a counter that does not move", 0, SIM_CONST, 0, 0, 0);
	first_look("1 kHz: one tick or none in the look, never 0 once it moved", 2, SIM_RATE, 1000, 1, 0);
}

int main(void)
{
	test_check();
	test_rate();
	test_rate_held_off();
	test_first_look();
	test_measure_counter();
	test_measure_bounds();
	test_deltas();
	return check_done();
}
