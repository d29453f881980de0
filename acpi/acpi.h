/* SPDX-License-Identifier: BSD-2-Clause */
/* ACPI discovery: where the PM timer and the HPET are, read from the firmware's
 * tables.  Plain C with no platform calls: the probe runs it over identity-mapped
 * physical memory, the tests over a fake memory, and `tickprobe acpi` over table
 * files dumped by Linux.  Nothing is allocated; nothing is trusted.
 *
 * Usage on hardware:
 *	struct acpi_info info;
 *	acpi_info_init(&info);
 *	uint64_t rsdp = acpi_find_rsdp_bios(&mem, &info);   (or the EFI table's RSDP)
 *	acpi_walk(&mem, rsdp, &info);
 * Every step appends to `info` (its problems in particular), so the steps can be
 * chained; only acpi_info_init() clears it. */
#ifndef ACPI_ACPI_H
#define ACPI_ACPI_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "acpi/acpi_madt.h"
#include "acpi/acpi_power.h"


/* Physical memory, as the walk sees it. */
struct acpi_mem {
	/* Copy len bytes of physical memory at addr into buf; 0 on success, -1 if not readable. */
	int (*read)(void *ctx, uint64_t addr, void *buf, size_t len);
	void *ctx;
};

/* Bounds.  Real FADTs are 116..276 bytes, HPET tables 56 and MADTs 90..1822;
 * the largest table in 654 real dumps is a 60 KiB VFCT.  Anything past these limits is damage. */
#define ACPI_HEADER_LEN 36
#define ACPI_TABLE_MAX (1u << 20)  /* 1 MiB: any table longer is refused */
#define ACPI_ROOT_MAX_ENTRIES 512  /* real root tables list 10..40 */
#define ACPI_RSDP_MAX_LEN 256      /* the RSDP is 36 bytes since ACPI 2.0 */
#define ACPI_SCRATCH 4096          /* bytes of a table kept for decoding */

#define ACPI_MAX_PROBLEMS 16
#define ACPI_PROBLEM_LEN 96

enum acpi_space { ACPI_SPACE_NONE = 0, ACPI_SPACE_IO, ACPI_SPACE_MMIO };
enum acpi_root { ACPI_ROOT_NONE = 0, ACPI_ROOT_XSDT, ACPI_ROOT_RSDT };

/* Return values of the decoders. */
#define ACPI_USED 0     /* decoded (its findings are in the info) */
#define ACPI_BAD (-1)   /* damaged: rejected, a problem was recorded */
#define ACPI_OTHER 1    /* a valid table of some other kind: not looked at */

struct acpi_info {
	/* RSDP: where the walk started. */
	bool have_rsdp;
	uint64_t rsdp_address;
	uint8_t rsdp_revision;
	char rsdp_oem[7];

	enum acpi_root root; /* which table list was walked */
	uint64_t root_address;

	/* The FADT in use (the first valid one). */
	bool have_fadt;
	bool fadt_address_known; /* false for a table read from a file */
	uint64_t fadt_address;
	uint8_t fadt_revision;
	uint32_t fadt_length;
	uint32_t fadt_flags;
	bool hw_reduced;
	char fadt_oem[7], fadt_oem_table[9];

	/* Reset and sleep registers (acpi/acpi_power.h). */
	struct acpi_power power;

	/* The PM timer: space is ACPI_SPACE_NONE when there is none to use. */
	enum acpi_space pm_space;
	uint64_t pm_address;
	unsigned pm_bits; /* 24 or 32, from TMR_VAL_EXT */
	const char *pm_none; /* why there is none (a short phrase) */

	/* The HPET (the first valid table). */
	bool have_hpet;
	uint64_t hpet_address;
	uint32_t hpet_block_id;
	uint16_t hpet_vendor; /* PCI vendor id: bits 31..16 of the block id */
	unsigned hpet_tables; /* HPET tables seen, valid or not */
	const char *hpet_none;

	/* The MADT (the first valid one): CPUs, local APIC, I/O APICs. */
	struct acpi_madt madt;

	/* Tables refused as damaged (bad checksum, length, signature). */
	unsigned bad_tables;

	/* Problems and findings, in the order found; those past the limit are counted. */
	unsigned nproblems, problems_dropped;
	char problems[ACPI_MAX_PROBLEMS][ACPI_PROBLEM_LEN];
};

void acpi_info_init(struct acpi_info *info);

/* Append a problem (printf-style, cut to ACPI_PROBLEM_LEN - 1 characters). */
void acpi_problem(struct acpi_info *info, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Check one table in a buffer of `avail` bytes: the header fits, the signature
 * is `sig` (any four printable characters when sig is NULL), 36 <= Length <=
 * ACPI_TABLE_MAX, Length <= avail, and the bytes sum to 0 mod 256.
 * Returns NULL when good, else a short reason such as "bad checksum". */
const char *acpi_check_table(const uint8_t *t, size_t avail, const char *sig);

/* Decoders for one raw table (a file, or a copy) of `len` bytes.  Each checks
 * the table first (a damaged one is counted in bad_tables, reported and not
 * used) and fills the info; a second FADT is reported and ignored, every HPET
 * table and MADT is counted and the first valid one used (a second MADT is
 * reported when it lists other CPUs).  A MADT file longer than its Length is
 * noted.  Problems name the table "FADT" / "HPET table" / "MADT";
 * acpi_decode_table() takes the name as `where` ("hpet.dat"; NULL gives the
 * default).  Returns ACPI_USED, ACPI_BAD or ACPI_OTHER. */
int acpi_decode_fadt(const uint8_t *t, size_t len, struct acpi_info *out);
int acpi_decode_hpet(const uint8_t *t, size_t len, struct acpi_info *out);
int acpi_decode_madt(const uint8_t *t, size_t len, struct acpi_info *out);
/* By signature: FACP, HPET or APIC are decoded, another valid table gives ACPI_OTHER. */
int acpi_decode_table(const uint8_t *t, size_t len, const char *where, struct acpi_info *out);

/* The legacy BIOS search: the first KiB of the EBDA (segment at 0x40E), then
 * 0xE0000-0xFFFFF, on 16-byte boundaries.  A candidate needs "RSD PTR ", a good
 * 20-byte checksum and, for revision >= 2, a good extended checksum over its
 * Length (36..ACPI_RSDP_MAX_LEN).  Returns the RSDP's address, or 0 if none.
 * One whose only fault is the extended checksum is returned when no better one
 * exists, with a problem; acpi_walk() then trusts only its RSDT. */
uint64_t acpi_find_rsdp_bios(const struct acpi_mem *m, struct acpi_info *info);

/* From the RSDP: the XSDT when revision >= 2 and its address is non-zero, else
 * the RSDT (also when the XSDT is damaged, with a problem); then every FACP,
 * HPET and APIC (MADT) it lists, each checked and decoded.  Other tables are
 * not read past their header.  Returns 0 when a table list was walked, -1 when none could be. */
int acpi_walk(const struct acpi_mem *m, uint64_t rsdp_addr, struct acpi_info *out);

/* Human lines, each ending in '\n', for the screen and `tickprobe acpi`:
 *	PM timer: io 0x608, 24-bit
 *	HPET: 0xfed00000, block id 0x8086a201 (vendor 8086)
 *	MADT: 8 CPUs, 1 I/O APIC, local APIC 0xfee00000
 * (or "...: none (why)").  Problems are not included.  Returns the length the
 * whole text would have had, like snprintf. */
int acpi_summary(const struct acpi_info *info, char *buf, size_t cap);

#endif
