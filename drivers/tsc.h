/* The time-stamp counter: three read paths, and the TSC frequency as the
 * CPU and the hypervisor state it (calibration against the other counters
 * is in probe/calibrate.c). */
#ifndef DRIVERS_TSC_H
#define DRIVERS_TSC_H

#include <stdint.h>
#include "probe/counter.h"

/* Fills "tsc", "rdtscp" and "tsc-lfence"; rdtscp is absent where CPUID says so. */
void tsc_describe(struct counter *tsc, struct counter *rdtscp, struct counter *lfence);

struct tsc_cpuid_freq {
	uint64_t cpuid15_hz;    /* crystal * numerator / denominator; 0 when not enumerated */
	uint64_t cpuid16_hz;    /* base frequency, whole MHz; 0 when absent */
	uint64_t hypervisor_hz; /* leaf 0x40000010 EAX (kHz); 0 when absent */
};
void tsc_cpuid_freq(struct tsc_cpuid_freq *f);

uint64_t tsc_read(const struct counter *c); /* plain rdtsc, for the core's own timing */

#endif
