/* SPDX-License-Identifier: BSD-2-Clause */
#include "drivers/hpet.h"
#include "arch/x86/cpu.h"
#include "arch/x86/paging.h"
#include "lib/fmt.h"
#include "lib/util.h"

#define HPET_CAP 0x00    /* general capabilities and id */
#define HPET_CONFIG 0x10 /* bit 0: ENABLE_CNF, the main counter runs */
#define HPET_COUNTER 0xf0
#define CAP_COUNT_SIZE (1u << 13)
#define MAX_PERIOD_FS 100000000u /* the spec: at most 100 ns a tick, 10 MHz at least */
#define HPET_BLOCK_LEN 1024     /* the register block: 1 KiB */

uint64_t hpet_read32(const struct counter *c);
uint64_t hpet_read64(const struct counter *c);
__asm__(".text\n"
	"hpet_read32:\n"
	"	mov (%rdi), %rax\n" /* counter.hw: the block's base */
	"	mov 0xf0(%rax), %eax\n"
	"	ret\n"
	"hpet_read64:\n"
	"	mov (%rdi), %rax\n"
	"	mov 0xf0(%rax), %rax\n"
	"	ret\n");

void hpet_setup(uint64_t base, const char *why_absent, struct counter d[HPET_COUNTERS],
		struct counter_state s[HPET_COUNTERS])
{
	struct counter *h32 = &d[0], *h64 = &d[1];
	uint32_t cap = 0, period = 0;
	uint64_t start;
	char why[112];

	counter_describe(h32, "hpet", hpet_read32, 2, "32-bit MMIO load, base + 0xF0");
	counter_describe(h64, "hpet64", hpet_read64, 2, "64-bit MMIO load, base + 0xF0");
	counter_state_init(&s[0]);
	counter_state_init(&s[1]);
	h32->width = 32;
	h64->width = 64;
	h32->is_counter = h64->is_counter = true;
	h32->hw = h64->hw = base;
	h32->mask = 0xffffffffull;
	h64->mask = ~0ull;
	if (!base) {
		tp_snprintf(why, sizeof why, "no HPET: %s", why_absent ? why_absent : "no table in ACPI");
		counter_absent(&s[0], why);
		counter_absent(&s[1], why);
		return;
	}
	if (!phys_mapped(base, HPET_BLOCK_LEN)) {
		tp_snprintf(why, sizeof why, "HPET at 0x%llx cannot be reached: the address is outside this boot's memory map",
			    (unsigned long long)base);
		counter_absent(&s[0], why);
		counter_absent(&s[1], why);
		return;
	}

	/* AMD SB700 erratum: the block reads all-ones for a while after the
	 * first access.  Retry for up to about 100 ms: bounded by the TSC and,
	 * should the TSC not run, by the iteration count. */
	start = rdtsc();
	for (uint32_t i = 0; i < 1000000; i++) {
		cap = mmio_read32(base + HPET_CAP);
		period = mmio_read32(base + HPET_CAP + 4);
		if (cap != 0xffffffffu || period != 0xffffffffu)
			break;
		if (rdtsc() - start > 400000000ull)
			break;
	}
	if (cap == 0xffffffffu && period == 0xffffffffu) {
		tp_snprintf(why, sizeof why, "HPET at 0x%llx reads all-ones: nothing answers there",
			    (unsigned long long)base);
		counter_absent(&s[0], why);
		counter_absent(&s[1], why);
		return;
	}
	if (!period || period > MAX_PERIOD_FS) {
		tp_snprintf(why, sizeof why, "HPET at 0x%llx: period %u fs is outside 1..100000000",
			    (unsigned long long)base, period);
		counter_absent(&s[0], why);
		counter_absent(&s[1], why);
		return;
	}
	h32->nominal_hz = h64->nominal_hz = (1000000000000000ull + period / 2) / period;
	if (!(cap & CAP_COUNT_SIZE))
		counter_absent(&s[1], "HPET main counter is 32 bits wide (COUNT_SIZE_CAP clear)");

	if (!(mmio_read32(base + HPET_CONFIG) & 1)) {
		mmio_write32(base + HPET_CONFIG, mmio_read32(base + HPET_CONFIG) | 1);
		tp_snprintf(s[0].note, sizeof s[0].note, "the counter was halted; tickprobe started it");
		tp_memcpy(s[1].note, s[0].note, sizeof s[1].note);
	}
}
