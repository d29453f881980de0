/* SPDX-License-Identifier: BSD-2-Clause */
/* Per-CPU costs: the read cost of each counter that belongs to a CPU (the
 * TSC, RDTSCP and RDPID; the local APIC's current count and TSC-deadline
 * writes, each CPU's own APIC) on every running CPU, one CPU at a time,
 * through probe/measure.c's measure_counter with the caller's descriptors
 * and clock (the brackets run on whichever CPU calls them, so the clock
 * serves every CPU); and running any work on one chosen CPU, so the run
 * sequence can put the full counter table on one CPU of each core type. */
#ifndef PROBE_PERCPU_H
#define PROBE_PERCPU_H

#include <stdbool.h>
#include <stdint.h>
#include "probe/counter.h"
#include "probe/hist.h"
#include "probe/measure.h"
#include "probe/smp_env.h"

#define PERCPU_COUNTERS 6 /* tsc, rdtscp, rdpid, lapic, lapic-x2, tsc-deadline */

struct percpu_counter {
	const struct counter *c;
	/* Run on the measuring CPU around its reads (the APIC timer's mode is
	 * each CPU's own: counter_desc.prepare and its driver's settle);
	 * NULL for none. */
	void (*prepare)(void *ctx), (*settle)(void *ctx);
};

struct percpu_config {
	struct percpu_counter counter[PERCPU_COUNTERS]; /* the first n; counter[0] the TSC */
	unsigned n;
	void *ctx;                          /* for prepare and settle */
	const struct probe_clock *pc;
	uint64_t subtract;                  /* harness overhead, as for the timer records */
	uint32_t samples, rounds;           /* per counter per CPU */
	struct hist *cost, *round;          /* lent: one CPU uses them at a time */
	uint64_t timeout_cycles;            /* bound on one CPU's measurement */
};

struct percpu_cost {
	bool measured;     /* the CPU ran it and returned */
	uint64_t p50, min; /* cycles, overhead subtracted */
};

struct percpu_result {
	unsigned n_cpus;  /* CPUs 0 .. n_cpus-1 are reported; gone ones unmeasured */
	uint32_t samples;
	unsigned n;       /* counters, in the config's order */
	const struct counter *counter[PERCPU_COUNTERS];
	struct percpu_cost cost[PERCPU_COUNTERS][TEAM_MAX_CPUS];
	/* the run in progress */
	const struct percpu_config *cfg;
	const struct percpu_counter *now;
	struct percpu_cost *out;
	struct measure_result m; /* here, not on a CPU's stack: 2.5 KB */
	bool returned;
};

/* A bound for one CPU's measurement of one counter: every read at 50 us
 * (ten times a PIT read, the slowest there is), twice over, plus 100 ms. */
uint64_t percpu_timeout(const struct smp_env *e, uint32_t samples);

void percpu_measure(struct smp_env *e, const struct percpu_config *cfg, struct percpu_result *r);

/* Runs fn(cpu, arg) on CPU cpu alone (the calling CPU itself when cpu is
 * 0) and waits at most timeout_cycles: true when it returned.  A CPU that
 * does not return is marked gone. */
bool percpu_run_on(struct smp_env *e, unsigned cpu, team_fn fn, void *arg, uint64_t timeout_cycles);

/* One CPU of each core type: out[k] is the first CPU (lowest index) of the
 * k-th distinct value in core_type[0 .. n), in order of first appearance.
 * Returns how many; 1 means the core types do not differ. */
unsigned percpu_pick_core_types(const uint8_t *core_type, unsigned n, unsigned *out, unsigned cap);

#endif
