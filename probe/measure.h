/* SPDX-License-Identifier: BSD-2-Clause */
/* The measurement method: health checks, rate measurement against the TSC,
 * and per-read cost distributions with the harness overhead subtracted.
 *
 * Plain C: the platform hands in its TSC and its timing brackets through
 * struct probe_clock, so the same method runs in the image and, against
 * simulated counters, in the host unit tests. */
#ifndef PROBE_MEASURE_H
#define PROBE_MEASURE_H

#include <stdint.h>
#include <stdbool.h>
#include "probe/counter.h"
#include "probe/hist.h"

struct probe_clock {
	uint64_t (*tsc)(void); /* an ordered TSC read */
	/* TSC cycles around one read, and around k back-to-back reads. */
	uint64_t (*bracket)(counter_read_fn fn, const struct counter *c);
	uint64_t (*block)(counter_read_fn fn, const struct counter *c, uint64_t k);
	counter_read_fn empty;    /* a read that does nothing: the harness overhead */
	const char *bracket_name;
	bool (*smi_count)(uint64_t *count); /* NULL where MSR_SMI_COUNT is not readable */
	/* The core clock: IA32_APERF (actual core cycles) and IA32_MPERF
	 * (reference cycles, at the TSC's rate) of the calling CPU, read around
	 * every measured block; NULL where the CPU has none, and then
	 * core_clock_none says why. */
	bool (*aperf_mperf)(uint64_t *aperf, uint64_t *mperf);
	const char *core_clock_none;
	/* Bounds on every wait: TSC cycles, and loop iterations in case the TSC
	 * itself does not run. */
	uint64_t max_wait_cycles;
	uint64_t max_wait_loops;
};

#define MEASURE_MAX_ROUNDS 100
#define MEASURE_LARGEST 5

struct delta_summary {
	uint64_t samples;
	uint64_t min, granularity, mode, mode_count, max; /* in the counter's ticks */
	uint64_t backwards, wraps;
};

struct measure_result {
	uint64_t subtracted;  /* overhead cycles taken off every sample */
	uint64_t clamped;     /* samples below the overhead, counted as 0 */
	uint32_t rounds;
	uint64_t round_min[MEASURE_MAX_ROUNDS]; /* cycles */
	uint64_t round_p50[MEASURE_MAX_ROUNDS];
	double round_mean[MEASURE_MAX_ROUNDS];
	uint64_t tp_reads, tp_cycles;           /* throughput block */
	bool delta_valid;
	struct delta_summary delta;
	uint64_t largest[MEASURE_LARGEST]; /* the largest costs, exact, largest first */
	int n_largest;
	bool smi_valid;
	uint64_t smi_before, smi_after;
	bool core_valid; /* APERF and MPERF read at both ends */
	uint64_t aperf_before, aperf_after, mperf_before, mperf_after;
	uint32_t n_raw; /* raw costs kept in the caller's buffer */
};

/* Health: present, not all-ones, counting, monotonic over many reads (with
 * the width's wrap understood).  Sets s->healthy and s->reason. */
bool counter_check(const struct counter *c, struct counter_state *s, const struct probe_clock *pc);

/* Counter ticks per TSC cycle over a window of at least window_ticks, with
 * each end taken at the tightest of several bracketed reads. */
struct rate {
	uint64_t ticks, cycles;
	double ticks_per_cycle;
	double err_ppm; /* endpoint uncertainty plus one tick of quantisation */
};
bool counter_rate(const struct counter *c, const struct probe_clock *pc, uint64_t window_ticks,
		  struct rate *r, char *why, unsigned why_len);

/* A first look at a rate nobody states: the counter's ticks over about
 * `cycles` TSC cycles, scaled to exactly that many (at least 1 when it
 * moved; 0 when it did not).  A read held off (a descheduled vCPU) makes the
 * look longer, not the answer larger. */
uint64_t counter_ticks_in(const struct counter *c, const struct probe_clock *pc, uint64_t cycles);

/* samples reads in rounds; cost (all rounds) into *cost, one round at a time
 * through *round.  raw (may be NULL) keeps the first raw_cap costs. */
void measure_counter(const struct counter *c, const struct probe_clock *pc, uint64_t subtract,
		     uint32_t samples, uint32_t rounds, struct hist *cost, struct hist *round,
		     uint32_t *raw, uint32_t raw_cap, struct measure_result *r);

/* Successive reads in the counter's own ticks, through *scratch. */
void measure_deltas(const struct counter *c, uint64_t *values, uint32_t n, struct hist *scratch,
		    struct delta_summary *d);

#endif
