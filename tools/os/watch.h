/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe os --watch DURATION`: every clock a running Linux offers
 * weighed against the others, as the image's watch=DURATION does
 * (probe/watch.h), into the same records. */
#ifndef TOOLS_OS_WATCH_H
#define TOOLS_OS_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "probe/log.h"
#include "tools/os/threads.h"

struct os_watch_opts {
	uint32_t seconds;
	bool raw_io;                /* the PM timer and the HPET too (root) */
	const char *root;           /* the sysfs root, for the ACPI tables */
	double tsc_hz, tsc_err_ppm; /* the TSC's calibration against CLOCK_MONOTONIC_RAW */
	const struct os_cpus *cpus; /* the CPUs whose offsets are followed */
	int self_cpu;               /* the one this thread is pinned to */
	const char *fake;           /* --watch-fake NAME:PPM[,…] (tests), or NULL */
	bool quiet;                 /* no segment lines */
};

/* Writes watch_begin, a watch_segment per segment and watch; 0, or -1 with
 * why (out of memory, a bad --watch-fake). */
int os_watch_run(struct log *l, const struct os_watch_opts *o, char *why, size_t cap);

#endif
