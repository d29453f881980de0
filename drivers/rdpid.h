/* SPDX-License-Identifier: BSD-2-Clause */
/* RDPID: IA32_TSC_AUX into a register, the CPU number an OS keeps there
 * (Linux's getcpu() uses it where the CPU has it).  Not a counter: only the
 * cost of the read. */
#ifndef DRIVERS_RDPID_H
#define DRIVERS_RDPID_H

#include "probe/counter.h"

#define RDPID_COUNTERS 1

/* Present where CPUID.(EAX=7,ECX=0):ECX[22] says so. */
void rdpid_setup(struct counter d[RDPID_COUNTERS], struct counter_state s[RDPID_COUNTERS]);

#endif
