/* SPDX-License-Identifier: BSD-2-Clause */
/* What the FADT and the DSDT say about resetting and powering off the
 * machine, for after=reboot and after=poweroff on the BIOS path (UEFI has
 * ResetSystem).  Platform-free like the rest of the ACPI code: the FADT
 * fields come from the table the walk decodes, the DSDT is read through
 * struct acpi_mem, and the port writes are the caller's (boot/bios_power.c).
 *
 * Power off is ACPI S5: SLP_TYPa << 10 | SLP_EN (bit 13) written to
 * PM1a_CNT (and SLP_TYPb to PM1b_CNT when there is one), SLP_TYP being the
 * first two values of the \_S5 package in the DSDT.  The package is found by
 * a bounded byte scan of the DSDT, as boot loaders and small kernels do it:
 * no AML is interpreted, every length is checked against the table's. */
#ifndef ACPI_ACPI_POWER_H
#define ACPI_ACPI_POWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct acpi_mem;

/* Generic Address Structure address spaces the reset register may use. */
#define ACPI_GAS_MEMORY 0
#define ACPI_GAS_IO 1
#define ACPI_GAS_PCI 2

/* From the FADT (acpi_power_fadt). */
struct acpi_power {
	bool have_fadt;
	/* The reset register: FADT revision >= 2, Length >= 129 and flag
	 * RESET_REG_SUP (bit 10); else reset_none says why there is none. */
	bool reset_reg;
	uint8_t reset_space; /* ACPI_GAS_* */
	uint8_t reset_width; /* bits, as the GAS says (0: byte) */
	uint64_t reset_address;
	uint8_t reset_value;
	const char *reset_none;
	/* PM1a_CNT / PM1b_CNT as I/O ports (0: none), X_ fields first. */
	uint16_t pm1a_cnt, pm1b_cnt;
	const char *pm1_none; /* why there is no PM1a_CNT to write, or NULL */
	/* SMI_CMD and ACPI_ENABLE: written when SCI_EN is clear (legacy mode). */
	uint16_t smi_cmd;
	uint8_t acpi_enable;
	uint64_t dsdt; /* X_DSDT when present and non-zero, else DSDT; 0: none */
	bool hw_reduced;
};

/* The first two values of \_S5. */
struct acpi_s5 {
	bool found;
	uint8_t slp_typ_a, slp_typ_b; /* 0..7 */
	uint32_t offset;              /* of the "_S5_" name in the table */
	const char *none;             /* why not found: a short phrase */
};

/* Fills pw from a checked FADT of which len bytes are at t (at least the
 * revision-1 116 bytes). */
void acpi_power_fadt(const uint8_t *t, size_t len, struct acpi_power *pw);

/* Scans len bytes of AML (a whole DSDT, header included, or a piece of one:
 * the name must lie at least 16 bytes before the end to count) for
 * NameOp "_S5_" PackageOp.  True, with s5 filled, when one decodes. */
bool acpi_s5_scan(const uint8_t *aml, size_t len, struct acpi_s5 *s5);

/* The DSDT at pw->dsdt through m: its header checked (signature, Length
 * 36..ACPI_TABLE_MAX, checksum), then scanned in pieces.  False, with
 * s5->none saying why, when there is no usable \_S5. */
bool acpi_s5_find(const struct acpi_mem *m, const struct acpi_power *pw, struct acpi_s5 *s5);

/* The PM1_CNT values to write: (current & ~SLP_TYP) | SLP_TYP << 10 | SLP_EN. */
uint16_t acpi_s5_pm1_value(uint16_t current, uint8_t slp_typ);

#define ACPI_PM1_SCI_EN 0x0001u
#define ACPI_PM1_SLP_EN 0x2000u
#define ACPI_PM1_SLP_TYP_MASK 0x1c00u

#endif
