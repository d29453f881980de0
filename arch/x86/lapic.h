/* SPDX-License-Identifier: BSD-2-Clause */
/* The local APIC of the calling CPU, in either of its two modes:
 *  - xAPIC: a 4 KiB register page at the physical address in IA32_APIC_BASE
 *    (both boot paths identity-map it below 4 GiB; the BIOS path uncached);
 *  - x2APIC: the same registers as MSRs 0x800 + offset/16, the ICR one 64-bit
 *    MSR (0x830) with the destination in bits 63:32 and no delivery-status bit.
 * The mode is the one the firmware left (IA32_APIC_BASE bit 10): the probe never
 * switches it.  QEMU 7.2's TCG has no x2APIC, so the x2APIC path runs only on
 * hardware (or KVM) that offers it. */
#ifndef ARCH_X86_LAPIC_H
#define ARCH_X86_LAPIC_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/hwregs.h"

/* The register offsets are lib/hwregs.h's LAPIC_REG_*. */
#define LAPIC_SVR_ENABLE (1u << 8) /* SVR bit 8: software enable; bits 7:0 the spurious vector */

/* ICR low word: delivery mode (bits 10:8), level (14), trigger (15). */
#define ICR_FIXED (0u << 8) /* with the vector in bits 7:0 */
#define ICR_INIT (5u << 8)
#define ICR_STARTUP (6u << 8)
#define ICR_LEVEL_ASSERT (1u << 14)
#define ICR_TRIGGER_LEVEL (1u << 15)
#define ICR_SEND_PENDING (1u << 12) /* xAPIC only */

struct lapic {
	bool x2apic;      /* the boot CPU's mode */
	uint64_t base;    /* xAPIC register page (physical = virtual) */
	uint32_t version; /* LAPIC_REG_VERSION as read on the boot CPU */
};

/* Reads IA32_APIC_BASE on the calling (boot) CPU.  Returns NULL when the APIC
 * can send start-up IPIs, else why not ("no local APIC (CPUID.1:EDX bit 9)"). */
const char *lapic_init(struct lapic *l);

uint32_t lapic_read(const struct lapic *l, unsigned reg);
void lapic_write(const struct lapic *l, unsigned reg, uint32_t v);

/* The calling CPU's APIC ID: the full 32-bit x2APIC ID, or xAPIC ID bits 31:24.
 * The mode is read from the calling CPU's own IA32_APIC_BASE, so it is right
 * on a CPU whose mode differs from the boot CPU's. */
uint32_t lapic_id(const struct lapic *l);

/* The error status after the last IPI: ESR is written (with 0) before it is
 * read, which latches the errors seen since the previous write.  Pentium-era
 * APICs with 3 LVT entries must not be written (Intel erratum 3AP). */
uint32_t lapic_esr(const struct lapic *l);

/* Sends one IPI (icr: the ICR low word) to APIC ID dest and, on an xAPIC,
 * waits until the delivery-status bit clears, for at most max_cycles TSC
 * cycles (and as many polls, should the TSC not move).  Returns false when
 * the send did not complete in time. */
bool lapic_ipi(const struct lapic *l, uint32_t dest, uint32_t icr, uint64_t max_cycles);

/* The highest APIC ID an IPI can name: 0xfe (0xff is broadcast) or 0xfffffffe. */
uint32_t lapic_max_dest(const struct lapic *l);

#endif
