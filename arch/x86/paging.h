/* SPDX-License-Identifier: BSD-2-Clause */
/* Whether physical memory can be touched through the page tables in force.
 *
 * Both paths run identity-mapped: the BIOS path maps 0..4 GiB itself
 * (boot/multiboot.S), UEFI leaves the firmware's map, which covers what the
 * firmware describes and may stop anywhere.  A table can name an address
 * beyond either (an HPET at 0x200000000): touching it would be a page fault,
 * so a device is set up only where this says yes. */
#ifndef ARCH_X86_PAGING_H
#define ARCH_X86_PAGING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True when every byte of [addr, addr + len) is mapped, present, and at the
 * same virtual address (len 0 counts as 1).  Walks CR3's tables (4 or 5
 * levels), one entry per level per page: bounded by the range's pages. */
bool phys_mapped(uint64_t addr, uint64_t len);
/* Firmware tables through the identity map, where it maps them: struct
 * acpi_mem's read (ctx unused); -1 for a range not mapped. */
int phys_read(void *ctx, uint64_t addr, void *buf, size_t len);

#endif
