/* SPDX-License-Identifier: BSD-2-Clause */
/* The timing brackets around one counter read (arch/x86/bracket.S).
 * Each returns the TSC cycles between its two time-stamp reads, with the
 * read function called in between; bracket_empty_read is the empty body
 * whose cost is the harness overhead. */
#ifndef ARCH_X86_BRACKET_H
#define ARCH_X86_BRACKET_H

#include <stdint.h>
#include "probe/counter.h"

uint64_t bracket_cpuid_rdtscp(counter_read_fn fn, const struct counter *c);
uint64_t bracket_lfence(counter_read_fn fn, const struct counter *c);
/* k back-to-back reads timed as one block (throughput), lfence-bracketed. */
uint64_t bracket_block(counter_read_fn fn, const struct counter *c, uint64_t k);
uint64_t bracket_empty_read(const struct counter *c);
/* An lfence-ordered TSC read for waits and calibration windows. */
uint64_t tsc_ordered(void);

#endif
