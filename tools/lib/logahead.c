/* SPDX-License-Identifier: BSD-2-Clause */
/* Log files loaded ahead on a second thread (tools/lib/logahead.h). */
#include "tools/lib/logahead.h"
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

/* Files in memory at once: the one the caller holds and up to 7 loaded
 * ahead, a few hundred kilobytes each, enough to keep both threads busy. */
#define AHEAD_SLOTS 8

struct ahead {
	char *const *paths;
	size_t n;
	size_t loaded, taken; /* files loaded by the thread; files handed out */
	bool stop, threaded;
	bool held;            /* the caller holds file taken - 1 */
	struct logfile slot[AHEAD_SLOTS];
	void *made[AHEAD_SLOTS];
	struct ahead_work work;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t thread;
};

static void load(struct ahead *a, size_t i)
{
	struct logfile *f = &a->slot[i % AHEAD_SLOTS];
	logfile_load(f, a->paths[i]);
	a->made[i % AHEAD_SLOTS] = a->work.prepare ? a->work.prepare(a->work.ctx, f) : NULL;
}

static void unload(struct ahead *a, size_t i)
{
	logfile_free(&a->slot[i % AHEAD_SLOTS]);
	if (a->work.release)
		a->work.release(a->made[i % AHEAD_SLOTS]);
	a->made[i % AHEAD_SLOTS] = NULL;
}

static void *loader(void *arg)
{
	struct ahead *a = arg;

	pthread_mutex_lock(&a->mu);
	while (!a->stop && a->loaded < a->n) {
		size_t i = a->loaded;
		/* The slot of file i is free once file i - AHEAD_SLOTS + 1 is
		 * handed out: the caller holds one, AHEAD_SLOTS - 1 wait. */
		if (i + 1 - a->taken >= AHEAD_SLOTS) {
			pthread_cond_wait(&a->cv, &a->mu);
			continue;
		}
		pthread_mutex_unlock(&a->mu);
		load(a, i);
		pthread_mutex_lock(&a->mu);
		a->loaded++;
		pthread_cond_broadcast(&a->cv);
	}
	pthread_mutex_unlock(&a->mu);
	logfile_load_done();
	return NULL;
}

struct ahead *ahead_start(char *const *paths, size_t n, const struct ahead_work *work)
{
	struct ahead *a = calloc(1, sizeof *a);

	if (!a)
		return NULL;
	a->paths = paths;
	a->n = n;
	if (work)
		a->work = *work;
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	a->threaded = pthread_create(&a->thread, NULL, loader, a) == 0;
	return a;
}

struct logfile *ahead_next(struct ahead *a, void **made)
{
	struct logfile *f;

	pthread_mutex_lock(&a->mu);
	if (a->held) { /* the one handed out last time is done with */
		unload(a, a->taken - 1);
		a->held = false;
		pthread_cond_broadcast(&a->cv);
	}
	if (a->taken == a->n) {
		pthread_mutex_unlock(&a->mu);
		return NULL;
	}
	f = &a->slot[a->taken % AHEAD_SLOTS];
	if (!a->threaded) {
		pthread_mutex_unlock(&a->mu);
		load(a, a->taken);
		pthread_mutex_lock(&a->mu);
		a->loaded++;
	}
	while (a->loaded <= a->taken)
		pthread_cond_wait(&a->cv, &a->mu);
	*made = a->made[a->taken % AHEAD_SLOTS];
	a->taken++;
	a->held = true;
	pthread_mutex_unlock(&a->mu);
	return f;
}

void ahead_stop(struct ahead *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = true;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	if (a->threaded)
		pthread_join(a->thread, NULL);
	/* The one handed out last, and those loaded but never taken. */
	for (size_t i = a->held ? a->taken - 1 : a->taken; i < a->loaded; i++)
		unload(a, i);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	free(a);
}
