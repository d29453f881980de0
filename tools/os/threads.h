/* SPDX-License-Identifier: BSD-2-Clause */
/* Contention for `tickprobe os --threads N`: what one clock_gettime
 * (CLOCK_MONOTONIC) costs while n threads on n CPUs call it at once, for
 * n = 1, 2, 4, … up to N (and N itself).  A clocksource that is one device
 * (the HPET, the PM timer) serialises its readers; the TSC does not.
 *
 * Each thread is pinned to its own CPU (sched_setaffinity), they start
 * together from a spinning barrier, and each times its calls with the bracket of
 * bench.h into a histogram of its own, then the run as a whole with the
 * TSC.  Per level: the p50 and p99 over all threads' calls, each thread's
 * own p50, p99 and calls/s, and the calls/s of all of them together.  The
 * record (`os_contention`) has the keys of the image's `contention` record:
 * `counter` and `readers` [{`n`, `p50_ns`, `p99_ns`, `reads_per_s`}]. */
#ifndef TOOLS_OS_THREADS_H
#define TOOLS_OS_THREADS_H

#include <stdbool.h>
#include <stdint.h>
#include "probe/log.h"

#define OS_THREADS_MAX 64
#define OS_LEVELS_MAX 8 /* 1, 2, 4 … 64, and N */

/* The CPUs this process may run on, read before it pins itself. */
struct os_cpus {
	int n;
	int cpu[OS_THREADS_MAX];
};
void os_cpus_allowed(struct os_cpus *c);

struct os_reader {
	int cpu;
	uint64_t calls, backwards;
	uint64_t p50_cyc, p99_cyc;
	uint64_t cycles;         /* the thread's whole run, TSC */
};

struct os_level {
	int n;
	uint64_t p50_cyc, p99_cyc; /* over every thread's calls */
	double reads_per_s;        /* the threads' calls/s, summed */
	uint64_t backwards;
	struct os_reader t[OS_THREADS_MAX];
};

struct os_contention {
	bool ok;
	char why[160];
	uint32_t calls;            /* per thread and level */
	int asked;                 /* --threads */
	int nlevels;
	struct os_level lv[OS_LEVELS_MAX];
};

/* Measures up to `threads` readers (fewer when fewer CPUs are allowed: why
 * then says so, and ok stays true). */
void os_contention_measure(struct os_contention *c, const struct os_cpus *cpus, int threads, uint32_t calls,
			   uint64_t subtract, double hz);

void os_write_contention(struct log *l, const char *clocksource, const struct os_contention *c, double hz);

#endif
