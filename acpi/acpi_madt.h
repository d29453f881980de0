/* SPDX-License-Identifier: BSD-2-Clause */
/* The MADT ("APIC" table, ACPI 6.5 section 5.2.12): which processors the
 * firmware says exist, their APIC IDs, the local APIC's address and the
 * I/O APICs.  The walk (acpi/acpi.c) and the table decoders
 * (acpi_decode_table(), `tickprobe acpi`) fill `struct acpi_info`'s `madt`
 * member; nothing in a table is believed past its Length, and every entry is
 * walked by its own length byte with its type's length checked.
 *
 * The CPU list holds the processor entries that can run code now (Enabled)
 * or later (Online Capable), in table order.  Entries with neither bit are
 * counted only: the spec says they must not be used (160 of 654 real
 * firmwares pad with such entries, APIC ID 0xFF).  The list is bounded; an
 * enabled entry that finds it full takes the place of the last online-capable
 * one, so no enabled CPU is lost while an online-capable one is kept. */
#ifndef ACPI_ACPI_MADT_H
#define ACPI_ACPI_MADT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


/* Real firmware lists 1..96 processor entries (654 dumps, median 8 enabled)
 * and 1..5 I/O APICs; the bounds leave room for large servers. */
#define MADT_MAX_CPUS 256
#define MADT_MAX_IOAPICS 16
#define MADT_MAX_UNDEFINED 8 /* distinct undefined entry types kept by number */

/* Entry types (ACPI 6.5 table 5.21) that this parser reads or checks. */
enum madt_type {
	MADT_LOCAL_APIC = 0,
	MADT_IO_APIC = 1,
	MADT_INT_OVERRIDE = 2,
	MADT_NMI_SOURCE = 3,
	MADT_LOCAL_APIC_NMI = 4,
	MADT_LAPIC_OVERRIDE = 5,
	MADT_IO_SAPIC = 6,
	MADT_LOCAL_SAPIC = 7,
	MADT_PLATFORM_INT = 8,
	MADT_LOCAL_X2APIC = 9,
	MADT_LOCAL_X2APIC_NMI = 10,
	MADT_X86_TYPES = 11, /* 11..0x17: GIC and LoongArch (ACPI 6.5), 0x18..0x1B: RISC-V (6.6) */
	MADT_DEFINED_TYPES = 0x1c /* 0x1C..0x7F reserved, 0x80..0xFF OEM: "undefined" here */
};

struct madt_cpu {
	uint32_t apic_id;    /* type 0: the 8-bit APIC ID; type 9: the x2APIC ID */
	uint32_t uid;        /* ACPI Processor UID (8-bit in type 0 entries) */
	bool enabled;        /* flags bit 0 */
	bool online_capable; /* Enabled clear and flags bit 1 set: can be brought up later */
	bool x2apic;         /* from a type 9 entry */
};

struct madt_ioapic {
	uint8_t id;
	uint32_t address;
	uint32_t gsi_base;
};

struct acpi_madt {
	bool present;              /* a MADT is in use (the first valid one) */
	const char *none;          /* when not: why ("no table", "table damaged") */
	unsigned tables;           /* MADTs seen, valid or not (4 of 654 firmwares have 2) */
	bool address_known;        /* false for a table read from a file */
	uint64_t address;
	uint8_t revision;
	uint32_t length;
	char oem[7], oem_table[9];

	uint32_t lapic_address32;  /* offset 36 */
	uint64_t lapic_address;    /* in force: a type 5 entry's, else lapic_address32 */
	bool lapic_override;       /* a type 5 entry gave lapic_address */
	uint32_t flags;            /* offset 40 */
	bool pcat_compat;          /* flags bit 0: dual 8259s to mask */

	unsigned entries;                      /* entries walked */
	unsigned count[MADT_X86_TYPES];        /* entries of each x86 type, good or not */
	unsigned other_defined;                /* of types 11..0x1B (not x86) */
	unsigned undefined;                    /* of types 0x1C..0xFF, all skipped */
	unsigned undefined_kinds;              /* how many of undefined_type[] are set */
	uint8_t undefined_type[MADT_MAX_UNDEFINED];
	unsigned undefined_count[MADT_MAX_UNDEFINED];

	/* Processor entries (types 0 and 9) of the right length. */
	unsigned enabled, online_capable, disabled; /* each entry in exactly one */
	unsigned x2apic_enabled;   /* enabled ones from type 9 entries */
	unsigned duplicates;       /* enabled entries repeating an enabled APIC ID: not listed */
	unsigned broadcast;        /* enabled entries with APIC ID 0xFF / 0xFFFFFFFF: not listed */
	unsigned ncpus;            /* listed in cpus[] */
	unsigned cpus_dropped;     /* usable entries that did not fit */
	struct madt_cpu cpus[MADT_MAX_CPUS];

	unsigned nioapics;         /* listed in ioapics[]; count[MADT_IO_APIC] has them all */
	struct madt_ioapic ioapics[MADT_MAX_IOAPICS];

	unsigned problems;         /* problems found in this MADT (in acpi_info's list) */
	uint32_t fingerprint;      /* CRC-32 of what a second MADT is compared on */
};

/* One human line ending in '\n', like
 *	MADT: 8 CPUs, 1 I/O APIC, local APIC 0xfee00000
 *	MADT: 6 CPUs (6 x2APIC) + 2 online-capable, 1 I/O APIC, local APIC 0xfee00000, first of 2 MADTs
 * or "MADT: none (why)".  Returns the length it would have had, like snprintf. */
int acpi_madt_summary(const struct acpi_madt *d, char *buf, size_t cap);

#endif
