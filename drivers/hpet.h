/* SPDX-License-Identifier: BSD-2-Clause */
/* The HPET main counter (IA-PC HPET specification 1.0a). */
#ifndef DRIVERS_HPET_H
#define DRIVERS_HPET_H

#include <stdint.h>
#include "probe/counter.h"

/* Checks the block at base and fills "hpet" (32-bit reads) and "hpet64"
 * (64-bit reads, where the counter is 64 bits wide), in that order.  Starts a
 * halted counter and says so in the note.  base = 0: no usable HPET table,
 * for the reason why_absent (NULL: none given).  A block outside the memory
 * the probe can address is absent, with the reason: it is never touched. */
#define HPET_COUNTERS 2
void hpet_setup(uint64_t base, const char *why_absent, struct counter d[HPET_COUNTERS],
		struct counter_state s[HPET_COUNTERS]);

#endif
