/* SPDX-License-Identifier: BSD-2-Clause */
#include "arch/x86/lapic.h"
#include <stddef.h>
#include "arch/x86/cpu.h"
#include "arch/x86/msr.h"

#define APIC_BASE_X2APIC (1ull << 10)
#define APIC_BASE_ENABLED (1ull << 11)
#define APIC_BASE_ADDRESS 0x000ffffffffff000ull

static uint32_t msr_of(unsigned reg) { return MSR_X2APIC_FIRST + reg / 16; }

const char *lapic_init(struct lapic *l)
{
	uint64_t base;

	l->x2apic = false;
	l->base = 0;
	l->version = 0;
	if (!(cpuid(1, 0).edx >> 9 & 1))
		return "no local APIC (CPUID.1:EDX bit 9)";
	base = msr_read(MSR_APIC_BASE);
	if (!(base & APIC_BASE_ENABLED))
		return "the local APIC is disabled (IA32_APIC_BASE bit 11 clear)";
	l->x2apic = base & APIC_BASE_X2APIC;
	l->base = base & APIC_BASE_ADDRESS;
	/* Both boot paths identity-map only what the core reaches below 4 GiB
	 * for certain (platform/pc.c phys_read says the same of ACPI). */
	if (!l->x2apic && l->base >= (1ull << 32))
		return "the xAPIC register page is above 4 GiB";
	l->version = lapic_read(l, LAPIC_REG_VERSION);
	/* Discrete 82489DX APICs (version 0x0X) take no STARTUP IPI: they need
	 * the BIOS warm-reset vector, which this probe does not do. */
	if ((l->version & 0xf0) != 0x10)
		return "not an integrated APIC (version below 0x10): no STARTUP IPI";
	return NULL;
}

uint32_t lapic_read(const struct lapic *l, unsigned reg)
{
	if (l->x2apic)
		return (uint32_t)msr_read(msr_of(reg));
	return mmio_read32(l->base + reg);
}

void lapic_write(const struct lapic *l, unsigned reg, uint32_t v)
{
	if (l->x2apic)
		msr_write(msr_of(reg), v);
	else
		mmio_write32(l->base + reg, v);
}

uint32_t lapic_id(const struct lapic *l)
{
	if (msr_read(MSR_APIC_BASE) & APIC_BASE_X2APIC)
		return (uint32_t)msr_read(msr_of(LAPIC_REG_ID));
	return mmio_read32(l->base + LAPIC_REG_ID) >> 24;
}

uint32_t lapic_esr(const struct lapic *l)
{
	unsigned max_lvt = l->version >> 16 & 0xff;
	if (max_lvt > 3)
		lapic_write(l, LAPIC_REG_ESR, 0);
	return lapic_read(l, LAPIC_REG_ESR);
}

bool lapic_ipi(const struct lapic *l, uint32_t dest, uint32_t icr, uint64_t max_cycles)
{
	uint64_t t0, polls = 0;

	if (l->x2apic) {
		/* One write: no torn destination, and no delivery status to wait
		 * for (SDM vol. 3A, 11.12.9).  A WRMSR to the x2APIC is not
		 * serialising: the fence makes every earlier store (the start-up
		 * code, a mailbox) visible before the IPI is. */
		__asm__ volatile("mfence; lfence" ::: "memory");
		msr_write(msr_of(LAPIC_REG_ICR_LOW), (uint64_t)dest << 32 | icr);
		return true;
	}
	lapic_write(l, LAPIC_REG_ICR_HIGH, dest << 24);
	lapic_write(l, LAPIC_REG_ICR_LOW, icr);
	t0 = rdtsc();
	while (lapic_read(l, LAPIC_REG_ICR_LOW) & ICR_SEND_PENDING) {
		if (rdtsc() - t0 > max_cycles || ++polls > max_cycles)
			return false;
		__builtin_ia32_pause();
	}
	return true;
}

uint32_t lapic_max_dest(const struct lapic *l)
{
	return l->x2apic ? 0xfffffffeu : 0xfeu;
}
