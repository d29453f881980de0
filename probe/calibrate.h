/* SPDX-License-Identifier: BSD-2-Clause */
/* The TSC frequency, and each counter's frequency against it.
 *
 * The TSC is timed against every counter that can calibrate it (HPET, PM
 * timer, PIT); the calibration with the smallest estimated error wins.  What
 * CPUID and the hypervisor claim is reported beside it and used only when no
 * counter works.  Plain C: the counters come in through their descriptors. */
#ifndef PROBE_CALIBRATE_H
#define PROBE_CALIBRATE_H

#include <stdint.h>
#include <stdbool.h>
#include "probe/counter.h"
#include "probe/log.h"
#include "probe/measure.h"
#include "probe/records.h"

/* What the CPU and the hypervisor say the TSC frequency is; 0: not said. */
struct tsc_claims {
	uint64_t cpuid15_hz;    /* crystal * numerator / denominator */
	uint64_t cpuid16_hz;    /* base frequency, whole MHz */
	uint64_t hypervisor_hz; /* leaf 0x40000010 */
};

struct calibrator {
	const struct counter *c;
	const struct counter_state *s; /* only its health is read */
	const char *source; /* the source's name in the tsc record: "hpet", "pm_timer", "pit" */
	struct rate rate;
	bool ok;
};

struct tsc_choice {
	double hz;
	double err_ppm;        /* < 0: unknown (a claim, not a measurement) */
	const char *source;
	const struct calibrator *reference; /* the calibrator chosen, or NULL */
};

/* A counter more than 2 % off its nominal rate is not the counter it claims
 * to be: far outside any crystal's tolerance, inside any real fault. */
#define PLAUSIBLE_PPM 20000.0

/* Times each healthy calibrator over window_ms; say(say_ctx, line) gets a
 * line for each one that fails.  pc's wait bounds must cover the window. */
struct tsc_choice tsc_calibrate(struct calibrator *cal, int n, const struct tsc_claims *claims,
				const struct probe_clock *pc, uint32_t window_ms,
				void (*say)(void *say_ctx, const char *line), void *say_ctx);

void record_tsc(struct log *l, const struct tsc_choice *t, const struct calibrator *cal, int n,
		const struct tsc_claims *claims, uint32_t window_ms, bool invariant);

/* c's measured frequency through cal (the calibrator timing the same device;
 * NULL: none), against nominal.  Marks s unhealthy when implausible. */
void frequency_check(const struct counter *c, struct counter_state *s, const struct calibrator *cal,
		     const struct tsc_choice *tsc, struct freq_check *f);

#endif
