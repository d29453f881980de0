/* SPDX-License-Identifier: BSD-2-Clause */
/* The machine fingerprint (CPUID), and whether we run under QEMU. */
#ifndef PLATFORM_MACHINE_H
#define PLATFORM_MACHINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "probe/records_run.h"

/* What CPUID, the microcode MSR and the RTC say, for the `machine` record. */
void machine_facts_read(struct machine_facts *m, uint64_t memory_mib);

/* QEMU's fw_cfg device answers "QEMU" at ports 0x510/0x511.  Only then is
 * port 0xf4 (isa-debug-exit) written: on a real PC that port is not ours. */
bool machine_is_qemu(void);

#endif
