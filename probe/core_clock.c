/* SPDX-License-Identifier: BSD-2-Clause */
#include "probe/core_clock.h"

void core_clock_from(uint64_t aperf_before, uint64_t aperf_after, uint64_t mperf_before,
		     uint64_t mperf_after, double tsc_hz, struct core_clock *out)
{
	out->aperf = aperf_after - aperf_before; /* modulo 2^64: one wrap is fine */
	out->mperf = mperf_after - mperf_before;
	/* MPERF stands still outside C0 and, on some hypervisors, reads as a
	 * constant: no ratio then, rather than a division by zero. */
	out->ratio = out->mperf ? (double)out->aperf / (double)out->mperf : __builtin_nan("");
	out->effective_hz = out->mperf && tsc_hz > 0 ? out->ratio * tsc_hz : __builtin_nan("");
}

double core_clock_cycles(const struct core_clock *cc, double tsc_cycles)
{
	return cc->mperf ? tsc_cycles * cc->ratio : __builtin_nan("");
}
