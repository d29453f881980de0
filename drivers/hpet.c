/* SPDX-License-Identifier: BSD-2-Clause */
/* The HPET main counter (IA-PC HPET specification 1.0a), read 32 ("hpet")
 * and 64 bits wide ("hpet64", where the counter is 64 bits wide), at the
 * block the ACPI HPET table gives.  A halted counter is started, and the
 * note says so.  A block outside the memory the probe can address is
 * absent, with the reason: it is never touched. */
#include "acpi/acpi.h"
#include "arch/x86/cpu.h"
#include "arch/x86/paging.h"
#include "lib/fmt.h"
#include "lib/hwregs.h"
#include "lib/util.h"
#include "probe/counter.h"

#define CAP_COUNT_SIZE (1u << 13)
#define MAX_PERIOD_FS 100000000u /* the spec: at most 100 ns a tick, 10 MHz at least */

uint64_t hpet_read32(const struct counter *c);
uint64_t hpet_read64(const struct counter *c);
/* One instruction a line, as an assembler listing reads. */
/* clang-format off */
__asm__(".text\n"
	"hpet_read32:\n"
	"	mov (%rdi), %rax\n" /* counter.hw: the block's base */
	"	mov " HW_STR(HPET_REG_COUNTER) "(%rax), %eax\n"
	"	ret\n"
	"hpet_read64:\n"
	"	mov (%rdi), %rax\n"
	"	mov " HW_STR(HPET_REG_COUNTER) "(%rax), %rax\n"
	"	ret\n");
/* clang-format on */

/* The rate is the block's period, read by attach.  hpet64's rate is
 * hpet's: one device, so hpet's calibration gives both. */
static const struct counter_desc hpet_counters[] = {
	{ .name = "hpet", .read = hpet_read32, .insns = 2, .method = "32-bit MMIO load, base + 0xF0",
	  .width = 32, .is_counter = true, .calibrates = "hpet" },
	{ .name = "hpet64", .read = hpet_read64, .insns = 2, .method = "64-bit MMIO load, base + 0xF0",
	  .width = 64, .is_counter = true, .rate_from = "hpet" },
};
#define HPET_COUNTERS (sizeof hpet_counters / sizeof hpet_counters[0])

/* The one struct this part owns: the descriptors as attach filled them. */
static struct {
	struct counter c[HPET_COUNTERS];
} hpet;

/* base = 0: no usable HPET table, for the reason why_absent (NULL: none
 * given). */
static void hpet_setup(uint64_t base, const char *why_absent, struct counter *d, struct counter_state *s)
{
	struct counter *h32 = &d[0], *h64 = &d[1];
	uint32_t cap = 0, period = 0;
	uint64_t start;
	char why[112];

	counter_from_desc(h32, &hpet_counters[0]);
	counter_from_desc(h64, &hpet_counters[1]);
	counter_state_init(&s[0]);
	counter_state_init(&s[1]);
	h32->hw = h64->hw = base;
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
		cap = mmio_read32(base + HPET_REG_CAP);
		period = mmio_read32(base + HPET_REG_CAP + 4);
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

	if (!(mmio_read32(base + HPET_REG_CONFIG) & HPET_CONFIG_ENABLE)) {
		mmio_write32(base + HPET_REG_CONFIG, mmio_read32(base + HPET_REG_CONFIG) | HPET_CONFIG_ENABLE);
		tp_snprintf(s[0].note, sizeof s[0].note, "the counter was halted; tickprobe started it");
		tp_memcpy(s[1].note, s[0].note, sizeof s[1].note);
	}
}

static void hpet_attach(const struct counter_env *env, const struct counter **c, struct counter_state *s)
{
	const struct acpi_info *a = env->acpi;

	hpet_setup(a->have_hpet ? a->hpet_address : 0, a->hpet_none, hpet.c, s);
	for (unsigned i = 0; i < HPET_COUNTERS; i++)
		c[i] = &hpet.c[i];
}

const struct counter_driver hpet_driver = {
	.name = "HPET", .counters = hpet_counters, .n = HPET_COUNTERS, .attach = hpet_attach,
};
