/* SPDX-License-Identifier: BSD-2-Clause */
/* The run's two steps with the other CPUs, kept out of the run sequence so
 * they move with it as they are: start them and say what became of each
 * (the run writes the `cpus` record), then prove with one team operation
 * that every started CPU works (the `team_check` record). */
#ifndef PLATFORM_SMP_RUN_H
#define PLATFORM_SMP_RUN_H

#include <stddef.h>
#include "platform/boot_info.h"
#include "arch/x86/smp.h"
#include "acpi/acpi.h"
#include "probe/options.h"
#include "probe/records_cpus.h"

/* The CPUs the MADT lists (acpi/acpi_madt.h), started as the options
 * allow.  on_ap_exception as in struct smp_config.  Every CPU listed, and
 * what became of it, into out (up to out->max). */
void smp_run_start(const struct options *o, const struct boot_info *bi, const struct acpi_info *acpi, double tsc_hz,
		   void (*on_ap_exception)(unsigned, uint32_t, const struct exception_frame *, uint64_t),
		   struct cpus_facts *out);

/* Every started CPU adds one to a shared counter and checks that rdtscp names
 * it, twice; what came of it into out.  Test
 * hooks: fault=ap-gp makes CPU 1 raise #GP here, fault=ap-hang makes it never
 * return from the first run (so that it is dropped from the second),
 * fault=ap-deaf makes it stop at its first wake-up without taking the work
 * (dropped, and listed as unwoken). */
void smp_run_check(const struct options *o, double tsc_hz, struct team_check_facts *out);

/* Leaf 0x1A's core type of a team CPU as it read it at start-up; 0 when not
 * hybrid or not known. */
uint8_t smp_run_core_type(unsigned cpu);

#endif
