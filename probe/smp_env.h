/* SPDX-License-Identifier: BSD-2-Clause */
/* What the multi-CPU measurements (tsc_sync, percpu, contention, latency)
 * get from the platform besides struct team: the TSC frequency, MSR reads on
 * the calling CPU, the test hook tsc_skew=CPU:CYCLES, and the CPUs found gone.
 *
 * Every TSC read these measurements make goes through smp_tsc(), so the hook
 * skews every read on its CPU.  It exists because QEMU's TCG ignores writes
 * to IA32_TSC: a test that wants one CPU's TSC off by a known amount gets it
 * here, in software, and sees the measurements find it. */
#ifndef PROBE_SMP_ENV_H
#define PROBE_SMP_ENV_H

#include <stdbool.h>
#include <stdint.h>
#include "probe/team.h"

struct smp_env {
	const struct team *team;
	double tsc_hz; /* the calibrated TSC frequency; 0 when unknown */
	/* rdmsr on the calling CPU: false when the read faults.  NULL: no MSRs. */
	bool (*rdmsr)(uint32_t msr, uint64_t *value);
	/* CPUID.(EAX=7,ECX=0):EBX bit 1 on the calling CPU: IA32_TSC_ADJUST
	 * exists.  NULL: treated as absent everywhere. */
	bool (*has_tsc_adjust)(void);
	/* MSR_SMI_COUNT (0x34) on the calling CPU; NULL where there is none. */
	bool (*smi_count)(uint64_t *count);
	/* tsc_skew=CPU:CYCLES: skew_cycles added to every TSC read on skew_cpu. */
	bool skew_set;
	unsigned skew_cpu;
	int64_t skew_cycles;
	/* CPUs that did not return from a run: every later measurement leaves
	 * them out (the platform does too, see probe/team.h). */
	bool gone[TEAM_MAX_CPUS];
	unsigned n_gone;
};

static inline void smp_relax(void) { __builtin_ia32_pause(); }

static inline uint64_t smp_tsc(const struct smp_env *e, unsigned cpu)
{
	uint64_t t = e->team->tsc(cpu);
	if (e->skew_set && cpu == e->skew_cpu)
		t += (uint64_t)e->skew_cycles;
	return t;
}

/* Signed distance from a to b on one CPU's TSC: wraps are no surprise. */
static inline int64_t smp_diff(uint64_t a, uint64_t b) { return (int64_t)(b - a); }

/* TSC cycles in `seconds`.  With the frequency unknown, at 5 GHz: no TSC
 * runs faster, so a bound or a test duration is never shorter than stated. */
static inline uint64_t smp_cycles(const struct smp_env *e, double seconds)
{
	double hz = e->tsc_hz > 0 ? e->tsc_hz : 5e9;
	return (uint64_t)(seconds * hz);
}

static inline void smp_mark_gone(struct smp_env *e, unsigned cpu)
{
	if (cpu < TEAM_MAX_CPUS && !e->gone[cpu]) {
		e->gone[cpu] = true;
		e->n_gone++;
	}
}

/* The CPUs to use: 0 .. team->count-1 but the gone ones, at most cap. */
static inline unsigned smp_cpus(const struct smp_env *e, unsigned *out, unsigned cap)
{
	unsigned n = 0;
	for (unsigned c = 0; c < e->team->count && c < TEAM_MAX_CPUS && n < cap; c++)
		if (!e->gone[c])
			out[n++] = c;
	return n;
}

/* A wait for another CPU, bounded twice: by TSC cycles, and by spins should
 * the TSC not run.  A spin is a pause, 10 to 140 cycles on every x86 core
 * since the Pentium 4, so `cycles` spins always outlast `cycles` cycles and
 * the TSC bound is the one that ends a wait on a running TSC.  The TSC is
 * read every 64 spins to keep the loop off the TSC's own cost. */
struct smp_wait {
	const struct smp_env *e;
	unsigned cpu;
	uint64_t start, cycles, spins;
};

static inline void smp_wait_begin(struct smp_wait *w, const struct smp_env *e, unsigned cpu, uint64_t cycles)
{
	w->e = e;
	w->cpu = cpu;
	w->cycles = cycles;
	w->spins = 0;
	w->start = smp_tsc(e, cpu);
}

/* One spin: false once the bound has passed. */
static inline bool smp_wait_more(struct smp_wait *w)
{
	smp_relax();
	if (++w->spins % 64)
		return true;
	return w->spins < w->cycles && (uint64_t)smp_diff(w->start, smp_tsc(w->e, w->cpu)) < w->cycles;
}

/* Waits until *word >= target: false when the bound passed first. */
static inline bool smp_wait_at_least(const struct smp_env *e, unsigned cpu, const uint32_t *word,
				     uint32_t target, uint64_t cycles)
{
	struct smp_wait w;
	if (__atomic_load_n(word, __ATOMIC_ACQUIRE) >= target)
		return true;
	smp_wait_begin(&w, e, cpu, cycles);
	while (__atomic_load_n(word, __ATOMIC_ACQUIRE) < target)
		if (!smp_wait_more(&w))
			return false;
	return true;
}

#endif
