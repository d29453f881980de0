/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef BOOT_BIOS_LOW_H
#define BOOT_BIOS_LOW_H

#include <stdint.h>

/* A free, page-aligned range of `bytes` below 0x9f000 for the other CPUs'
 * start-up code, from the multiboot information at mbi_addr: RAM by its memory
 * map (flag bit 6; else mem_lower), avoiding every structure it points at
 * (QEMU's -kernel loader puts them at 0x9000, GRUB anywhere in low memory) and
 * the EBDA.  0 when there is none. */
uint64_t bios_low_area(uint32_t mbi_addr, uint64_t bytes);

#endif
