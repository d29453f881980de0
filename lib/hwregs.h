/* SPDX-License-Identifier: BSD-2-Clause */
/* The devices' registers and rates that both sides read: the image's
 * drivers (drivers/), the CPU layer (arch/x86/lapic.c) and tickprobe os's reads
 * from Linux (tools/os/raw.c).
 * One place for each number; the assembly reads take theirs as text
 * (HW_STR). */
#ifndef LIB_HWREGS_H
#define LIB_HWREGS_H

/* A constant as the text of a number, for an asm string. */
#define HW_STR_(x) #x
#define HW_STR(x) HW_STR_(x)

/* ---- the HPET (IA-PC HPET specification 1.0a): the register block ---------- */
#define HPET_REG_CAP 0x00       /* general capabilities and ID; the period in bits 63:32, fs */
#define HPET_REG_CONFIG 0x10    /* general configuration */
#define HPET_CONFIG_ENABLE 0x1u /* ENABLE_CNF: the main counter runs */
#define HPET_REG_COUNTER 0xf0   /* the main counter */
#define HPET_BLOCK_LEN 1024     /* the register block: 1 KiB */

/* ---- the ACPI PM timer (ACPI, PM_TMR) ------------------------------------------ */
#define ACPI_PM_HZ 3579545ull

/* ---- the local APIC (SDM, "Local APIC Register Address Map"): xAPIC offsets --- */
#define LAPIC_REG_ID 0x020
#define LAPIC_REG_VERSION 0x030 /* bits 7:0 version (0x1X: integrated), 23:16 highest LVT entry */
#define LAPIC_REG_TPR 0x080
#define LAPIC_REG_EOI 0x0b0
#define LAPIC_REG_SVR 0x0f0     /* spurious interrupt vector */
#define LAPIC_REG_ESR 0x280
#define LAPIC_REG_ICR_LOW 0x300
#define LAPIC_REG_ICR_HIGH 0x310
#define LAPIC_REG_LVT_TIMER 0x320
#define LAPIC_REG_INITIAL 0x380
#define LAPIC_REG_CURRENT 0x390
#define LAPIC_REG_DIVIDE 0x3e0
/* In x2APIC mode a register is the MSR 0x800 + its offset / 16. */
#define X2APIC_MSR(reg) (0x800u + (reg) / 16)
#define X2APIC_MSR_CURRENT 0x839 /* X2APIC_MSR(LAPIC_REG_CURRENT), as a number for the assembly */
_Static_assert(X2APIC_MSR(LAPIC_REG_CURRENT) == X2APIC_MSR_CURRENT, "the current count's MSR");
#define MSR_TSC_DEADLINE 0x6e0

#endif
