/* SPDX-License-Identifier: BSD-2-Clause */
/* The machine fingerprint (CPUID), and whether we run under QEMU. */
#ifndef PLATFORM_MACHINE_H
#define PLATFORM_MACHINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "probe/log.h"

/* Writes the `machine` record and a one-line summary into line. */
void machine_record(struct log *l, uint64_t memory_mib, char *line, size_t cap);

/* QEMU's fw_cfg device answers "QEMU" at ports 0x510/0x511.  Only then is
 * port 0xf4 (isa-debug-exit) written: on a real PC that port is not ours. */
bool machine_is_qemu(void);

#endif
