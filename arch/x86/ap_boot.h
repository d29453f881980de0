/* SPDX-License-Identifier: BSD-2-Clause */
/* What the start-up code of the other CPUs (arch/x86/ap_trampoline.S) and the
 * boot CPU's C side (arch/x86/smp.c) agree on: the layout of the trampoline's
 * data block, the hand-over block in the image, and the states of an entry.
 * Shared with the assembler, so only #defines outside the C part. */
#ifndef ARCH_X86_AP_BOOT_H
#define ARCH_X86_AP_BOOT_H

#define AP_MAX_CPUS 256

/* The trampoline's data block (in the low page, filled by the boot CPU before
 * any STARTUP IPI and read-only afterwards, so any number of APs may run the
 * trampoline at once). */
#define TRD_GDT 0        /* 4 descriptors: null, 0x08 code32, 0x10 data, 0x18 code64 */
#define TRD_GDTR 32      /* lgdt operand: u16 limit, u32 linear base */
#define TRD_JMP32 40     /* far pointer m16:32 to the 32-bit part */
#define TRD_JMP64 48     /* far pointer m16:32 to the 64-bit part */
#define TRD_CR3 56       /* u32: the temporary page tables' root */
#define TRD_CR4 60       /* u32 */
#define TRD_CR0 64       /* u32 */
#define TRD_EFER 68      /* u32: bits set in EFER (LME, and NXE as on the boot CPU) */
#define TRD_REAL_CR3 72  /* u64: the boot CPU's CR3 */
#define TRD_ENTRY 80     /* u64: ap_entry64 */
#define TRD_HANDOVER 88  /* u64: the hand-over block */
#define TRD_SIZE 96

#define TR_SEL_CODE32 0x08
#define TR_SEL_DATA 0x10
#define TR_SEL_CODE64 0x18

/* The hand-over block, in the image's own memory (struct ap_handover in
 * smp.c); ap_entry64 reads it on the boot CPU's page tables. */
#define HO_GDTR 6        /* lgdt operand: u16 limit at 6, u64 base at 8 */
#define HO_IDTR 22       /* lidt operand: u16 limit at 22, u64 base at 24 */
#define HO_CS 32         /* u16 selectors of the boot CPU */
#define HO_DS 34
#define HO_SS 36
#define HO_APIC_BASE 40  /* u64: xAPIC register page */
#define HO_STACKS 48     /* u64: entry e's stack top is STACKS + e * STACK_BYTES */
#define HO_STACK_BYTES 56
#define HO_COUNT 64      /* u32: entries in the two tables below */
#define HO_APIC_IDS 128  /* u32[AP_MAX_CPUS] */
#define HO_STATE (HO_APIC_IDS + 4 * AP_MAX_CPUS) /* u32[AP_MAX_CPUS] */
#define HO_SIZE (HO_STATE + 4 * AP_MAX_CPUS)

/* An entry's state (HO_STATE).  Every change an AP makes is one
 * compare-and-swap from the state it expects, and so is the boot CPU's
 * giving up, so exactly one side wins. */
#define AP_IDLE 0      /* not being started (the boot CPU, a disabled CPU) */
#define AP_STARTING 1  /* IPIs sent: the CPU with this APIC ID may claim the entry */
#define AP_ARRIVED 2   /* claimed in ap_entry64: its stack is in use */
#define AP_RUNNING 3   /* in its mailbox loop */
#define AP_ABANDONED 4 /* the boot CPU gave up: a late arrival halts where it is */

#endif
