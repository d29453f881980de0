/* SPDX-License-Identifier: BSD-2-Clause */
#include "arch/x86/paging.h"
#include "lib/util.h"

#define PTE_PRESENT 1ull
#define PTE_LARGE (1ull << 7)              /* 1 GiB at level 3, 2 MiB at level 2 */
#define PTE_ADDR 0x000ffffffffff000ull     /* bits 12..51 */
#define CR4_LA57 (1ull << 12)

static uint64_t read_cr3(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static uint64_t read_cr4(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

/* The physical address va maps to, and the size of the page holding it;
 * false when not mapped.  The tables themselves are read through the
 * identity map, where both boot paths keep them. */
static bool translate(uint64_t va, int levels, uint64_t *pa, uint64_t *page)
{
	uint64_t table = read_cr3() & PTE_ADDR;
	int top_shift = 12 + 9 * levels; /* 48 or 57 */

	if (va >> (top_shift - 1)) /* above the lower canonical half: never identity */
		return false;
	for (int level = levels; level >= 1; level--) {
		int shift = 12 + 9 * (level - 1);
		uint64_t e = ((const volatile uint64_t *)(uintptr_t)table)[(va >> shift) & 511];
		if (!(e & PTE_PRESENT))
			return false;
		if (level == 1 || ((level == 2 || level == 3) && (e & PTE_LARGE))) {
			uint64_t size = 1ull << shift;
			*pa = (e & PTE_ADDR & ~(size - 1)) | (va & (size - 1));
			*page = size;
			return true;
		}
		table = e & PTE_ADDR;
	}
	return false;
}

bool phys_mapped(uint64_t addr, uint64_t len)
{
	int levels = (read_cr4() & CR4_LA57) ? 5 : 4;
	uint64_t last = addr + (len ? len - 1 : 0);

	if (last < addr)
		return false;
	for (uint64_t va = addr;;) {
		uint64_t pa, page, next;
		if (!translate(va, levels, &pa, &page) || pa != va)
			return false;
		next = (va | (page - 1)) + 1; /* va is below 2^56: no wrap */
		if (next > last)
			return true;
		va = next;
	}
}

int phys_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	if (!len || !phys_mapped(addr, len))
		return -1;
	tp_memcpy(buf, (const void *)(uintptr_t)addr, len);
	return 0;
}
