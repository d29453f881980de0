/* SPDX-License-Identifier: BSD-2-Clause */
/* CPU primitives: cpuid, time-stamp counter, port and memory-mapped I/O, MSRs.
 * All inline: the measurement brackets must not pay for a call. */
#ifndef ARCH_X86_CPU_H
#define ARCH_X86_CPU_H

#include <stdint.h>
#include <stdbool.h>

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

static inline struct cpuid_regs cpuid(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid_regs r;
	__asm__ volatile("cpuid"
			 : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			 : "a"(leaf), "c"(subleaf));
	return r;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port)); }
static inline void outw(uint16_t port, uint16_t v) { __asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint16_t inw(uint16_t port)
{
	uint16_t v;
	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline void outl(uint16_t port, uint32_t v) { __asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port)); }

static inline uint32_t mmio_read32(uint64_t addr) { return *(volatile uint32_t *)(uintptr_t)addr; }
static inline uint64_t mmio_read64(uint64_t addr) { return *(volatile uint64_t *)(uintptr_t)addr; }
static inline void mmio_write32(uint64_t addr, uint32_t v) { *(volatile uint32_t *)(uintptr_t)addr = v; }

static inline void cpu_cli(void) { __asm__ volatile("cli" ::: "memory"); }

static inline uint64_t read_flags(void)
{
	uint64_t f;
	__asm__ volatile("pushfq; popq %0" : "=r"(f));
	return f;
}

#define RFLAGS_IF (1u << 9)
/* For the UEFI path's firmware calls: EDK2's RestoreTPL sets IF on its way
 * out of any of them, so around one, IF is put back clear when it was clear
 * before (flags_before: read_flags() ahead of the call). */
static inline void cpu_keep_if_clear(uint64_t flags_before)
{
	if (!(flags_before & RFLAGS_IF))
		cpu_cli();
}

static inline uint64_t read_cr2(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

/* rdmsr that survives a #GP: the exception handler sees the armed recovery
 * point and resumes there instead of ending the run (arch/x86/idt.c).
 * MSR_SMI_COUNT (0x34), for one, exists only on some Intel cores. */
bool rdmsr_safe(uint32_t msr, uint64_t *value);
/* wrmsr that survives a #GP the same way: false when the CPU refused it. */
bool wrmsr_safe(uint32_t msr, uint64_t value);

/* rdmsr and wrmsr of an MSR the CPU is known to have (CPUID said so): a #GP
 * here is a real fault, and ends the run with its exception record. */
static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr) : "memory");
	return (uint64_t)hi << 32 | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)) : "memory");
}

static inline void mfence(void) { __asm__ volatile("mfence" ::: "memory"); }

/* The highest basic and extended CPUID leaves, and feature tests. */
bool cpu_has_rdtscp(void);
bool cpu_has_invariant_tsc(void);
bool cpu_is_intel(void);

#endif
