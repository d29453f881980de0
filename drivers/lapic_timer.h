/* SPDX-License-Identifier: BSD-2-Clause */
/* The local APIC timer (Intel SDM Vol. 3A 11.5.4 "APIC Timer"; 10.5.4 in
 * older editions): the cost of reading its current count, through the xAPIC
 * MMIO page ("lapic") or the x2APIC MSR ("lapic-x2"), and the cost of arming
 * and disarming the TSC-deadline timer ("tsc-deadline"). */
#ifndef DRIVERS_LAPIC_TIMER_H
#define DRIVERS_LAPIC_TIMER_H

#include <stdbool.h>
#include <stdint.h>
#include "probe/counter.h"

#define LAPIC_COUNTERS 3 /* lapic, lapic-x2, tsc-deadline */

/* The one struct this part owns: the APIC's mode and base, the timer
 * registers of the CPU being programmed as they were before (put back by
 * lapic_timer_settle), and the methods, which say how the timer was
 * programmed.  One CPU programs it at a time. */
struct lapic_timer {
	bool usable;   /* an enabled local APIC this driver can program */
	bool x2;       /* in x2APIC mode: registers through MSRs 0x800.. */
	bool deadline; /* CPUID offers the TSC-deadline mode */
	bool touched;  /* programmed since the firmware's registers were last put back */
	bool armed;    /* in TSC-deadline mode, by lapic_timer_prepare */
	uint64_t base; /* xAPIC: the MMIO page, from IA32_APIC_BASE */
	uint32_t lvt, initial, divide; /* before the first prepare since the last settle */
	char method[2][COUNTER_TEXT];
};

/* Fills the three descriptors and states.  madt_base: the MADT's Local APIC
 * address (a type 5 override's when there is one), 0 for none: compared with
 * IA32_APIC_BASE, which is what the CPU decodes, and noted when it differs. */
void lapic_timer_setup(struct lapic_timer *t, uint64_t madt_base, struct counter d[LAPIC_COUNTERS],
		       struct counter_state s[LAPIC_COUNTERS]);
/* Counter k's timer state: periodic and counting for the current count (0,
 * 1), TSC-deadline mode for the deadline writes (2).  Always masked. */
void lapic_timer_prepare(struct lapic_timer *t, unsigned k);
/* The timer registers back as the last prepare found them on this CPU, the
 * deadline disarmed. */
void lapic_timer_settle(struct lapic_timer *t);

#endif
