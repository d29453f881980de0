/* SPDX-License-Identifier: BSD-2-Clause */
/* The latency scan (probe/latency.h). */
#include "probe/latency.h"
#include "lib/util.h"

unsigned latency_bin(const struct latency_result *r, uint64_t cycles)
{
	unsigned b = 0;
	while (b < LATENCY_BINS - 1 && cycles > r->edge[b])
		b++;
	return b;
}

static void scan_fn(unsigned cpu, void *arg)
{
	struct latency_result *r = arg;
	const struct smp_env *e = r->env;
	struct latency_cpu *me = &r->cpu[cpu];
	uint64_t start, prev, now;

	__atomic_add_fetch(&r->arrive, 1, __ATOMIC_ACQ_REL);
	if (smp_wait_at_least(e, cpu, &r->arrive, r->expected, r->wait_cycles)) {
		me->smi_valid = e->smi_count && e->smi_count(&me->smi_before);
		start = prev = smp_tsc(e, cpu);
		me->start_tsc = start;
		/* Bounded by reads too, should the TSC not run: a read takes
		 * 20 cycles or more on every x86 core, so `duration` reads
		 * outlast `duration` cycles. */
		for (uint64_t reads = 0; reads < r->duration; reads++) {
			uint64_t gap;
			now = smp_tsc(e, cpu);
			if (smp_diff(prev, now) < 0) {
				me->backwards++;
			} else {
				gap = now - prev;
				me->bins[latency_bin(r, gap)]++;
				me->gaps++;
				if (gap > me->max_gap) {
					me->max_gap = gap;
					me->max_gap_at = prev - start;
				}
			}
			prev = now;
			if ((uint64_t)smp_diff(start, now) >= r->duration)
				break;
		}
		me->cycles = prev - start;
		if (me->smi_valid)
			me->smi_valid = e->smi_count(&me->smi_after);
		me->done = true;
	}
	__atomic_store_n(&me->returned, true, __ATOMIC_RELEASE);
}

void latency_scan(struct smp_env *e, double seconds, uint64_t wait_cycles, struct latency_result *r)
{
	unsigned cpus[TEAM_MAX_CPUS], n;
	double decade = 1e-6;

	tp_memset(r, 0, sizeof *r);
	r->seconds = seconds;
	r->tsc_hz = e->tsc_hz;
	r->env = e;
	r->n_cpus = e->team->count < TEAM_MAX_CPUS ? e->team->count : TEAM_MAX_CPUS;
	if (e->tsc_hz <= 0) {
		r->refused = "the TSC frequency is unknown: gaps cannot be put in time bins";
		return;
	}
	if (seconds <= 0) {
		r->refused = "no scan time";
		return;
	}
	for (unsigned b = 0; b < LATENCY_BINS - 1; b++) {
		r->edge[b] = (uint64_t)(e->tsc_hz * decade + 0.5);
		decade *= 10;
	}
	r->limit_cycles = (uint64_t)(e->tsc_hz * LATENCY_LIMIT_NS * 1e-9 + 0.5);
	r->duration = smp_cycles(e, seconds);
	r->wait_cycles = wait_cycles;
	n = smp_cpus(e, cpus, TEAM_MAX_CPUS);
	if (!n) {
		r->refused = "no CPU to scan";
		return;
	}
	r->expected = n;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	/* the scan, the barrier, and half the scan again for a slow start */
	e->team->run(e->team->plat, cpus, n, scan_fn, r, r->duration + r->duration / 2 + 2 * wait_cycles);
	for (unsigned i = 0; i < n; i++)
		if (!__atomic_load_n(&r->cpu[cpus[i]].returned, __ATOMIC_ACQUIRE))
			smp_mark_gone(e, cpus[i]);
}

const char *latency_verdict(const struct latency_result *r, unsigned cpu)
{
	if (cpu >= TEAM_MAX_CPUS || !r->cpu[cpu].done)
		return NULL;
	return r->cpu[cpu].max_gap <= r->limit_cycles ? "pass" : "fail";
}
