/* SPDX-License-Identifier: BSD-2-Clause */
#include "probe/lowmem.h"
#include <stdbool.h>

#define PAGE 4096ull

static bool inside_one(const struct mem_range *r, unsigned n, uint64_t a, uint64_t b)
{
	for (unsigned i = 0; i < n; i++)
		if (r[i].start <= a && b <= r[i].end)
			return true;
	return false;
}

static bool meets_any(const struct mem_range *r, unsigned n, uint64_t a, uint64_t b)
{
	for (unsigned i = 0; i < n; i++)
		if (r[i].start < b && a < r[i].end)
			return true;
	return false;
}

uint64_t lowmem_pick(const struct mem_range *usable, unsigned n_usable, const struct mem_range *avoid,
		     unsigned n_avoid, uint64_t top, uint64_t bytes)
{
	uint64_t a;

	if (!bytes || top < PAGE + bytes)
		return 0;
	/* Top down: low memory's bottom holds the most firmware leftovers. */
	for (a = (top - bytes) & ~(PAGE - 1); a >= PAGE; a -= PAGE)
		if (inside_one(usable, n_usable, a, a + bytes) && !meets_any(avoid, n_avoid, a, a + bytes))
			return a;
	return 0;
}
