/* SPDX-License-Identifier: BSD-2-Clause */
/* The `machine` and `tsc` records of `tickprobe os` (tools/os/machine.h). */
#include <stdio.h>
#include "tools/os/machine.h"
#include "probe/records_run.h"

void os_write_machine(struct log *l, const struct host_machine *m)
{
	struct machine_facts f = {
		.family = m->family,
		.model = m->model,
		.stepping = m->stepping,
		.microcode_known = m->microcode >= 0,
		.microcode = m->microcode >= 0 ? (uint64_t)m->microcode : 0,
		.has_hypervisor = m->hypervisor[0] != 0,
		.invariant_tsc = m->invariant_tsc,
		.rdtscp = m->rdtscp,
		.cores = m->cores > 0 ? (uint64_t)m->cores : 0,
		/* unknown (and under 1 MiB, which no system has) is null */
		.memory_mib = m->memory_mib >= 0 ? (uint64_t)m->memory_mib : 0,
	};

	snprintf(f.vendor, sizeof f.vendor, "%s", m->vendor);
	snprintf(f.brand, sizeof f.brand, "%s", m->brand);
	snprintf(f.hypervisor, sizeof f.hypervisor, "%s", m->hypervisor);
	record_machine(l, &f);
}

void os_write_tsc(struct log *l, const struct os_tsc_cal *c, bool invariant)
{
	struct tsc_facts f = {
		.hz = c->hz,
		.source = "clock_monotonic_raw",
		.error_ppm = c->err_ppm,
		.interval_s = c->interval_s,
		.window_ms = (uint64_t)(c->interval_s * 1e3 + 0.5),
		.invariant = invariant,
	};

	tsc_facts_source(&f, "clock_monotonic_raw", c->hz);
	if (c->cpuid15_hz > 0)
		tsc_facts_source(&f, "cpuid15", c->cpuid15_hz);
	if (c->cpuid16_hz > 0)
		tsc_facts_source(&f, "cpuid16", c->cpuid16_hz);
	if (c->hypervisor_hz > 0)
		tsc_facts_source(&f, "hypervisor", c->hypervisor_hz);
	record_tsc_facts(l, &f);
}
