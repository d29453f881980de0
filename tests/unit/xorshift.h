/* SPDX-License-Identifier: BSD-2-Clause */
/* Reproducible pseudo-random numbers for the unit tests, so that a failure
 * found once is found again: Marsaglia's xorshift64 (shifts 13, 7, 17) and
 * its starred form (12, 25, 27, then a multiply), whose low bits are better
 * spread.  The state is the caller's and must not start at 0. */
#ifndef TESTS_UNIT_XORSHIFT_H
#define TESTS_UNIT_XORSHIFT_H

#include <stdint.h>

static inline uint64_t xorshift64(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

static inline uint64_t xorshift64_star(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 2685821657736338717ull;
}

#endif
