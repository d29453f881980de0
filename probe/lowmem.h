/* SPDX-License-Identifier: BSD-2-Clause */
/* Choosing a free range of low memory from what the boot loader says is RAM
 * and what it says it put there.  Plain C: the BIOS path (boot/bios_low.c)
 * feeds it the multiboot memory map and the multiboot structures, the tests
 * feed it made-up maps. */
#ifndef PROBE_LOWMEM_H
#define PROBE_LOWMEM_H

#include <stdint.h>

struct mem_range {
	uint64_t start, end; /* [start, end) */
};

/* The highest page-aligned [a, a + bytes) with 0x1000 <= a and a + bytes <= top
 * that lies wholly inside one usable range and meets none of the avoided ones.
 * Page 0 is never chosen: it holds the real-mode interrupt table and the BIOS
 * data area.  Returns a, or 0 when there is none. */
uint64_t lowmem_pick(const struct mem_range *usable, unsigned n_usable, const struct mem_range *avoid,
		     unsigned n_avoid, uint64_t top, uint64_t bytes);

#endif
