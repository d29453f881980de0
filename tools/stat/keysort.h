/* SPDX-License-Identifier: BSD-2-Clause */
/* Sorting doubles by their bits: each double maps to a 64-bit key that
 * orders as an unsigned integer the way the doubles order (sign bit flipped
 * for positives, all bits for negatives; -0 below +0, NaNs past the
 * infinities, by sign), and keys sort with an LSD radix sort. */
#ifndef TOOLS_STAT_KEYSORT_H
#define TOOLS_STAT_KEYSORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t keysort_key(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof u);
	return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

static inline double keysort_value(uint64_t k)
{
	uint64_t u = k >> 63 ? k & ~((uint64_t)1 << 63) : ~k;
	double d;

	memcpy(&d, &u, sizeof d);
	return d;
}

/* Ascending; scratch holds n keys (the caller lends it). */
void keysort(uint64_t *keys, size_t n, uint64_t *scratch);

#endif
