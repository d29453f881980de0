/* SPDX-License-Identifier: BSD-2-Clause */
#include "arch/x86/cpu.h"
#include "arch/x86/idt.h"

static uint32_t max_extended(void) { return cpuid(0x80000000, 0).eax; }

bool cpu_has_rdtscp(void)
{
	return max_extended() >= 0x80000001 && (cpuid(0x80000001, 0).edx >> 27 & 1);
}

/* CPUID 0x80000007 EDX bit 8: the TSC runs at a constant rate in every
 * P-, C- and T-state, so it is a clock and not a cycle counter. */
bool cpu_has_invariant_tsc(void)
{
	return max_extended() >= 0x80000007 && (cpuid(0x80000007, 0).edx >> 8 & 1);
}

bool cpu_is_intel(void)
{
	struct cpuid_regs r = cpuid(0, 0);
	return r.ebx == 0x756e6547 && r.edx == 0x49656e69 && r.ecx == 0x6c65746e; /* GenuineIntel */
}

bool rdmsr_safe(uint32_t msr, uint64_t *value)
{
	volatile int faulted = 0;
	uint32_t lo = 0, hi = 0;

	exception_expect(&&resume, &faulted);
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr) : "memory");
	/* The compiler must not assume the label is unreachable. */
	__asm__ goto("" : : : "memory" : resume);
resume:
	exception_expect_none();
	if (faulted)
		return false;
	*value = (uint64_t)hi << 32 | lo;
	return true;
}

bool wrmsr_safe(uint32_t msr, uint64_t value)
{
	volatile int faulted = 0;

	exception_expect(&&resume, &faulted);
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)value), "d"((uint32_t)(value >> 32)) : "memory");
	__asm__ goto("" : : : "memory" : resume);
resume:
	exception_expect_none();
	return !faulted;
}
