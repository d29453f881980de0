/* SPDX-License-Identifier: BSD-2-Clause */
#include "drivers/tsc.h"
#include "arch/x86/cpu.h"
#include "lib/util.h"

/* Read functions are assembly so that their instruction counts are fixed
 * (counter.insns): under qemu -icount shift=0 a read costs exactly that. */
uint64_t tsc_read_rdtsc(const struct counter *c);
uint64_t tsc_read_rdtscp(const struct counter *c);
uint64_t tsc_read_lfence(const struct counter *c);
__asm__(".text\n"
	"tsc_read_rdtsc:\n"
	"	rdtsc\n"
	"	shl $32, %rdx\n"
	"	or %rdx, %rax\n"
	"	ret\n"
	"tsc_read_rdtscp:\n"
	"	rdtscp\n"
	"	shl $32, %rdx\n"
	"	or %rdx, %rax\n"
	"	ret\n"
	"tsc_read_lfence:\n"
	"	lfence\n"
	"	rdtsc\n"
	"	shl $32, %rdx\n"
	"	or %rdx, %rax\n"
	"	ret\n");

/* Every read path of the TSC is a 64-bit counter of TSC cycles, timed
 * against itself: no nominal rate, no frequency check. */
static const struct counter_desc tsc_counters[] = {
	{ .name = "tsc", .read = tsc_read_rdtsc, .insns = 3, .method = "rdtsc, EDX:EAX joined",
	  .width = 64, .tsc_based = true, .is_counter = true },
	{ .name = "rdtscp", .read = tsc_read_rdtscp, .insns = 3, .method = "rdtscp, EDX:EAX joined",
	  .width = 64, .tsc_based = true, .is_counter = true },
	{ .name = "tsc-lfence", .read = tsc_read_lfence, .insns = 4, .method = "lfence; rdtsc",
	  .width = 64, .tsc_based = true, .is_counter = true },
};
#define TSC_COUNTERS (sizeof tsc_counters / sizeof tsc_counters[0])

/* The one struct this part owns: the descriptors as attach filled them. */
static struct {
	struct counter c[TSC_COUNTERS];
} tsc;

/* rdtscp is absent where CPUID says so. */
static void tsc_attach(const struct counter_env *env, const struct counter **c, struct counter_state *s)
{
	(void)env;
	for (unsigned i = 0; i < TSC_COUNTERS; i++) {
		counter_from_desc(&tsc.c[i], &tsc_counters[i]);
		counter_state_init(&s[i]);
		c[i] = &tsc.c[i];
	}
	if (!cpu_has_rdtscp()) {
		s[1].present = false;
		tp_memcpy(s[1].reason, "CPUID 0x80000001 EDX bit 27: no RDTSCP", 39);
	}
}

const struct counter_driver tsc_driver = {
	.name = "TSC", .counters = tsc_counters, .n = TSC_COUNTERS, .attach = tsc_attach,
};

void tsc_claims(struct tsc_claims *f)
{
	uint32_t max = cpuid(0, 0).eax;

	tp_memset(f, 0, sizeof *f);
	/* Leaf 0x15: TSC = crystal * EBX / EAX.  ECX (the crystal) is 0 on
	 * parts that do not enumerate it; no table of guesses here, only what
	 * the CPU says. */
	if (max >= 0x15) {
		struct cpuid_regs r = cpuid(0x15, 0);
		if (r.eax && r.ebx && r.ecx)
			f->cpuid15_hz = (uint64_t)r.ecx * r.ebx / r.eax;
	}
	if (max >= 0x16) {
		struct cpuid_regs r = cpuid(0x16, 0);
		if (r.eax & 0xffff)
			f->cpuid16_hz = (uint64_t)(r.eax & 0xffff) * 1000000;
	}
	/* Hypervisor leaf 0x40000010 (VMware's, also offered by KVM and QEMU
	 * with vmware-cpuid-freq): EAX = TSC kHz. */
	if (cpuid(1, 0).ecx >> 31 & 1) {
		struct cpuid_regs h = cpuid(0x40000000, 0);
		if (h.eax >= 0x40000010) {
			struct cpuid_regs r = cpuid(0x40000010, 0);
			if (r.eax)
				f->hypervisor_hz = (uint64_t)r.eax * 1000;
		}
	}
}
