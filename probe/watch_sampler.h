/* SPDX-License-Identifier: BSD-2-Clause */
/* How the watch reads its clocks (probe/watch.h), wherever it runs: in the
 * image (probe/run_watch.c) and on Linux (tools/os/watch.c).  Each clock
 * but the TSC is a struct counter (probe/counter.h) whose read returns its
 * count; the sampler unwraps it, applies a test fault's drift, and reads
 * it at the edge of a tick: it reads until the count changes, and the edge
 * lies after the start of the last read that saw the old count and before
 * the end of the first that saw the new one.  That span is the read's
 * uncertainty, not the counter's tick; of EDGE_TRIES edges the tightest is
 * kept, since a read held up (an SMI, a descheduled vCPU) widens its span. */
#ifndef PROBE_WATCH_SAMPLER_H
#define PROBE_WATCH_SAMPLER_H

#include <stdint.h>
#include "probe/counter.h"
#include "probe/watch.h"

struct watch_source {
	const struct counter *c; /* NULL: the TSC */
	uint64_t last_raw;
	uint64_t last_tsc;       /* when last_raw was read */
	double count;            /* unwrapped */
	double base;             /* the count at the first sample: a drift fault scales from it */
	double drift;            /* the rate the watch sees it at: 1 + ppm/10^6, 1 without a fault */
	double tick_cycles;
};

struct watch_sampler {
	struct watch *w;
	struct watch_source src[WATCH_MAX_CLOCKS];
	uint64_t (*tsc)(void *ctx); /* the TSC as the watch reads it (with any step fault) */
	void *tsc_ctx;
	uint64_t start;             /* the TSC at the first sample: a TSC drift fault scales from it */
	uint64_t max_loops;         /* bound on an edge's wait, should nothing tick */
};

/* w initialised (watch_init); the TSC is clock 0, with drift (1: none). */
void watch_sampler_init(struct watch_sampler *s, struct watch *w, uint64_t (*tsc)(void *ctx), void *tsc_ctx,
			double tsc_drift, uint64_t max_loops);
/* One more clock, read through c; false when the watch is full. */
bool watch_sampler_add(struct watch_sampler *s, const char *name, const struct counter *c, double drift);
/* The TSC as the watch sees it. */
uint64_t watch_sampler_tsc(struct watch_sampler *s);
/* Every counter read once, to unwrap it: at least twice a wrap period. */
void watch_sampler_poll(struct watch_sampler *s);
/* One sample of every clock, handed to watch_sample. */
void watch_sampler_sample(struct watch_sampler *s);
/* One look at every clock, rd[i] for clock i, kept out of the model's
 * windows (a VM event's, probe/watch_event.h); after the first sample. */
void watch_sampler_read(struct watch_sampler *s, struct watch_read *rd);

#endif
