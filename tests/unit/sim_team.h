/* SPDX-License-Identifier: BSD-2-Clause */
/* struct team (probe/team.h) on POSIX threads, for the host unit tests: one
 * thread per simulated CPU (the test's own thread is CPU 0), a simulated
 * TSC, and the platform callbacks of struct smp_env.
 *
 * Clocks (what team.tsc returns, plus a per-CPU skew):
 *   SIM_CLOCK_REAL     one clock for all CPUs: the host's CLOCK_MONOTONIC in
 *                      ns, made strictly increasing (a compare-and-swap), so
 *                      every read is above every read made before it on any
 *                      CPU, as a synchronised TSC is;
 *   SIM_CLOCK_COUNTED  one clock for all CPUs that every read advances by step;
 *   SIM_CLOCK_PRIVATE  a clock per CPU that only its own reads advance, by
 *                      step, with gaps planted at chosen times (each counts
 *                      as one SMI on that CPU).
 * Schedules:
 *   SIM_FREE           the threads run as the host schedules them;
 *   SIM_ROUND_ROBIN    one CPU runs at a time and hands over at every TSC
 *                      read to the next in index order: deterministic;
 *   SIM_RANDOM         likewise, to a CPU drawn by a seeded generator.
 * Under the two lockstep schedules, code between two TSC reads runs alone,
 * so a whole run is one repeatable interleaving.
 *
 * A CPU can hang: at the start of its next run (it never runs the function)
 * or at its k-th TSC read of a run (it stops inside the function, holding
 * whatever it holds).  It never returns; the run waits for the others, lets
 * timeout_cycles pass on the clocks, and returns without it, and later runs
 * leave it out, as the platform does. */
#ifndef TESTS_SIM_TEAM_H
#define TESTS_SIM_TEAM_H

#include <pthread.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include "probe/smp_env.h"
#include "probe/team.h"
#include "tests/unit/xorshift.h"

#define SIM_CPUS 16
#define SIM_PLANTS 8
#define SIM_HZ 1e9 /* the simulated TSC's frequency: 1 cycle is 1 ns */

enum sim_clock { SIM_CLOCK_REAL, SIM_CLOCK_COUNTED, SIM_CLOCK_PRIVATE };
enum sim_sched { SIM_FREE, SIM_ROUND_ROBIN, SIM_RANDOM };

struct sim_plant {
	uint64_t at, gap; /* the first read reaching `at` comes back `gap` later */
	bool fired;
};

struct sim_team {
	struct team team;
	unsigned n;
	enum sim_clock clock;
	enum sim_sched sched;
	uint64_t step;
	int64_t skew[SIM_CPUS];
	uint64_t global, real_offset;
	uint64_t local[SIM_CPUS];
	struct sim_plant plant[SIM_CPUS][SIM_PLANTS];
	unsigned n_plant[SIM_CPUS];
	/* the MSRs */
	uint64_t smi[SIM_CPUS];
	bool smi_absent[SIM_CPUS], tsc_adjust_absent[SIM_CPUS];
	int64_t tsc_adjust[SIM_CPUS];
	/* hangs */
	bool hang_at_start[SIM_CPUS];
	uint64_t hang_at_read[SIM_CPUS]; /* 0: never */
	uint64_t run_reads[SIM_CPUS];
	bool dead[SIM_CPUS], hung[SIM_CPUS];
	/* what happened */
	uint64_t reads[SIM_CPUS], wrong_cpu, runs, switches, timeouts;
	/* the run in progress, under mu */
	pthread_mutex_t mu;
	pthread_cond_t turn[SIM_CPUS], start, finished;
	uint64_t gen;
	team_fn fn;
	void *arg;
	bool listed[SIM_CPUS], active[SIM_CPUS], done[SIM_CPUS];
	int baton;
	uint64_t rng;
	bool quit, started;
	pthread_t th[SIM_CPUS];
};

static struct sim_team sim;
static __thread int sim_self;
/* A hung CPU waits here for ever; nothing else ever touches these. */
static pthread_mutex_t sim_hang_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sim_hang_cv = PTHREAD_COND_INITIALIZER;

static inline bool sim_lockstep(void) { return sim.sched != SIM_FREE; }

static inline uint64_t sim_host_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The clock itself, for CPU c.  Under a lockstep schedule, with mu held. */
static inline uint64_t sim_clock_read(int c)
{
	uint64_t t;

	switch (sim.clock) {
	case SIM_CLOCK_REAL: {
		uint64_t now = sim_host_ns() + __atomic_load_n(&sim.real_offset, __ATOMIC_RELAXED);
		uint64_t old = __atomic_load_n(&sim.global, __ATOMIC_RELAXED);
		do
			t = now > old ? now : old + 1;
		while (!__atomic_compare_exchange_n(&sim.global, &old, t, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
		break;
	}
	case SIM_CLOCK_COUNTED:
		t = __atomic_add_fetch(&sim.global, sim.step, __ATOMIC_SEQ_CST);
		break;
	default:
		t = sim.local[c] + sim.step;
		for (unsigned i = 0; i < sim.n_plant[c]; i++) {
			struct sim_plant *p = &sim.plant[c][i];
			if (!p->fired && t >= p->at) {
				t += p->gap;
				p->fired = true;
				sim.smi[c]++;
			}
		}
		sim.local[c] = t;
		break;
	}
	sim.reads[c]++;
	return t + (uint64_t)sim.skew[c];
}

/* Lockstep: hand the baton to the next active CPU (or keep it), mu held. */
static inline void sim_pass(int from)
{
	int next = -1, count = 0;

	for (unsigned i = 0; i < sim.n; i++)
		count += sim.active[i];
	if (count && sim.sched == SIM_ROUND_ROBIN) {
		for (unsigned k = 1; k <= sim.n && next < 0; k++) {
			int c = (int)((unsigned)(from + (int)sim.n + (int)k) % sim.n);
			if (sim.active[c])
				next = c;
		}
	} else if (count) {
		int pick;
		pick = (int)(xorshift64(&sim.rng) % (uint64_t)count);
		for (unsigned c = 0; c < sim.n && next < 0; c++)
			if (sim.active[c] && pick-- == 0)
				next = (int)c;
	}
	if (next != from)
		sim.switches++;
	sim.baton = next;
	if (next >= 0)
		pthread_cond_signal(&sim.turn[next]);
}

static inline void sim_await(int me)
{
	while (sim.baton != me)
		pthread_cond_wait(&sim.turn[me], &sim.mu);
}

/* The CPU stops for ever.  Called with mu held; never returns. */
__attribute__((noreturn)) static inline void sim_hang_here(int me)
{
	sim.active[me] = false;
	sim.dead[me] = sim.hung[me] = true;
	if (sim_lockstep() && sim.baton == me)
		sim_pass(me);
	pthread_cond_broadcast(&sim.finished);
	pthread_mutex_unlock(&sim.mu);
	pthread_mutex_lock(&sim_hang_mu);
	for (;;)
		pthread_cond_wait(&sim_hang_cv, &sim_hang_mu);
}

static inline uint64_t sim_tsc(unsigned cpu)
{
	int me = sim_self;
	uint64_t t;

	if ((int)cpu != me)
		__atomic_add_fetch(&sim.wrong_cpu, 1, __ATOMIC_RELAXED);
	if (!sim_lockstep()) {
		if (me && sim.hang_at_read[me] && ++sim.run_reads[me] >= sim.hang_at_read[me]) {
			pthread_mutex_lock(&sim.mu);
			sim_hang_here(me);
		}
		return sim_clock_read(me);
	}
	pthread_mutex_lock(&sim.mu);
	if (sim.active[me]) {
		if (me && sim.hang_at_read[me] && ++sim.run_reads[me] >= sim.hang_at_read[me])
			sim_hang_here(me);
		sim_pass(me);
		sim_await(me);
	}
	t = sim_clock_read(me);
	pthread_mutex_unlock(&sim.mu);
	return t;
}

static inline void *sim_worker(void *p)
{
	int me = (int)(intptr_t)p;
	uint64_t seen = 0;

	sim_self = me;
	pthread_mutex_lock(&sim.mu);
	for (;;) {
		while (!sim.quit && sim.gen == seen)
			pthread_cond_wait(&sim.start, &sim.mu);
		if (sim.quit)
			break;
		seen = sim.gen;
		if (!sim.listed[me])
			continue;
		if (sim.hang_at_start[me])
			sim_hang_here(me);
		if (sim_lockstep())
			sim_await(me);
		pthread_mutex_unlock(&sim.mu);
		sim.fn((unsigned)me, sim.arg);
		pthread_mutex_lock(&sim.mu);
		sim.done[me] = true;
		sim.active[me] = false;
		if (sim_lockstep() && sim.baton == me)
			sim_pass(me);
		pthread_cond_broadcast(&sim.finished);
	}
	pthread_mutex_unlock(&sim.mu);
	return NULL;
}

static inline bool sim_waiting_for_someone(void)
{
	for (unsigned c = 0; c < sim.n; c++)
		if (sim.listed[c] && !sim.done[c] && !sim.dead[c])
			return true;
	return false;
}

static inline unsigned sim_run(void *plat, const unsigned *cpus, unsigned n, team_fn fn, void *arg,
			       uint64_t timeout_cycles)
{
	bool self = false, late = false;
	unsigned returned = 0;

	(void)plat;
	pthread_mutex_lock(&sim.mu);
	sim.runs++;
	memset(sim.listed, 0, sizeof sim.listed);
	memset(sim.done, 0, sizeof sim.done);
	memset(sim.active, 0, sizeof sim.active);
	memset(sim.run_reads, 0, sizeof sim.run_reads);
	for (unsigned i = 0; i < n; i++) {
		unsigned c = cpus[i];
		if (c >= sim.n || sim.dead[c])
			continue; /* left out, as the platform does: no wait for it */
		sim.listed[c] = true;
		sim.active[c] = !sim.hang_at_start[c];
		self |= c == 0;
	}
	sim.fn = fn;
	sim.arg = arg;
	if (sim_lockstep())
		sim_pass((int)sim.n - 1);
	sim.gen++;
	pthread_cond_broadcast(&sim.start);
	if (self) {
		if (sim_lockstep())
			sim_await(0);
		pthread_mutex_unlock(&sim.mu);
		fn(0, arg);
		pthread_mutex_lock(&sim.mu);
		sim.done[0] = true;
		sim.active[0] = false;
		if (sim_lockstep() && sim.baton == 0)
			sim_pass(0);
	}
	while (sim_waiting_for_someone())
		pthread_cond_wait(&sim.finished, &sim.mu);
	for (unsigned c = 0; c < sim.n; c++) {
		returned += sim.done[c];
		late |= sim.listed[c] && !sim.done[c];
	}
	if (late) { /* the platform waited the whole bound for the missing CPU */
		sim.timeouts++;
		__atomic_add_fetch(&sim.global, timeout_cycles, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&sim.real_offset, timeout_cycles, __ATOMIC_SEQ_CST);
		for (unsigned c = 0; c < sim.n; c++)
			if (!sim.hung[c])
				sim.local[c] += timeout_cycles;
	}
	sim.baton = -1;
	pthread_mutex_unlock(&sim.mu);
	return returned;
}

/* ---- the platform callbacks, on the calling simulated CPU ------------------ */

static inline bool sim_rdmsr(uint32_t msr, uint64_t *value)
{
	if (msr == 0x3b && !sim.tsc_adjust_absent[sim_self]) {
		*value = (uint64_t)sim.tsc_adjust[sim_self];
		return true;
	}
	if (msr == 0x34 && !sim.smi_absent[sim_self]) {
		*value = sim.smi[sim_self];
		return true;
	}
	return false; /* #GP */
}

static inline bool sim_has_tsc_adjust(void) { return !sim.tsc_adjust_absent[sim_self]; }
static inline bool sim_smi_count(uint64_t *count) { return sim_rdmsr(0x34, count); }

/* ---- set-up ---------------------------------------------------------------- */

static inline void sim_stop(void)
{
	if (!sim.started)
		return;
	pthread_mutex_lock(&sim.mu);
	sim.quit = true;
	pthread_cond_broadcast(&sim.start);
	pthread_mutex_unlock(&sim.mu);
	for (unsigned c = 1; c < sim.n; c++) {
		if (sim.hung[c])
			pthread_detach(sim.th[c]); /* blocked for ever on sim_hang_cv */
		else
			pthread_join(sim.th[c], NULL);
	}
	sim.started = false;
}

/* n CPUs, a clock, a schedule, cycles per read (COUNTED, PRIVATE), a seed
 * (RANDOM).  Skews, plants, hangs and MSR values are set after this, before
 * the first run. */
static inline void sim_setup(unsigned n, enum sim_clock clock, enum sim_sched sched, uint64_t step, uint64_t seed)
{
	sim_stop();
	memset(&sim, 0, sizeof sim);
	pthread_mutex_init(&sim.mu, NULL);
	pthread_cond_init(&sim.start, NULL);
	pthread_cond_init(&sim.finished, NULL);
	for (unsigned c = 0; c < SIM_CPUS; c++)
		pthread_cond_init(&sim.turn[c], NULL);
	sim.n = n < SIM_CPUS ? n : SIM_CPUS;
	sim.clock = clock;
	sim.sched = sched;
	sim.step = step ? step : 1;
	sim.rng = seed ? seed : 0x9e3779b97f4a7c15ull;
	sim.baton = -1;
	sim.real_offset = 1000000000ull - sim_host_ns() % 1000000000ull; /* the clock starts near 1 s */
	sim.team.count = sim.n;
	sim.team.run = sim_run;
	sim.team.tsc = sim_tsc;
	sim.team.plat = &sim;
	sim_self = 0;
	for (unsigned c = 1; c < sim.n; c++)
		pthread_create(&sim.th[c], NULL, sim_worker, (void *)(intptr_t)c);
	sim.started = true;
}

static inline void sim_plant(unsigned cpu, uint64_t at, uint64_t gap)
{
	if (sim.n_plant[cpu] < SIM_PLANTS)
		sim.plant[cpu][sim.n_plant[cpu]++] = (struct sim_plant){ .at = at, .gap = gap };
}

/* The measurements' view of the simulated machine. */
static inline void sim_env(struct smp_env *e)
{
	memset(e, 0, sizeof *e);
	e->team = &sim.team;
	e->tsc_hz = SIM_HZ;
	e->rdmsr = sim_rdmsr;
	e->has_tsc_adjust = sim_has_tsc_adjust;
	e->smi_count = sim_smi_count;
}

#endif
