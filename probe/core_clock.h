/* SPDX-License-Identifier: BSD-2-Clause */
/* The core clock around a measured block, from IA32_APERF and IA32_MPERF.
 *
 * MPERF counts at a fixed reference rate while the core is in C0 (Intel SDM
 * Vol. 3B 15.2, "the TSC frequency"; AMD: the P0 frequency, which is the
 * TSC's on every part with an invariant TSC), APERF at the rate the core
 * actually runs.  So over the same interval APERF/MPERF is the core clock's
 * ratio to the TSC, and ratio x TSC Hz the effective core frequency (turbo
 * above 1, a throttled or power-capped core below).  A cost of N TSC cycles
 * is N x ratio core cycles: what a read costs the core, not the wall clock.
 *
 * Both counters are 64 bits wide and only ever count up, so the difference of
 * two reads taken modulo 2^64 is right across one wrap. */
#ifndef PROBE_CORE_CLOCK_H
#define PROBE_CORE_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct core_clock {
	uint64_t aperf, mperf; /* the deltas over the block */
	double ratio;          /* aperf / mperf; NaN when mperf did not move */
	double effective_hz;   /* ratio x TSC Hz; NaN when either is unknown */
};

/* The deltas, the ratio and the effective frequency (tsc_hz <= 0: unknown). */
void core_clock_from(uint64_t aperf_before, uint64_t aperf_after, uint64_t mperf_before,
		     uint64_t mperf_after, double tsc_hz, struct core_clock *out);

/* tsc_cycles in core cycles, or NaN when the ratio is unknown. */
double core_clock_cycles(const struct core_clock *cc, double tsc_cycles);

#endif
