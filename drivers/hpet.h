/* The HPET main counter (IA-PC HPET specification 1.0a). */
#ifndef DRIVERS_HPET_H
#define DRIVERS_HPET_H

#include <stdint.h>
#include "probe/counter.h"

/* Checks the block at base and fills "hpet" (32-bit reads) and "hpet64"
 * (64-bit reads, where the counter is 64 bits wide).  Starts a halted
 * counter and says so in the note.  base = 0: no usable HPET table, for the
 * reason why_absent (NULL: none given). */
void hpet_setup(uint64_t base, const char *why_absent, struct counter *h32, struct counter *h64);

#endif
