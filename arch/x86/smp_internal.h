/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared by arch/x86/smp.c (start-up) and arch/x86/smp_team.c (the APs'
 * mailboxes, the team operation, exceptions): the one struct they own. */
#ifndef ARCH_X86_SMP_INTERNAL_H
#define ARCH_X86_SMP_INTERNAL_H

#include <stddef.h>
#include "arch/x86/ap_boot.h"
#include "arch/x86/cpu.h"
#include "arch/x86/lapic.h"
#include "arch/x86/smp.h"

struct desc_ptr {
	uint16_t pad[3];
	uint16_t limit; /* sgdt/lgdt operand starts here, so that base is aligned */
	uint64_t base;
};

struct ap_handover {
	struct desc_ptr gdtr, idtr;
	uint16_t cs, ds, ss, pad0;
	uint64_t apic_base;
	uint64_t stacks, stack_bytes;
	uint32_t count;
	uint8_t pad1[HO_APIC_IDS - HO_COUNT - 4];
	uint32_t apic_id[AP_MAX_CPUS];
	uint32_t state[AP_MAX_CPUS];
};
_Static_assert(offsetof(struct ap_handover, gdtr.limit) == HO_GDTR, "HO_GDTR");
_Static_assert(offsetof(struct ap_handover, idtr.limit) == HO_IDTR, "HO_IDTR");
_Static_assert(offsetof(struct ap_handover, cs) == HO_CS && offsetof(struct ap_handover, ds) == HO_DS &&
	       offsetof(struct ap_handover, ss) == HO_SS, "HO selectors");
_Static_assert(offsetof(struct ap_handover, apic_base) == HO_APIC_BASE, "HO_APIC_BASE");
_Static_assert(offsetof(struct ap_handover, stacks) == HO_STACKS &&
	       offsetof(struct ap_handover, stack_bytes) == HO_STACK_BYTES, "HO stacks");
_Static_assert(offsetof(struct ap_handover, count) == HO_COUNT, "HO_COUNT");
_Static_assert(offsetof(struct ap_handover, apic_id) == HO_APIC_IDS, "HO_APIC_IDS");
_Static_assert(offsetof(struct ap_handover, state) == HO_STATE && sizeof(struct ap_handover) == HO_SIZE, "HO_STATE");

/* One entry's mailbox: `work` is written by the boot CPU only, `seen` and
 * `done` by the AP only; a cache line each, so that polling CPUs do not share
 * lines, and so that an AP in mwait is woken by the one write to its own
 * line that means work (the boot CPU's). */
struct slot {
	uint32_t work, seen, done; /* generations: posted, woken for, finished */
	unsigned cpu;
	team_fn fn;
	void *arg;
} __attribute__((aligned(64)));

struct smp {
	struct ap_handover ho;
	struct lapic apic;
	bool started; /* the APIC is usable and the exception filter active */
	unsigned n;
	struct smp_entry e[SMP_MAX_CPUS];
	uint64_t first_sipi[SMP_MAX_CPUS];
	uint16_t team_entry[SMP_MAX_CPUS];
	struct slot slot[SMP_MAX_CPUS];
	uint32_t gen;
	uint64_t cycles_per_us;
	const char *problem;
	uint64_t start_code; /* the low page the STARTUP IPIs name; 0: none */
	uint64_t pat;
	uint32_t mxcsr;
	bool has_pat, has_rdtscp;
	enum smp_idle idle;       /* how an AP with nothing to do waits */
	uint64_t wake_retries;    /* wake-up IPIs sent again to an AP slow to wake */
	uint32_t deaf_entry;      /* fault=ap-deaf: this entry ignores its next wake-up; 0: none */
	/* The first AP exception: claimed, filled in, then ready. */
	uint32_t fault_claimed, fault_ready;
	bool fault_reported;
	unsigned fault_entry;
	struct exception_frame fault_frame;
	uint64_t fault_cr2;
	void (*on_ap_exception)(unsigned cpu, uint32_t apic_id, const struct exception_frame *f, uint64_t cr2);
	struct team team;
};


extern struct smp smp;

__attribute__((noreturn)) void ap_park(void);
__attribute__((noreturn)) void ap_main(unsigned e);

/* True while less than max_cycles have passed since t0.  *polls bounds the
 * wait should the TSC not move: a poll takes at least one cycle (one
 * instruction under qemu -icount), so it never cuts a wait short. */
static inline bool within(uint64_t t0, uint64_t max_cycles, uint64_t *polls)
{
	return rdtsc() - t0 <= max_cycles && (*polls)++ <= max_cycles;
}

unsigned smp_find_entry(uint32_t apic_id);
void smp_idle_setup(void);
void irq_wake_stub(void);
void irq_spurious_stub(void);
void smp_wake_eoi(void);
void smp_check_fault(void);
unsigned smp_team_run(void *plat, const unsigned *cpus, unsigned n, team_fn fn, void *arg, uint64_t timeout);
uint64_t smp_team_tsc(unsigned cpu);

#endif
