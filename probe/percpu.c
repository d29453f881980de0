/* SPDX-License-Identifier: BSD-2-Clause */
/* Per-CPU costs and work on a chosen CPU (probe/percpu.h). */
#include "probe/percpu.h"
#include "lib/util.h"

uint64_t percpu_timeout(const struct smp_env *e, uint32_t samples)
{
	/* measure_counter makes 16 warm-up reads, the samples and a block of at
	 * most 10000 */
	return smp_cycles(e, 2.0 * ((double)samples + 10016) * 50e-6 + 0.100);
}

static void measure_here(unsigned cpu, void *arg)
{
	struct percpu_result *r = arg;
	const struct percpu_config *cfg = r->cfg;

	(void)cpu;
	if (r->now->prepare)
		r->now->prepare(cfg->ctx);
	measure_counter(r->now->c, cfg->pc, cfg->subtract, cfg->samples, cfg->rounds, cfg->cost, cfg->round, NULL, 0,
			&r->m);
	if (r->now->settle)
		r->now->settle(cfg->ctx);
	r->out->p50 = hist_quantile(cfg->cost, 500000);
	r->out->min = cfg->cost->count ? cfg->cost->min : 0;
	r->out->measured = cfg->cost->count > 0;
	__atomic_store_n(&r->returned, true, __ATOMIC_RELEASE);
}

static void measure_one(struct smp_env *e, struct percpu_result *r, unsigned cpu, const struct percpu_counter *pc,
			struct percpu_cost *out)
{
	tp_memset(out, 0, sizeof *out);
	if (e->gone[cpu])
		return;
	r->now = pc;
	r->out = out;
	r->returned = false;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	e->team->run(e->team->plat, &cpu, 1, measure_here, r, r->cfg->timeout_cycles);
	if (!__atomic_load_n(&r->returned, __ATOMIC_ACQUIRE)) {
		out->measured = false;
		smp_mark_gone(e, cpu);
	}
}

void percpu_measure(struct smp_env *e, const struct percpu_config *cfg, struct percpu_result *r)
{
	tp_memset(r, 0, sizeof *r);
	r->cfg = cfg;
	r->n_cpus = e->team->count < TEAM_MAX_CPUS ? e->team->count : TEAM_MAX_CPUS;
	r->samples = cfg->samples;
	for (unsigned k = 0; k < cfg->n && k < PERCPU_COUNTERS; k++)
		if (cfg->counter[k].c)
			r->counter[r->n++] = cfg->counter[k].c;
	/* CPU by CPU, each counter in turn: a CPU that stops answering is
	 * given up once, not once per counter. */
	for (unsigned cpu = 0; cpu < r->n_cpus; cpu++)
		for (unsigned k = 0, i = 0; k < cfg->n && k < PERCPU_COUNTERS; k++)
			if (cfg->counter[k].c)
				measure_one(e, r, cpu, &cfg->counter[k], &r->cost[i++][cpu]);
}

bool percpu_run_on(struct smp_env *e, unsigned cpu, team_fn fn, void *arg, uint64_t timeout_cycles)
{
	if (cpu >= e->team->count || cpu >= TEAM_MAX_CPUS || e->gone[cpu])
		return false;
	if (e->team->run(e->team->plat, &cpu, 1, fn, arg, timeout_cycles) == 1)
		return true;
	smp_mark_gone(e, cpu);
	return false;
}

unsigned percpu_pick_core_types(const uint8_t *core_type, unsigned n, unsigned *out, unsigned cap)
{
	unsigned k = 0;

	for (unsigned cpu = 0; cpu < n; cpu++) {
		bool seen = false;
		for (unsigned i = 0; i < k && !seen; i++)
			seen = core_type[out[i]] == core_type[cpu];
		if (!seen && k < cap)
			out[k++] = cpu;
	}
	return k;
}
