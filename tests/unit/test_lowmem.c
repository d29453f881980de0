/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/lowmem.c: the low-memory range for the other CPUs' start-up code, from
 * memory maps like those of QEMU's -kernel loader, GRUB and real BIOSes. */
#include "probe/lowmem.h"
#include "tests/unit/check.h"

#define N(a) (unsigned)(sizeof a / sizeof a[0])
#define K 1024ull

static void test_typical(void)
{
	/* SeaBIOS's e820: RAM to 0x9fc00 (the EBDA above), QEMU -kernel's
	 * multiboot information at 0x9000 and its memory map right after. */
	static const struct mem_range ram[] = { { 0, 0x9fc00 }, { 0x100000, 0x8000000 } };
	static const struct mem_range mbi[] = { { 0x9000, 0x9058 }, { 0x9058, 0x90c0 }, { 0x90c0, 0x9100 } };
	uint64_t a = lowmem_pick(ram, N(ram), mbi, N(mbi), 0x9f000, 32 * K);

	check(a == 0x97000, "lowmem: 32 KiB below 0x9f000 in SeaBIOS's map: 0x%llx, the highest page that fits",
	      (unsigned long long)a);
	a = lowmem_pick(ram, N(ram), mbi, N(mbi), 0xa0000, 32 * K);
	check(a == 0x97000, "lowmem: with top 0xa0000 the range still ends inside RAM (0x9fc00): 0x%llx",
	      (unsigned long long)a);
}

static void test_avoids(void)
{
	static const struct mem_range ram[] = { { 0, 0xa0000 } };
	/* GRUB-like: its multiboot information high in low memory, a command
	 * line elsewhere, and the EBDA reserved through `top`. */
	static const struct mem_range grub[] = { { 0x8f000, 0x8f100 }, { 0x7fff0, 0x80010 } };
	uint64_t a = lowmem_pick(ram, N(ram), grub, N(grub), 0x9f000, 32 * K);

	check(a == 0x97000, "lowmem: structures below the range do not matter: 0x%llx", (unsigned long long)a);
	a = lowmem_pick(ram, N(ram), grub, N(grub), 0x90000, 32 * K);
	check(a == 0x87000, "lowmem: below 0x90000 it ends exactly where the higher structure starts: 0x%llx",
	      (unsigned long long)a);
	{
		static const struct mem_range block[] = { { 0x1000, 0x9f000 } };
		a = lowmem_pick(ram, N(ram), block, N(block), 0x9f000, 4 * K);
		check(a == 0, "lowmem: nothing free gives 0");
	}
	{
		static const struct mem_range edge[] = { { 0x9efff, 0x9f000 } };
		a = lowmem_pick(ram, N(ram), edge, N(edge), 0x9f000, 32 * K);
		check(a == 0x96000, "lowmem: one avoided byte at the top of the first candidate moves it a page down: 0x%llx",
		      (unsigned long long)a);
	}
	{
		static const struct mem_range touch[] = { { 0x9f000, 0x9f001 } };
		a = lowmem_pick(ram, N(ram), touch, N(touch), 0xa0000, 32 * K);
		check(a == 0x97000, "lowmem: a range may end exactly where an avoided one starts: 0x%llx",
		      (unsigned long long)a);
	}
}

static void test_maps(void)
{
	/* RAM in pieces: none of them is 32 KiB, so nothing; then one is. */
	static const struct mem_range bits[] = { { 0x1000, 0x5000 }, { 0x5000, 0x9000 }, { 0x20000, 0x27000 } };
	static const struct mem_range more[] = { { 0x1000, 0x5000 }, { 0x30000, 0x40000 } };
	static const struct mem_range page0[] = { { 0, 0x9000 } };
	uint64_t a = lowmem_pick(bits, N(bits), NULL, 0, 0x9f000, 32 * K);

	check(a == 0, "lowmem: a range must lie inside one usable range, not across two");
	a = lowmem_pick(more, N(more), NULL, 0, 0x9f000, 32 * K);
	check(a == 0x38000, "lowmem: the one usable range large enough: 0x%llx", (unsigned long long)a);
	a = lowmem_pick(page0, N(page0), NULL, 0, 0x9f000, 32 * K);
	check(a == 0x1000, "lowmem: page 0 is never used: 0x%llx", (unsigned long long)a);
	a = lowmem_pick(page0, N(page0), NULL, 0, 0x9f000, 36 * K);
	check(a == 0, "lowmem: 36 KiB do not fit in 0x1000..0x9000");
	a = lowmem_pick(NULL, 0, NULL, 0, 0x9f000, 4 * K);
	check(a == 0, "lowmem: no usable memory at all gives 0");
	a = lowmem_pick(page0, N(page0), NULL, 0, 0x1fff, 4 * K);
	check(a == 0, "lowmem: a top too low for one page above page 0 gives 0");
	a = lowmem_pick(page0, N(page0), NULL, 0, 0x9000, 0);
	check(a == 0, "lowmem: zero bytes gives 0");
	a = lowmem_pick(page0, N(page0), NULL, 0, 0x8800, 4 * K);
	check(a == 0x7000, "lowmem: an unaligned top is rounded down to a page: 0x%llx", (unsigned long long)a);
}

int main(void)
{
	test_typical();
	test_avoids();
	test_maps();
	return check_done();
}
