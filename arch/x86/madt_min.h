/* SPDX-License-Identifier: BSD-2-Clause */
/* The processors the MADT lists, read with the least checking that is safe:
 * a stand-in until drivers/ offers the ACPI parser's own list. */
#ifndef ARCH_X86_MADT_MIN_H
#define ARCH_X86_MADT_MIN_H

#include "arch/x86/smp.h"
#include "drivers/acpi.h"

/* From the first MADT ("APIC") with a good checksum in the table list the
 * walk used: every type 0 (local APIC) and type 9 (local x2APIC) entry, in
 * table order, up to max.  Returns how many; 0 with *why set when there is
 * no usable MADT. */
unsigned madt_min_cpus(const struct acpi_mem *m, const struct acpi_info *acpi, struct smp_cpu_desc *out,
		       unsigned max, const char **why);

#endif
