/* SPDX-License-Identifier: BSD-2-Clause */
/* The time-stamp counter: three read paths, and the TSC frequency as the
 * CPU and the hypervisor state it (calibration against the other counters
 * is in probe/calibrate.c). */
#ifndef DRIVERS_TSC_H
#define DRIVERS_TSC_H

#include <stdint.h>
#include "probe/calibrate.h"
#include "probe/counter.h"

/* CPUID leaves 0x15 and 0x16 and the hypervisor leaf 0x40000010. */
void tsc_claims(struct tsc_claims *f);

#endif
