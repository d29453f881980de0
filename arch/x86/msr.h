/* SPDX-License-Identifier: BSD-2-Clause */
/* Model-specific registers that exist wherever they are used here (the
 * caller has checked CPUID): a plain rdmsr/wrmsr, no recovery.  An MSR that
 * may be missing goes through rdmsr_safe (arch/x86/cpu.h) instead. */
#ifndef ARCH_X86_MSR_H
#define ARCH_X86_MSR_H

#include <stdint.h>

#define MSR_APIC_BASE 0x1b      /* bit 11 APIC enabled, bit 10 x2APIC mode, bits 12+ base */
#define MSR_PAT 0x277
#define MSR_X2APIC_FIRST 0x800  /* x2APIC register at MMIO offset R is MSR 0x800 + R/16 */
#define MSR_EFER 0xc0000080
#define MSR_TSC_AUX 0xc0000103  /* what rdtscp returns in ECX */

#define EFER_LME (1u << 8)
#define EFER_NXE (1u << 11)

static inline uint64_t msr_read(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}

static inline void msr_write(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)) : "memory");
}

#endif
