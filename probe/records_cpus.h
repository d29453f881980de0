/* SPDX-License-Identifier: BSD-2-Clause */
/* The records of the start of the other CPUs (docs/log-format.md): cpus and
 * team_check, written by the run from what the platform found (probe/
 * platform.h's start_cpus and check_cpus fill these facts in), and their
 * lines on the screen. */
#ifndef PROBE_RECORDS_CPUS_H
#define PROBE_RECORDS_CPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "probe/log.h"
#include "probe/team.h"

/* One processor the firmware lists, the boot CPU first, then the MADT's order. */
struct cpu_fact {
	uint32_t apic_id;
	bool has_cpu; /* it runs work, as team index cpu */
	unsigned cpu;
	bool topo_known; /* it ran and read its own topology */
	unsigned package, core, thread;
	char core_type[16]; /* "P-core", "E-core", …; "" until known */
	const char *state;  /* "bsp", "running", "no response", "disabled" */
	bool running;       /* an AP that arrived: startup_cycles holds */
	bool no_response;
	uint64_t startup_cycles; /* its first STARTUP IPI to running, in TSC cycles */
	unsigned sipis;
	const char *why; /* why it does not run; NULL for bsp and running */
};

struct cpus_facts {
	struct cpu_fact *cpu; /* room for max, from the run's allocator */
	unsigned max, count;
	unsigned started; /* CPUs able to run work */
	bool x2apic;
	const char *problem; /* why no AP was started at all, or NULL */
	uint64_t start_code; /* the STARTUP IPIs' page; 0: none */
};

/* The cpus record, and its line for the screen (the start-up times need the
 * TSC's rate: 0 when unknown). */
void record_cpus(struct log *l, const struct cpus_facts *f, double tsc_hz);
void cpus_line(const struct cpus_facts *f, double tsc_hz, char *line, size_t cap);

/* One team operation on every started CPU, twice (platform/smp_run.h). */
struct team_check_facts {
	unsigned cpus; /* CPUs asked */
	unsigned returned, again_returned;
	uint32_t count, again_count;
	bool rdtscp;
	uint32_t tsc_aux_match;
	unsigned n_dropped, n_unwoken;
	unsigned dropped[TEAM_MAX_CPUS], unwoken[TEAM_MAX_CPUS]; /* team indices */
	const char *idle;                                        /* "mwait" or "hlt" */
	uint64_t wake_retries;
	bool fault_without_cpus; /* fault=ap-… asked, and no other CPU ran to raise it */
};

void record_team_check(struct log *l, const struct team_check_facts *f);
void team_check_line(const struct team_check_facts *f, char *line, size_t cap);

#endif
