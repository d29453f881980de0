/* SPDX-License-Identifier: BSD-2-Clause */
/* The i8254 programmable interval timer, and bare ISA port accesses. */
#ifndef DRIVERS_I8254_H
#define DRIVERS_I8254_H

#include <stdbool.h>
#include "probe/counter.h"

#define I8254_HZ 1193182ull

/* Programs channel 0 to mode 2 (rate generator) with the full 65536 count,
 * so it counts down by one per tick and wraps every 54.9 ms, as FreeBSD's
 * i8254 timecounter has it; then fills the four descriptors. */
#define I8254_COUNTERS 4 /* "i8254", "i8254-inb40", "i8254-outb43", "port80", in that order */
void i8254_setup(struct counter d[I8254_COUNTERS], struct counter_state s[I8254_COUNTERS]);
/* Put channel 0 back in a known state after the single-access measurements,
 * which leave a latch pending and the byte flip-flop anywhere. */
void i8254_reset(void);

#endif
