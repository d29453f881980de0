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

uint64_t tsc_read(const struct counter *c) { return tsc_read_rdtsc(c); }

static void describe(struct counter *c, const char *name, counter_read_fn fn, unsigned insns,
		     const char *method)
{
	counter_describe(c, name, fn, insns, method);
	c->mask = ~0ull;
	c->width = 64;
	c->tsc_based = true;
	c->is_counter = true;
}

void tsc_describe(struct counter d[TSC_COUNTERS], struct counter_state s[TSC_COUNTERS])
{
	describe(&d[0], "tsc", tsc_read_rdtsc, 3, "rdtsc, EDX:EAX joined");
	describe(&d[1], "rdtscp", tsc_read_rdtscp, 3, "rdtscp, EDX:EAX joined");
	describe(&d[2], "tsc-lfence", tsc_read_lfence, 4, "lfence; rdtsc");
	for (int i = 0; i < TSC_COUNTERS; i++)
		counter_state_init(&s[i]);
	if (!cpu_has_rdtscp()) {
		s[1].present = false;
		tp_memcpy(s[1].reason, "CPUID 0x80000001 EDX bit 27: no RDTSCP", 39);
	}
}

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
