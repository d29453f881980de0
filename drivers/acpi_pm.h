/* SPDX-License-Identifier: BSD-2-Clause */
/* The ACPI power-management timer: 3,579,545 Hz, 24 or 32 bits. */
#ifndef DRIVERS_ACPI_PM_H
#define DRIVERS_ACPI_PM_H

#include <stdint.h>
#include <stdbool.h>
#include "probe/counter.h"

#define ACPI_PM_HZ 3579545ull

/* Fills "acpi-fast" and "acpi-safe", in that order, for the timer the FADT
 * gave (address = 0: none).  mmio selects memory space instead of an I/O
 * port; a memory-space timer outside the probe's memory map is absent. */
#define ACPI_PM_COUNTERS 2
void acpi_pm_setup(bool present, bool mmio, uint64_t address, unsigned bits, const char *why_absent,
		   struct counter d[ACPI_PM_COUNTERS], struct counter_state s[ACPI_PM_COUNTERS]);

#endif
