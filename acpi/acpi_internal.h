/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared between the ACPI walk (acpi/acpi.c) and the table decoders
 * (acpi/acpi_tables.c); not for use outside acpi/. */
#ifndef ACPI_ACPI_INTERNAL_H
#define ACPI_ACPI_INTERNAL_H

#include "acpi/acpi.h"

/* All four signature bytes are printable ASCII (0x21..0x7e). */
bool acpi_printable_sig(const uint8_t *s);

/* An OEM id field of n bytes as a C string in dst (n + 1 bytes): unprintable
 * bytes become '?', and the space or NUL padding is dropped. */
void acpi_copy_id(char *dst, const uint8_t *src, size_t n);

/* A table refused by acpi_check_table() (or unreadable): counted in
 * bad_tables, reported as "<where>: <why>, ignored", and an HPET, FADT or
 * MADT among them noted in hpet_none / pm_none / madt.none.  hdr holds `avail` bytes of it. */
void acpi_rejected(const uint8_t *hdr, size_t avail, const char *where, const char *why,
		   struct acpi_info *out);

/* A MADT whose header and checksum are good, its `length` bytes readable
 * through m from base (acpi/acpi_madt.c).  `present` is how many bytes
 * were given (a file's size; more than length is noted).  Returns ACPI_USED
 * or ACPI_BAD. */
int acpi_madt_checked(const struct acpi_mem *m, uint64_t base, uint32_t length, size_t present,
		      const char *where, bool addr_known, uint64_t addr, struct acpi_info *out);
/* The same for a MADT of `present` bytes in a buffer. */
int acpi_madt_buffer(const uint8_t *t, size_t present, const char *where, bool addr_known,
		     uint64_t addr, struct acpi_info *out);

/* A table whose header and checksum are good and of which `len` bytes are at
 * t: FACP, HPET and APIC are decoded, others give ACPI_OTHER.  addr is where it
 * lies in memory when addr_known (false for a table read from a file). */
int acpi_decode_checked(const uint8_t *t, size_t len, const char *where, bool addr_known,
			uint64_t addr, struct acpi_info *out);

#endif
