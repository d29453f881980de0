/* SPDX-License-Identifier: BSD-2-Clause */
/* The CPUs that take part in a run, as the platform-free method sees them.
 *
 * The platform (arch/x86/smp.c in the image, POSIX threads in the host unit
 * tests) starts the processors and offers one operation: run a function on a
 * chosen set of them at the same time, the calling CPU included when it is in
 * the set, and wait, within a bound, for every one to return.  Everything the
 * multi-CPU measurements do (TSC synchronisation, per-CPU costs, contention,
 * the latency scan) is built on that one operation, so it runs unchanged on
 * the host against simulated CPUs.
 *
 * CPU index 0 is the boot CPU; indices follow the order of the `cpus` record. */
#ifndef PROBE_TEAM_H
#define PROBE_TEAM_H

#include <stdbool.h>
#include <stdint.h>

#define TEAM_MAX_CPUS 256

typedef void (*team_fn)(unsigned cpu, void *arg);

/* Where a CPU sits, as its own CPUID says (probe/topology.h): the
 * package, the core within it, the thread (SMT) within the core. */
struct team_place {
	uint32_t package, core, thread;
	bool known;
};

struct team {
	unsigned count; /* CPUs able to run work: the boot CPU and every AP that arrived */
	/* Runs fn(cpus[k], arg) on each listed CPU at once and returns when all
	 * have returned or timeout_cycles TSC cycles have passed.  Returns the
	 * number that returned; a CPU that did not is left out of later runs by
	 * the platform and named in the log by the caller. */
	unsigned (*run)(void *plat, const unsigned *cpus, unsigned n, team_fn fn, void *arg,
			uint64_t timeout_cycles);
	uint64_t (*tsc)(unsigned cpu); /* an ordered TSC read on the calling CPU */
	void *plat;
	const struct team_place *place; /* place[cpu] for cpu < count; NULL: none known */
};

#endif
