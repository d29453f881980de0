/* SPDX-License-Identifier: BSD-2-Clause */
#include "boot/bios_low.h"
#include <stdbool.h>
#include "probe/lowmem.h"

#define MAX_RANGES 32
#define TOP 0x9f000u /* the EBDA's lowest usual start is 0x9fc00; ROMs from 0xa0000 */

/* The multiboot information, by 32-bit word (Multiboot 0.6.96, 3.3). */
enum {
	MBI_FLAGS = 0, MBI_MEM_LOWER = 1, MBI_CMDLINE = 4, MBI_MODS_COUNT = 5, MBI_MODS_ADDR = 6,
	MBI_ELF_NUM = 7, MBI_ELF_SIZE = 8, MBI_ELF_ADDR = 9, MBI_MMAP_LENGTH = 11, MBI_MMAP_ADDR = 12,
	MBI_DRIVES_LENGTH = 13, MBI_DRIVES_ADDR = 14, MBI_CONFIG_TABLE = 15, MBI_LOADER_NAME = 16,
	MBI_APM_TABLE = 17, MBI_VBE_CONTROL = 18, MBI_VBE_MODE = 19, MBI_WORDS = 22
};

struct mmap_entry {
	uint32_t size; /* of the rest: the next entry is size + 4 bytes on */
	uint64_t addr, len;
	uint32_t type; /* 1: RAM */
} __attribute__((packed));

struct ranges {
	struct mem_range r[MAX_RANGES];
	unsigned n;
	bool full;
};

static void add(struct ranges *s, uint64_t start, uint64_t len)
{
	if (!len)
		return;
	if (s->n == MAX_RANGES) {
		s->full = true;
		return;
	}
	s->r[s->n++] = (struct mem_range){ start, start + len };
}

static uint64_t string_bytes(uint32_t addr)
{
	const volatile char *p = (const volatile char *)(uintptr_t)addr;
	uint64_t n = 0;
	while (n < 4096 && p[n])
		n++;
	return n + 1;
}

/* A pointer the compiler cannot see as a small constant (GCC takes those
 * for null-pointer offsets and warns about the BIOS data area). */
static const volatile void *at(uintptr_t addr)
{
	__asm__("" : "+r"(addr));
	return (const volatile void *)addr;
}

uint64_t bios_low_area(uint32_t mbi_addr, uint64_t bytes)
{
	const volatile uint32_t *m = (const volatile uint32_t *)(uintptr_t)mbi_addr;
	uint32_t flags = m[MBI_FLAGS];
	struct ranges ram = { .n = 0 }, avoid = { .n = 0 };
	uint64_t top = TOP, ebda = (uint64_t)*(const volatile uint16_t *)at(0x40e) << 4;

	if (ebda >= 0x80000 && ebda < top)
		top = ebda;
	add(&avoid, mbi_addr, 4ull * MBI_WORDS);
	if (flags & (1u << 2))
		add(&avoid, m[MBI_CMDLINE], string_bytes(m[MBI_CMDLINE]));
	if (flags & (1u << 3)) {
		const volatile uint32_t *mod = at(m[MBI_MODS_ADDR]);
		add(&avoid, m[MBI_MODS_ADDR], 16ull * m[MBI_MODS_COUNT]);
		for (uint32_t i = 0; i < m[MBI_MODS_COUNT] && i < MAX_RANGES; i++, mod += 4)
			if (mod[1] > mod[0])
				add(&avoid, mod[0], mod[1] - mod[0]);
	}
	if (flags & (1u << 5)) /* GRUB 2 passes the ELF section headers */
		add(&avoid, m[MBI_ELF_ADDR], (uint64_t)m[MBI_ELF_NUM] * m[MBI_ELF_SIZE]);
	if (flags & (1u << 7))
		add(&avoid, m[MBI_DRIVES_ADDR], m[MBI_DRIVES_LENGTH]);
	if (flags & (1u << 8))
		add(&avoid, m[MBI_CONFIG_TABLE], 4096); /* its length is the BIOS's; a page is ample */
	if (flags & (1u << 9))
		add(&avoid, m[MBI_LOADER_NAME], string_bytes(m[MBI_LOADER_NAME]));
	if (flags & (1u << 10))
		add(&avoid, m[MBI_APM_TABLE], 20);
	if (flags & (1u << 11)) {
		add(&avoid, m[MBI_VBE_CONTROL], 512);
		add(&avoid, m[MBI_VBE_MODE], 256);
	}
	if (flags & (1u << 6)) {
		uint64_t off = 0, len = m[MBI_MMAP_LENGTH], base = m[MBI_MMAP_ADDR];
		add(&avoid, base, len);
		while (off + sizeof(struct mmap_entry) <= len) {
			const struct mmap_entry *e = (const void *)(uintptr_t)(base + off);
			if (e->type == 1 && e->addr < 0x100000)
				add(&ram, e->addr, e->len);
			off += e->size + 4ull;
		}
	} else if (flags & 1u)
		add(&ram, 0, m[MBI_MEM_LOWER] * 1024ull);
	/* A structure not recorded could be where we would write: better none. */
	if (avoid.full)
		return 0;
	return lowmem_pick(ram.r, ram.n, avoid.r, avoid.n, top, bytes);
}
