/* SPDX-License-Identifier: BSD-2-Clause */
/* The `machine` record of `tickprobe os`: what CPUID and the kernel say. */
#ifndef TOOLS_OS_MACHINE_H
#define TOOLS_OS_MACHINE_H

#include <stdbool.h>
#include <stdint.h>
#include "probe/log.h"
#include "tools/os/bench.h"

struct os_machine {
	char vendor[13], brand[49], hypervisor[13]; /* hypervisor "" when none */
	unsigned family, model, stepping;
	bool invariant_tsc, rdtscp, tsc;
	long cores;          /* online CPUs, -1 unknown */
	long long microcode; /* from /proc/cpuinfo, -1 unknown */
	long long memory_mib;/* -1 unknown */
};

void os_machine_read(struct os_machine *m);
void os_write_machine(struct log *l, const struct os_machine *m);

/* The `tsc` record: the calibration against CLOCK_MONOTONIC_RAW, and what
 * CPUID says beside it. */
void os_write_tsc(struct log *l, const struct os_tsc_cal *c, bool invariant);

#endif
