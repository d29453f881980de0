/* SPDX-License-Identifier: BSD-2-Clause */
/* Raw hardware counters read from user space: the TSC (rdtsc, rdtscp) always;
 * with root and --raw-io the ACPI PM timer (an I/O port, through ioperm) and
 * the HPET main counter (mmap of /dev/hpet, else /dev/mem at the HPET base).
 * Only reads: a halted HPET is reported, never started.  Each gives a
 * `timer` record; whatever is refused gives one with healthy false and a
 * reason. */
#ifndef TOOLS_OS_RAW_H
#define TOOLS_OS_RAW_H

#include <stdbool.h>
#include <stdint.h>
#include "probe/log.h"
#include "tools/os/machine.h"

struct os_raw_line {
	char name[16];
	bool healthy;
	double p50_ns, mean_ns;
	char reason[200];
};

struct os_raw_opts {
	const char *root;   /* sysfs root for /sys/firmware/acpi/tables */
	bool raw_io;        /* --raw-io given */
	int rounds;
	uint32_t samples_per_round, tp_reads;
	uint64_t subtract;
	double hz;
	int freq_ms;        /* how long to compare a counter with the TSC */
};

/* Writes the records; fills lines[] (up to 4) for the stderr summary and
 * returns how many.  *unhealthy is incremented for every skipped counter. */
int os_raw_run(struct log *l, const struct os_machine *m, const struct os_raw_opts *o,
	       struct os_raw_line *lines, int *unhealthy);

#endif
