/* SPDX-License-Identifier: BSD-2-Clause */
/* The core clock arithmetic of probe/core_clock.c: the APERF/MPERF ratio,
 * the effective frequency, a counter's wrap, a reference clock that did not
 * move, and a cost turned into core cycles. */
#include <math.h>
#include <stdint.h>
#include "tests/unit/check.h"
#include "probe/core_clock.h"

int main(void)
{
	struct core_clock cc;

	core_clock_from(1000, 1000 + 3000000000ull, 5000, 5000 + 2500000000ull, 2.5e9, &cc);
	check(COND(cc.aperf == 3000000000ull) && COND(cc.mperf == 2500000000ull) &&
		      COND(fabs(cc.ratio - 1.2) < 1e-12) && COND(fabs(cc.effective_hz - 3e9) < 1e-3),
	      "core clock: APERF 3e9 against MPERF 2.5e9 at a 2.5 GHz TSC: ratio 1.2, 3 GHz (%.6f, %.0f Hz)", cc.ratio,
	      cc.effective_hz);
	check(fabs(core_clock_cycles(&cc, 100) - 120) < 1e-9, "core clock: 100 TSC cycles at ratio 1.2 are 120 core cycles");

	core_clock_from(UINT64_MAX - 999, 2000, UINT64_MAX - 499, 1500, 1e9, &cc);
	check(COND(cc.aperf == 3000) && COND(cc.mperf == 2000) && COND(fabs(cc.ratio - 1.5) < 1e-12),
	      "core clock: both counters wrap past 2^64 within the block: deltas 3000 and 2000, ratio 1.5 (%llu, %llu)",
	      (unsigned long long)cc.aperf, (unsigned long long)cc.mperf);
	core_clock_from(UINT64_MAX - 9, 10, 100, 120, 1e9, &cc);
	check(COND(cc.aperf == 20) && COND(cc.mperf == 20) && COND(cc.ratio == 1.0),
	      "core clock: only APERF wraps: deltas 20 and 20, ratio 1");

	core_clock_from(5, 500, 77, 77, 2e9, &cc);
	check(COND(cc.aperf == 495) && COND(cc.mperf == 0) && COND(isnan(cc.ratio)) && COND(isnan(cc.effective_hz)) &&
		      COND(isnan(core_clock_cycles(&cc, 100))),
	      "core clock: MPERF did not move: ratio, frequency and core cycles unknown (NaN, null in the log), no division by 0");

	core_clock_from(0, 1800, 0, 2000, 0, &cc);
	check(COND(fabs(cc.ratio - 0.9) < 1e-12) && COND(isnan(cc.effective_hz)),
	      "core clock: TSC frequency unknown: the ratio (0.9) stands, the frequency does not");
	core_clock_from(0, 0, 0, 2000, 3e9, &cc);
	check(COND(cc.ratio == 0) && COND(cc.effective_hz == 0),
	      "core clock: APERF stood still while MPERF ran: ratio 0, 0 Hz (a halted core)");
	return check_done();
}
