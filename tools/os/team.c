/* SPDX-License-Identifier: BSD-2-Clause */
/* struct team on POSIX threads (team.h).  A run hands each listed CPU's
 * thread the function and wakes it; the caller runs its own part when it is
 * listed, then waits for the others, within the run's bound. */
#define _GNU_SOURCE
#include "tools/os/team.h"
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tools/os/bench.h"

struct member {
	pthread_t thread;
	int cpu;                /* Linux's number */
	unsigned index;         /* the team's */
	struct os_team *t;
	atomic_uint generation; /* a new run: its number */
	atomic_uint done;       /* the last run this member finished */
};

struct os_team {
	struct team team;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	unsigned generation;
	team_fn fn;
	void *arg;
	bool stop;
	unsigned n;
	struct member m[OS_THREADS_MAX];
};

static uint64_t tsc_of(unsigned cpu)
{
	(void)cpu;
	return os_tsc_end(); /* rdtscp or lfence;rdtsc: ordered */
}

static void *member_main(void *arg)
{
	struct member *m = arg;
	struct os_team *t = m->t;
	unsigned seen = 0;

	for (;;) {
		team_fn fn;
		void *fa;
		unsigned gen;
		pthread_mutex_lock(&t->lock);
		while (!t->stop && atomic_load(&m->generation) == seen)
			pthread_cond_wait(&t->wake, &t->lock);
		if (t->stop) {
			pthread_mutex_unlock(&t->lock);
			return NULL;
		}
		gen = atomic_load(&m->generation);
		fn = t->fn;
		fa = t->arg;
		pthread_mutex_unlock(&t->lock);
		fn(m->index, fa);
		seen = gen;
		atomic_store(&m->done, gen);
	}
}

static unsigned run(void *plat, const unsigned *cpus, unsigned n, team_fn fn, void *arg, uint64_t timeout_cycles)
{
	struct os_team *t = plat;
	unsigned gen, returned = 0;
	bool self = false;
	uint64_t start;

	pthread_mutex_lock(&t->lock);
	gen = ++t->generation;
	t->fn = fn;
	t->arg = arg;
	for (unsigned k = 0; k < n; k++) {
		if (cpus[k] == 0)
			self = true;
		else if (cpus[k] < t->n)
			atomic_store(&t->m[cpus[k]].generation, gen);
	}
	pthread_cond_broadcast(&t->wake);
	pthread_mutex_unlock(&t->lock);
	if (self) {
		fn(0, arg);
		returned++;
	}
	start = os_tsc_begin();
	for (unsigned k = 0; k < n; k++) {
		if (cpus[k] == 0 || cpus[k] >= t->n)
			continue;
		while (atomic_load(&t->m[cpus[k]].done) != gen && os_tsc_begin() - start < timeout_cycles)
			sched_yield();
		returned += atomic_load(&t->m[cpus[k]].done) == gen;
	}
	return returned;
}

static bool pin(pthread_t th, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(th, sizeof set, &set) == 0;
}

struct os_team *os_team_start(const struct os_cpus *cpus, int self_cpu, char *why, size_t cap)
{
	struct os_team *t = calloc(1, sizeof *t);
	int err;

	if (!t) {
		snprintf(why, cap, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->wake, NULL);
	t->m[0].cpu = self_cpu;
	t->n = 1;
	for (int i = 0; i < cpus->n && t->n < OS_THREADS_MAX; i++) {
		struct member *m;
		if (cpus->cpu[i] == self_cpu)
			continue;
		m = &t->m[t->n];
		m->cpu = cpus->cpu[i];
		m->index = t->n;
		m->t = t;
		err = pthread_create(&m->thread, NULL, member_main, m);
		if (err) {
			snprintf(why, cap, "a thread for CPU %d: %s", m->cpu, strerror(err));
			os_team_stop(t);
			return NULL;
		}
		t->n++; /* started: joined at the stop, pinned or not */
		if (!pin(m->thread, m->cpu)) {
			snprintf(why, cap, "a thread cannot be pinned to CPU %d", m->cpu);
			os_team_stop(t);
			return NULL;
		}
	}
	t->team.count = t->n;
	t->team.run = run;
	t->team.tsc = tsc_of;
	t->team.plat = t;
	return t;
}

const struct team *os_team_get(const struct os_team *t) { return &t->team; }

int os_team_cpu(const struct os_team *t, unsigned i) { return i < t->n ? t->m[i].cpu : -1; }

void os_team_stop(struct os_team *t)
{
	if (!t)
		return;
	pthread_mutex_lock(&t->lock);
	t->stop = true;
	pthread_cond_broadcast(&t->wake);
	pthread_mutex_unlock(&t->lock);
	for (unsigned i = 1; i < t->n; i++)
		pthread_join(t->m[i].thread, NULL);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->wake);
	free(t);
}
