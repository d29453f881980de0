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
#include "acpi/acpi.h"
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

/* The devices themselves, for `tickprobe os --watch` too (root only).
 * The FADT and HPET tables Linux exposes under ROOT/sys/firmware/acpi/tables
 * into ai: NULL, or why not. */
const char *os_raw_acpi(const char *root, struct acpi_info *ai, char *why, size_t cap);
/* The PM timer's port opened with ioperm and seen ticking: its port and
 * mask (24 or 32 bits), or false with why. */
bool os_raw_pm_open(const struct acpi_info *ai, double tsc_hz, uint16_t *port, uint32_t *mask, char *why,
		    size_t cap);
void os_raw_pm_close(uint16_t port);
/* The HPET's page mapped (/dev/hpet, else /dev/mem) and seen enabled. */
struct os_raw_hpet {
	void *map;
	size_t maplen;
	volatile const uint32_t *counter;
	double nominal_hz;
	char method[160];
};
bool os_raw_hpet_open(const struct acpi_info *ai, struct os_raw_hpet *h, char *why, size_t cap);
void os_raw_hpet_close(struct os_raw_hpet *h);

/* Writes the records; fills lines[] (up to 4) for the stderr summary and
 * returns how many.  *unhealthy is incremented for every skipped counter. */
int os_raw_run(struct log *l, const struct host_machine *m, const struct os_raw_opts *o, struct os_raw_line *lines,
	       int *unhealthy);

#endif
