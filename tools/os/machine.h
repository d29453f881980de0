/* SPDX-License-Identifier: BSD-2-Clause */
/* The `machine` record of `tickprobe os`: what CPUID and the kernel say
 * (tools/lib/host_machine.h), written to the log. */
#ifndef TOOLS_OS_MACHINE_H
#define TOOLS_OS_MACHINE_H

#include <stdbool.h>
#include <stdint.h>
#include "probe/log.h"
#include "tools/os/bench.h"
#include "tools/lib/host_machine.h"

void os_write_machine(struct log *l, const struct host_machine *m);

/* The `tsc` record: the calibration against CLOCK_MONOTONIC_RAW, and what
 * CPUID says beside it. */
void os_write_tsc(struct log *l, const struct os_tsc_cal *c, bool invariant);

#endif
