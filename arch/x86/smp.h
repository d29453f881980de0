/* SPDX-License-Identifier: BSD-2-Clause */
/* The other processors (APs): started once, early in the run, then driven
 * through the one operation of probe/team.h.  Both boot paths use this same
 * code; the boot path only reserves memory (boot_info.low_area, .ap_stacks).
 *
 * Start-up, smp_start():
 *  1. The start-up code (ap_trampoline.S) goes to the first page of the low
 *     area (below 1 MiB: a STARTUP IPI names a page there), with temporary page
 *     tables in the pages after it that identity-map only that page and the
 *     2 MiB holding ap_entry64, so the boot CPU's CR3 may lie anywhere.
 *  2. All the APs to start are started together, the MP specification's
 *     sequence sent to each by APIC ID: INIT (assert; 10 ms; deassert on an
 *     xAPIC), a STARTUP IPI, 200 us, a second STARTUP to each that has not
 *     arrived, then one wait of at most SMP_ARRIVAL_MS for all.  ESR is cleared
 *     before and read after each STARTUP; an error there ends that CPU's start.
 *  3. Each AP: real mode -> protected mode -> long mode on the temporary
 *     tables -> ap_entry64, whose first instruction loads the boot CPU's CR3.
 *     It loads the boot CPU's GDT and IDT, finds its entry by APIC ID, claims
 *     it with one compare-and-swap, takes that entry's stack, sets up SSE, PAT
 *     and MXCSR as the boot CPU has them, and waits in its mailbox (RUNNING).
 *  4. An AP not RUNNING in time is marked "no response": its entry is
 *     abandoned by the same compare-and-swap (a late arrival finds it so and
 *     halts on the spot) and it gets an INIT (back to waiting for a STARTUP
 *     that never comes).  The low area and the stacks stay reserved for the
 *     whole run, so nothing a late CPU can touch is ever reused.
 * Waits use the TSC at the calibrated rate, or as if it ran at 10 GHz when the
 * rate is unknown (never short), and are also bounded in polls.
 *
 * Numbering: an "entry" is a CPU in the order of the `cpus` record (the boot
 * CPU first, then the firmware's order); a "cpu" is a team index, 0..count-1
 * over the entries that run (the boot CPU and every AP that arrived), in the
 * same order.  Team work is always named by cpu.
 *
 * The team operation (smp_team()->run, called on the boot CPU only): each AP
 * waits on a generation counter in its own cache line; run() writes fn and arg
 * there, bumps the generation, runs fn itself when cpu 0 is listed, then waits
 * for each AP to echo the generation, at most timeout cycles (and as many
 * polls).  An AP that does not is dropped: never asked again, and its late
 * echo cannot be taken for a later run's.  Indices and team.count stay as they
 * were; smp_entry()->dropped says who, ->unwoken whether it had not even woken.
 *
 * Idle APs are quiet: a spinning AP takes a core's front end from its SMT
 * sibling, or host time from the measuring vCPU when a VM has more vCPUs than
 * the host has cores (seen here: 4 vCPUs on 2 host cores measured the main
 * table 8-24 % slower than 1 vCPU in one boot of two).  So an AP with no work
 * waits in MONITOR/MWAIT on its mailbox line where CPUID.1:ECX[3] has them
 * (the boot CPU's write of the generation wakes it), else in hlt; on both,
 * run() sends a fixed IPI (SMP_WAKE_VECTOR) after the write.  On the mwait
 * path it is not redundant: Bochs 2.7 with 4 CPUs left two of three APs
 * asleep past the TSC sync pairs' wait after the write alone.  Interrupts
 * are on only for the one instruction that waits: the AP checks its mailbox
 * with them off, then `sti; hlt` (or `sti; mwait`), and an IPI sent after the
 * check is held until the sti shadow ends, at the hlt, which it then ends: no
 * wake-up is lost.  An AP that has not woken SMP_WAKE_RETRY_MS after its work
 * was posted gets the IPI again, on both paths (an interrupt ends mwait too);
 * one that never wakes within the run's bound is dropped and marked unwoken.
 * QEMU 7.2's TCG runs mwait as a pause when there is more than one vCPU (its
 * helper_mwait), so under TCG only hlt gives the host its time back.
 *
 * Exceptions: every CPU uses the boot CPU's IDT.  smp_exception_filter, called
 * first for every exception, returns at once on the boot CPU; on an AP it
 * stores the frame (the first AP to fault wins), and halts that AP.  The boot
 * CPU, in any of its waits here, sees the stored frame and calls the
 * on_ap_exception hook, which writes the `exception` record and ends the run:
 * only the boot CPU ever writes the log.  (An AP that took a lock and ended
 * the run itself could cut into a record the boot CPU is writing, and the
 * boot CPU, spinning in a wait, could not be stopped cleanly.)  So rdmsr_safe
 * and the other recovery points of arch/x86/idt.c are the boot CPU's only: on
 * an AP, a #GP from them is an exception like any other.
 *
 * x2APIC: used when the firmware left it on (IA32_APIC_BASE bit 10); QEMU 7.2's
 * TCG has none, so that path has run on no machine here. */
#ifndef ARCH_X86_SMP_H
#define ARCH_X86_SMP_H

#include <stdbool.h>
#include <stdint.h>
#include "arch/x86/idt.h"
#include "probe/team.h"

#define SMP_MAX_CPUS TEAM_MAX_CPUS
#define SMP_LOW_PAGES 8 /* the trampoline page and up to 7 page tables */
#define SMP_LOW_BYTES (SMP_LOW_PAGES * 4096)
#define SMP_AP_STACK_BYTES (16 * 1024)
#define SMP_STACK_AREA_BYTES ((SMP_MAX_CPUS - 1) * SMP_AP_STACK_BYTES)
#define SMP_ARRIVAL_MS 1000 /* TCG on a loaded host can leave a vCPU unscheduled for 100s of ms */
#define SMP_NO_CPU (~0u)

/* A processor the firmware lists (MADT type 0 or 9). */
struct smp_cpu_desc {
	uint32_t apic_id;
	bool enabled; /* flags bit 0; a CPU listed but not enabled is never started */
};

struct smp_config {
	uint64_t low_area, low_area_bytes;   /* boot_info: below 1 MiB, 0 when none */
	uint64_t stack_area, stack_area_bytes;
	double tsc_hz;                       /* calibrated; <= 0: unknown */
	bool off;                            /* smp=off: the boot CPU only */
	uint8_t wanted[SMP_MAX_CPUS / 8];    /* bit e: entry e may be started (cpus=) */
	const char *list_why;                /* why the firmware's list is empty, if it is */
	bool ghost;                          /* test hook ghost_cpu=: one more entry */
	uint32_t ghost_apic_id;              /* that the machine does not have */
	/* Called on the boot CPU for an AP's exception; must not return. */
	void (*on_ap_exception)(unsigned cpu, uint32_t apic_id, const struct exception_frame *f,
				uint64_t cr2);
};

enum smp_state { SMP_BSP, SMP_RUNNING, SMP_NO_RESPONSE, SMP_DISABLED };

/* How an AP with no work waits (arch/x86/smp_team.c): MONITOR/MWAIT on its
 * mailbox where CPUID.1:ECX[3] says the CPU has them, else hlt woken by an
 * IPI; SMP_IDLE_NONE before smp_start. */
enum smp_idle { SMP_IDLE_NONE, SMP_IDLE_MWAIT, SMP_IDLE_HLT };
#define SMP_WAKE_VECTOR 0xf1     /* the wake-up IPI */
#define SMP_SPURIOUS_VECTOR 0xff /* the APs' spurious vector: bits 3:0 all ones, as the P6 needs */
#define SMP_WAKE_RETRY_MS 10     /* an AP not woken this long after its work was posted gets the IPI again */

struct smp_entry {
	uint32_t apic_id;
	enum smp_state state;
	unsigned cpu;            /* team index, or SMP_NO_CPU */
	uint64_t startup_cycles; /* first STARTUP sent -> seen RUNNING, boot CPU's TSC; 0: n/a */
	unsigned sipis;          /* STARTUP IPIs sent */
	bool dropped;            /* a team run timed out on it: left out since */
	bool unwoken;            /* ... and it had not even woken for that run's work */
	const char *why;         /* for "no response" and "disabled": the reason */
};

/* Starts what cfg allows of the n CPUs listed (the boot CPU among them or
 * not: it is entry 0 either way).  Returns team.count.  Once per boot. */
unsigned smp_start(const struct smp_config *cfg, const struct smp_cpu_desc *cpus, unsigned n);

unsigned smp_entries(void);
const struct smp_entry *smp_entry(unsigned e);
const char *smp_problem(void);  /* why no AP was started at all, or NULL */
bool smp_x2apic(void);
uint64_t smp_start_code(void);   /* where the start-up code was put; 0: nowhere */
struct team *smp_team(void);     /* count, run, tsc; valid after smp_start */
enum smp_idle smp_idle_mode(void);
const char *smp_idle_name(enum smp_idle i); /* "mwait", "hlt", or NULL for none */
uint64_t smp_wake_retries(void);
/* Test hook fault=ap-deaf: team CPU cpu stops at its next wake-up without
 * taking the work, so that it never wakes as far as the boot CPU can see. */
void smp_make_deaf(unsigned cpu);

uint32_t smp_apic_id(unsigned cpu); /* of a team index; cpu 0 before smp_start: CPUID's */

void smp_exception_filter(const struct exception_frame *f);

#endif
