/* SPDX-License-Identifier: BSD-2-Clause */
/* Readers on several CPUs at once (threads.h). */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tools/lib/lineup.h"
#include "probe/log_schema.h"
#include "tools/os/bench.h"
#include "tools/os/record.h"
#include "tools/os/threads.h"

void os_cpus_allowed(struct os_cpus *c)
{
	cpu_set_t set;

	c->n = 0;
	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return;
	for (int i = 0; i < CPU_SETSIZE && c->n < OS_THREADS_MAX; i++)
		if (CPU_ISSET(i, &set))
			c->cpu[c->n++] = i;
}

/* The start line: every reader says it is ready, then spins until the main
 * thread says go (1) or abort (-1).  A spin rather than
 * pthread_barrier_wait: the readers leave it within a few cycles of each
 * other instead of one scheduler wake-up apart, and a reader that could
 * not be created cannot leave the others waiting forever. */
struct gate {
	int ready;
	int go;
};

struct worker {
	pthread_t tid;
	struct gate *start;
	struct hist *h;
	uint64_t subtract;
	uint32_t calls;
	struct os_reader *out;
	int pinned; /* 0 ok, else the errno of sched_setaffinity */
};

static uint64_t ts_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

/* One reader: pinned, then released with the others, then `calls`
 * bracketed calls.  Nothing but the call sits inside the bracket; the
 * backwards check and the histogram come after it. */
static void *reader(void *arg)
{
	struct worker *w = arg;
	struct os_sample_ctx c = { .h = w->h, .subtract = w->subtract };
	cpu_set_t set;
	struct timespec ts;
	uint64_t prev = 0, t_start, t_end;

	CPU_ZERO(&set);
	CPU_SET(w->out->cpu, &set);
	w->pinned = sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : 1;
	hist_init(w->h); /* 90 KB: touched here, not inside the timed loop */
	for (int i = 0; i < 200; i++) /* warm-up: the vDSO pages, the code */
		clock_gettime(CLOCK_MONOTONIC, &ts);
	__atomic_add_fetch(&w->start->ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&w->start->go, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
	if (__atomic_load_n(&w->start->go, __ATOMIC_ACQUIRE) < 0)
		return NULL;
	t_start = os_tsc_begin();
	for (uint32_t i = 0; i < w->calls; i++) {
		uint64_t t0 = os_tsc_begin(), now;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		uint64_t t1 = os_tsc_end();
		os_sample_add(&c, t0, t1);
		now = ts_ns(&ts);
		w->out->backwards += now < prev;
		prev = now;
	}
	t_end = os_tsc_end();
	w->out->calls = w->calls;
	w->out->cycles = t_end - t_start;
	w->out->p50_cyc = hist_quantile(w->h, 500000);
	w->out->p99_cyc = hist_quantile(w->h, 990000);
	return NULL;
}

/* One level: n readers on cpus[0 .. n).  false with why set on failure. */
static bool level(struct os_contention *c, struct os_level *lv, const struct os_cpus *cpus, int n, uint64_t subtract,
		  double hz, struct hist *all)
{
	struct worker w[OS_THREADS_MAX];
	struct gate start = { 0, 0 };
	int made = 0;
	bool ok = true;

	memset(lv, 0, sizeof *lv);
	memset(w, 0, sizeof w); /* a failure half-way must leave no stray pointer to free */
	lv->n = n;
	for (int i = 0; i < n; i++) {
		w[i].start = &start;
		w[i].subtract = subtract;
		w[i].calls = c->calls;
		w[i].out = &lv->t[i];
		w[i].out->cpu = cpus->cpu[i];
		w[i].h = malloc(sizeof *w[i].h);
		if (!w[i].h) {
			snprintf(c->why, sizeof c->why, "out of memory");
			ok = false;
			break;
		}
	}
	for (int i = 0; ok && i < n; i++) {
		if (pthread_create(&w[i].tid, NULL, reader, &w[i]) != 0) {
			snprintf(c->why, sizeof c->why, "could not start reader %d of %d", i + 1, n);
			ok = false;
			break;
		}
		made++;
	}
	/* This thread shares a CPU with a reader: it sleeps while it waits. */
	while (__atomic_load_n(&start.ready, __ATOMIC_SEQ_CST) < made) {
		struct timespec nap = { 0, 100000 };
		nanosleep(&nap, NULL);
	}
	__atomic_store_n(&start.go, ok ? 1 : -1, __ATOMIC_RELEASE);
	for (int i = 0; i < made; i++)
		pthread_join(w[i].tid, NULL);
	if (ok) {
		hist_init(all);
		for (int i = 0; i < n; i++) {
			hist_merge(all, w[i].h);
			if (w[i].pinned) {
				snprintf(c->why, sizeof c->why, "could not pin a reader to CPU %d", lv->t[i].cpu);
				ok = false;
			}
			lv->backwards += lv->t[i].backwards;
			if (lv->t[i].cycles)
				lv->reads_per_s += (double)lv->t[i].calls * hz / (double)lv->t[i].cycles;
		}
		lv->p50_cyc = hist_quantile(all, 500000);
		lv->p99_cyc = hist_quantile(all, 990000);
	}
	for (int i = 0; i < n; i++)
		free(w[i].h);
	return ok;
}

void os_contention_measure(struct os_contention *c, const struct os_cpus *cpus, int threads, uint32_t calls,
			   uint64_t subtract, double hz)
{
	struct hist *all = malloc(sizeof *all);
	int max = threads < cpus->n ? threads : cpus->n;

	memset(c, 0, sizeof *c);
	c->asked = threads;
	c->calls = calls;
	if (!all || max < 1 || hz <= 0) {
		snprintf(c->why, sizeof c->why, !all ? "out of memory" : max < 1 ? "no CPU to run on" : "no TSC frequency");
		free(all);
		return;
	}
	if (max > OS_THREADS_MAX)
		max = OS_THREADS_MAX;
	c->ok = true;
	for (int n = 1; c->ok && c->nlevels < OS_LEVELS_MAX; n = n * 2 > max && n < max ? max : n * 2) {
		c->ok = level(c, &c->lv[c->nlevels], cpus, n, subtract, hz, all);
		if (c->ok)
			c->nlevels++;
		if (n >= max)
			break;
	}
	if (c->ok && max < threads)
		snprintf(c->why, sizeof c->why, "--threads %d, but this process may run on %d CPU%s only", threads, cpus->n,
			 cpus->n == 1 ? "" : "s");
	free(all);
}

static void write_level(struct put_os_level o, const struct os_level *lv, double hz)
{
	struct put_os_level_threads_list threads;

	put_os_level_n(o, (uint64_t)lv->n);
	put_os_level_p50_ns(o, os_cyc_to_ns((double)lv->p50_cyc, hz));
	put_os_level_p99_ns(o, os_cyc_to_ns((double)lv->p99_cyc, hz));
	put_os_level_reads_per_s(o, lv->reads_per_s);
	put_os_level_backwards(o, lv->backwards);
	threads = put_os_level_threads_open(o);
	for (int k = 0; k < lv->n; k++) {
		const struct os_reader *t = &lv->t[k];
		struct put_os_thread th = put_os_level_threads_add(threads);
		put_os_thread_cpu(th, t->cpu);
		put_os_thread_calls(th, t->calls);
		put_os_thread_p50_ns(th, os_cyc_to_ns((double)t->p50_cyc, hz));
		put_os_thread_p99_ns(th, os_cyc_to_ns((double)t->p99_cyc, hz));
		put_os_thread_reads_per_s(th, t->cycles ? (double)t->calls * hz / (double)t->cycles : 0);
		put_os_thread_close(th);
	}
	put_os_level_threads_close(threads);
	put_os_level_close(o);
}

void os_write_contention(struct log *l, const char *clocksource, const struct os_contention *c, double hz)
{
	struct put_os_contention r = put_record_os_contention(l);
	struct put_os_contention_readers_list readers;
	uint64_t back = 0;
	char name[96];

	os_call_name(name, sizeof name, "contention", clocksource);
	put_os_contention_name(r, name);
	put_os_contention_clocksource(r, clocksource);
	put_os_contention_call(r, OS_CALL_MONOTONIC);
	put_os_contention_counter(r, lineup_counter(clocksource));
	put_os_contention_healthy(r, c->ok);
	if (c->why[0] && c->ok)
		put_os_contention_note(r, c->why);
	else if (c->why[0])
		put_os_contention_reason(r, c->why);
	put_os_contention_method(r, "n threads pinned to n CPUs, started together from a barrier, each timing its own "
				    "bracketed calls into its own histogram");
	put_os_contention_threads_asked(r, (uint64_t)c->asked);
	put_os_contention_calls_per_thread(r, c->calls);
	readers = put_os_contention_readers_open(r);
	for (int i = 0; i < c->nlevels; i++) {
		write_level(put_os_contention_readers_add(readers), &c->lv[i], hz);
		back += c->lv[i].backwards;
	}
	put_os_contention_readers_close(readers);
	put_os_contention_backwards(r, back);
	log_end(l);
}
