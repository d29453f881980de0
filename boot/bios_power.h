/* SPDX-License-Identifier: BSD-2-Clause */
/* Reboot and power off on the BIOS path (probe/platform.h, struct
 * platform_after), from the ACPI tables: the FADT's reset register, then
 * port 0xCF9, then the keyboard controller, then a triple fault; ACPI S5
 * through PM1a/PM1b_CNT with SLP_TYP from \_S5 (acpi/acpi_power.h). */
#ifndef BOOT_BIOS_POWER_H
#define BOOT_BIOS_POWER_H

#include "probe/platform.h"

extern const struct platform_after bios_after;

#endif
