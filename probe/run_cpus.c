/* SPDX-License-Identifier: BSD-2-Clause */
/* The run's steps with the other CPUs (probe/run.h): start them once the TSC
 * rate is known, and after the boot CPU's own measurements, what only many
 * CPUs can show: TSC synchronisation, each CPU's own read cost, the full
 * table on each other core type, what a shared counter costs when many read
 * it at once, and (latency=) the gaps each CPU sees.
 *
 * Every record is written by the boot CPU; the other CPUs only measure into
 * memory the run keeps, so a CPU that comes back late writes into memory
 * that is still there.  A machine with one CPU gets its `cpus` record and
 * none of the others. */
#include "probe/contention.h"
#include "lib/fmt.h"
#include "probe/latency.h"
#include "probe/percpu.h"
#include "probe/records_cpus.h"
#include "probe/records_smp.h"
#include "probe/run.h"
#include "probe/tsc_sync.h"
#include "lib/util.h"

/* Reads per reader at each contention level: 10,000 HPET reads of about
 * 1 us on real hardware is 10 ms a level, and under TCG's serialised HPET
 * at 8 readers about 90 ms (kvm-unit-tests' hpet_read_test: 1,130 ns a
 * read at 8 CPUs). */
#define CONTENTION_READS 10000u
/* Per-CPU cost: 10,000 reads of each in 10 rounds on each CPU, enough for a
 * stable p50 and min at a few ms a CPU. */
#define PERCPU_SAMPLES 10000u
#define PERCPU_ROUNDS 10u

/* The counters each CPU has its own of, worth timing on every CPU: the TSC
 * (the control, always), RDTSCP and RDPID, and the local APIC, whose
 * registers every CPU reads and writes at the same address but in its own
 * APIC (SDM, "Local APIC"), so a VM that traps them can differ by vCPU.  The
 * shared devices (HPET, PM timer, PIT, RTC) are the contention test's. */
static const char *const percpu_names[PERCPU_COUNTERS] = { "tsc", "rdtscp", "rdpid", "lapic", "lapic-x2",
							   "tsc-deadline" };

/* The counters a shared-counter test is worth: the two that real machines
 * serialise (one HPET read takes about a microsecond) and the TSC, which
 * every core reads on its own, as the control. */
static const char *const contended[] = { "hpet", "acpi-fast", "tsc" };

void run_cpus_start(struct run *r)
{
	const struct platform *p = r->p;
	struct cpus_facts cpus = { .max = TEAM_MAX_CPUS };
	char line[200];

	if (!p->start_cpus)
		return;
	r->step = "starting the other CPUs";
	cpus.cpu = p->alloc(p->ctx, cpus.max * sizeof *cpus.cpu);
	if (!cpus.cpu) {
		run_text(r, "CPUs: no memory for the list of CPUs: the other CPUs are not started\n");
		return;
	}
	r->team = p->start_cpus(p->ctx, r->opt, &r->acpi, r->tsc.hz, &cpus);
	record_cpus(r->log, &cpus, r->tsc.hz);
	cpus_line(&cpus, r->tsc.hz, line, sizeof line);
	run_text(r, "%s", line);
	if (p->check_cpus && r->team && r->team->count > 1) {
		struct team_check_facts *check = p->alloc(p->ctx, sizeof *check);
		r->step = "team check";
		if (!check) {
			run_text(r, "team check: no memory for its results: not run\n");
			return;
		}
		p->check_cpus(p->ctx, r->opt, r->tsc.hz, check);
		record_team_check(r->log, check);
		team_check_line(check, line, sizeof line);
		run_text(r, "%s", line);
	}
}

static struct smp_env *make_env(struct run *r)
{
	const struct platform *p = r->p;
	struct smp_env *e = p->alloc(p->ctx, sizeof *e);
	uint64_t smi;

	if (!e)
		return NULL;
	e->team = r->team;
	e->tsc_hz = r->tsc.hz > 0 ? r->tsc.hz : 0;
	e->rdmsr = p->rdmsr;
	e->has_tsc_adjust = p->has_tsc_adjust;
	/* The SMI count only where the boot CPU could read it: an AP's #GP is
	 * no recoverable fault but the end of the run. */
	e->smi_count = r->clock.smi_count && r->clock.smi_count(&smi) ? r->clock.smi_count : NULL;
	e->skew_set = r->opt->tsc_skew_set;
	e->skew_cpu = r->opt->tsc_skew_cpu;
	e->skew_cycles = r->opt->tsc_skew_cycles;
	return e;
}

static void sync_step(struct run *r)
{
	const struct platform *p = r->p;
	bool matrix = tp_streq(r->opt->tsc_sync, "matrix");
	unsigned need = tsc_sync_pairs_needed(r->team->count, matrix);
	struct tsc_sync_result *res = p->alloc(p->ctx, sizeof *res);
	struct tsc_pair *pairs = p->alloc(p->ctx, (need ? need : 1) * sizeof *pairs);
	struct tsc_sync_config cfg;

	r->step = "TSC synchronisation";
	if (!res || !pairs) {
		run_text(r, "TSC sync: no memory for %u pairs: not measured\n", need);
		return;
	}
	tsc_sync_defaults(&cfg, r->smp, matrix);
	tsc_sync_measure(r->smp, &cfg, pairs, need, res);
	record_tsc_sync(r->log, res, r->smp);
	run_text(r, "TSC sync (%s): %s; %llu warps (largest %llu cycles); Linux %s\n",
		 matrix ? "every pair" : "each CPU against the boot CPU",
		 res->verdict == TSC_VERDICT_SYNCHRONIZED       ? "synchronized within the measured uncertainty"
		 : res->verdict == TSC_VERDICT_NOT_SYNCHRONIZED ? "NOT synchronized"
								: "not known (pairs incomplete)",
		 (unsigned long long)res->warps, (unsigned long long)res->max_warp,
		 res->linux_would_mark_unstable ? "would mark the TSC unstable" : "would keep the TSC");
}

static void percpu_step(struct run *r)
{
	const struct platform *p = r->p;
	struct percpu_result *res = p->alloc(p->ctx, sizeof *res);
	struct percpu_config cfg = {
		.ctx = p->ctx, .pc = &r->clock, .subtract = r->subtract, .samples = PERCPU_SAMPLES,
		.rounds = PERCPU_ROUNDS, .cost = r->cost, .round = r->round,
		.timeout_cycles = percpu_timeout(r->smp, PERCPU_SAMPLES),
	};

	r->step = "per-CPU read cost";
	/* The TSC and RDTSCP whatever counters= asks (the control); the others
	 * where the boot CPU measured them. */
	for (unsigned k = 0; k < PERCPU_COUNTERS; k++) {
		struct run_counter *rc = run_counter_named(r, percpu_names[k]);
		if (!rc || !rc->c || !rc->s.healthy || (k > 1 && !rc->wanted))
			continue;
		cfg.counter[cfg.n++] = (struct percpu_counter){
			.c = rc->c, .prepare = rc->desc->prepare, .settle = rc->desc->disturbs ? rc->driver->settle : NULL };
	}
	if (!res || !cfg.n || !tp_streq(cfg.counter[0].c->desc->name, "tsc"))
		return;
	percpu_measure(r->smp, &cfg, res);
	record_percpu(r->log, res);
}

struct on_cpu {
	struct run *r;
	struct run_counter *rc;
};

static void measure_there(unsigned cpu, void *arg)
{
	struct on_cpu *w = arg;
	(void)cpu;
	run_measure_counter(w->r, w->rc, 0);
}

/* Hybrid parts: the whole table again on the first CPU of each other core
 * type, each record naming its CPU. */
static void core_types_step(struct run *r)
{
	const struct platform *p = r->p;
	uint8_t types[TEAM_MAX_CPUS] = { 0 };
	unsigned pick[8], n = 0, k;

	if (!p->core_type)
		return;
	while (n < r->team->count && n < TEAM_MAX_CPUS) {
		types[n] = p->core_type(p->ctx, n);
		n++;
	}
	k = percpu_pick_core_types(types, n, pick, sizeof pick / sizeof pick[0]);
	for (unsigned t = 1; t < k; t++) {
		run_text(r, "the counters again on CPU %u, core type 0x%02x:\n", pick[t], types[pick[t]]);
		for (unsigned i = 0; i < r->n; i++) {
			struct run_counter *rc = &r->counters[i];
			struct on_cpu w = { r, rc };
			if (!rc->wanted || !rc->c || !rc->s.healthy)
				continue;
			r->step = rc->desc->name;
			if (percpu_run_on(r->smp, pick[t], measure_there, &w, percpu_timeout(r->smp, r->opt->samples)))
				record_timer_on(r->log, (int)pick[t], rc->c, &rc->s, &r->result, r->cost, NULL, r->tsc.hz,
						run_samples(r, rc));
		}
	}
}

static void contention_step(struct run *r)
{
	const struct platform *p = r->p;
	struct contention_result *res = p->alloc(p->ctx, sizeof *res);
	unsigned want = r->team->count, n = 0;
	struct hist *hists = NULL;

	if (!res)
		return;
	/* One histogram a reader, 91.6 KB each: as many readers as memory allows. */
	while (want && !(hists = p->alloc(p->ctx, want * sizeof *hists)))
		want /= 2;
	n = hists ? want : 0;
	for (unsigned i = 0; i < sizeof contended / sizeof contended[0]; i++) {
		struct run_counter *rc = run_counter_named(r, contended[i]);
		if (!rc || !rc->wanted || !rc->c || !rc->s.healthy || !n)
			continue;
		r->step = "contention";
		contention_measure(r->smp, rc->c, CONTENTION_READS, hists, n, smp_cycles(r->smp, 0.1), res);
		if (rc->desc->disturbs && rc->driver->settle)
			rc->driver->settle(p->ctx);
		record_contention(r->log, res, r->tsc.hz);
		if (!res->refused && res->n_levels)
			run_text(r, "contention %s: %u levels up to %u readers, %llu backward steps across CPUs\n",
				 contended[i], res->n_levels, res->level[res->n_levels - 1].n,
				 (unsigned long long)res->backwards);
	}
}

static void latency_step(struct run *r)
{
	const struct platform *p = r->p;
	struct latency_result *res;

	if (!r->opt->latency_s)
		return;
	res = p->alloc(p->ctx, sizeof *res);
	if (!res)
		return;
	r->step = "latency scan";
	run_text(r, "latency: every CPU spins on the TSC for %u s\n", r->opt->latency_s);
	latency_scan(r->smp, (double)r->opt->latency_s, smp_cycles(r->smp, 0.1), res);
	record_latency(r->log, res);
}

void run_cpus_measure(struct run *r)
{
	if (!r->team || r->team->count < 2)
		return;
	r->smp = make_env(r);
	if (!r->smp)
		return;
	sync_step(r);
	percpu_step(r);
	core_types_step(r);
	contention_step(r);
	latency_step(r);
}
