/* SPDX-License-Identifier: BSD-2-Clause */
#include "boot/bios_low.h"
#include <stdbool.h>
#include "probe/lowmem.h"

#define MAX_RANGES 32
#define TOP 0x9f000u /* the EBDA's lowest usual start is 0x9fc00; ROMs from 0xa0000 */

struct multiboot_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper;
	uint32_t boot_device, cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t elf_num, elf_size, elf_addr, elf_shndx;
	uint32_t mmap_length, mmap_addr;
	uint32_t drives_length, drives_addr;
	uint32_t config_table, boot_loader_name, apm_table;
	uint32_t vbe_control_info, vbe_mode_info;
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
	const struct multiboot_info *m = (const void *)(uintptr_t)mbi_addr;
	struct ranges ram = { .n = 0 }, avoid = { .n = 0 };
	uint64_t top = TOP, ebda = (uint64_t)*(const volatile uint16_t *)at(0x40e) << 4;

	if (ebda >= 0x80000 && ebda < top)
		top = ebda;
	add(&avoid, mbi_addr, sizeof *m);
	if (m->flags & (1u << 2))
		add(&avoid, m->cmdline, string_bytes(m->cmdline));
	if (m->flags & (1u << 3)) {
		const volatile uint32_t *mod = at(m->mods_addr);
		add(&avoid, m->mods_addr, 16ull * m->mods_count);
		for (uint32_t i = 0; i < m->mods_count && i < MAX_RANGES; i++, mod += 4)
			if (mod[1] > mod[0])
				add(&avoid, mod[0], mod[1] - mod[0]);
	}
	if (m->flags & (1u << 5))
		add(&avoid, m->elf_addr, (uint64_t)m->elf_num * m->elf_size);
	if (m->flags & (1u << 7))
		add(&avoid, m->drives_addr, m->drives_length);
	if (m->flags & (1u << 8))
		add(&avoid, m->config_table, 4096); /* its length is the BIOS's; a page is ample */
	if (m->flags & (1u << 9))
		add(&avoid, m->boot_loader_name, string_bytes(m->boot_loader_name));
	if (m->flags & (1u << 10))
		add(&avoid, m->apm_table, 20);
	if (m->flags & (1u << 11)) {
		add(&avoid, m->vbe_control_info, 512);
		add(&avoid, m->vbe_mode_info, 256);
	}
	if (m->flags & (1u << 6)) {
		uint64_t off = 0;
		add(&avoid, m->mmap_addr, m->mmap_length);
		while (off + sizeof(struct mmap_entry) <= m->mmap_length) {
			const struct mmap_entry *e = (const void *)(uintptr_t)(m->mmap_addr + off);
			if (e->type == 1 && e->addr < 0x100000)
				add(&ram, e->addr, e->len);
			off += e->size + 4ull;
		}
	} else if (m->flags & 1u)
		add(&ram, 0, m->mem_lower * 1024ull);
	/* A structure not recorded could be where we would write: better none. */
	if (avoid.full)
		return 0;
	return lowmem_pick(ram.r, ram.n, avoid.r, avoid.n, top, bytes);
}
