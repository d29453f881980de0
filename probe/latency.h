/* SPDX-License-Identifier: BSD-2-Clause */
/* The latency scan, as BITS' smilatency does it, on every CPU at once
 * (option latency=SECONDS): each CPU spins reading the TSC and sorts the
 * gap between successive reads into decades: <= 1 us, <= 10 us, <= 100 us,
 * <= 1 ms, <= 10 ms, <= 100 ms, > 100 ms.  A gap far above the loop's own
 * cost is time the CPU did not have: an SMI, or on a virtual machine the
 * host.  SMIs stop every CPU, so gaps at the same time on all CPUs point at
 * one; MSR_SMI_COUNT, where the CPU has it, says how many there were.
 *
 * The verdict is BITS': a CPU passes when its largest gap is at most
 * 150 us. */
#ifndef PROBE_LATENCY_H
#define PROBE_LATENCY_H

#include <stdbool.h>
#include <stdint.h>
#include "probe/smp_env.h"

#define LATENCY_BINS 7
#define LATENCY_LIMIT_NS 150000u

struct latency_cpu {
	bool done;            /* scanned to the end */
	bool returned;
	uint64_t bins[LATENCY_BINS];
	uint64_t gaps;        /* all of the bins */
	uint64_t backwards;   /* reads below the one before: not binned */
	uint64_t max_gap;     /* cycles */
	uint64_t max_gap_at;  /* cycles from the scan's start to the read before the gap */
	uint64_t start_tsc;   /* the scan's first read on this CPU */
	uint64_t cycles;      /* the scan's length on this CPU */
	bool smi_valid;
	uint64_t smi_before, smi_after;
} __attribute__((aligned(64)));

struct latency_result {
	const char *refused;  /* why nothing was scanned, or NULL */
	double seconds, tsc_hz;
	unsigned n_cpus;      /* CPUs 0 .. n_cpus-1 are reported; gone ones not scanned */
	uint64_t edge[LATENCY_BINS - 1]; /* cycles: the upper end of every bin but the last */
	uint64_t limit_cycles;           /* LATENCY_LIMIT_NS in cycles */
	struct latency_cpu cpu[TEAM_MAX_CPUS];
	/* the run in progress */
	uint32_t arrive __attribute__((aligned(64)));
	uint32_t expected;
	uint64_t duration, wait_cycles;
	const struct smp_env *env;
};

/* Scans every running CPU for `seconds`.  Needs the TSC frequency (the bins
 * are times).  wait_cycles bounds the start barrier.  Safe with one CPU. */
void latency_scan(struct smp_env *e, double seconds, uint64_t wait_cycles, struct latency_result *r);

/* The bin of a gap of `cycles`. */
unsigned latency_bin(const struct latency_result *r, uint64_t cycles);

/* "pass", "fail", or NULL when the CPU was not scanned. */
const char *latency_verdict(const struct latency_result *r, unsigned cpu);

#endif
