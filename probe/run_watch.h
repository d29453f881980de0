/* SPDX-License-Identifier: BSD-2-Clause */
/* The watch step's parts (probe/run_watch.c): the loop, and the VM events
 * the host announces during it (probe/run_watch_events.c). */
#ifndef PROBE_RUN_WATCH_H
#define PROBE_RUN_WATCH_H

#include "probe/run.h"
#include "probe/tsc_sync.h"
#include "probe/watch_channel.h"
#include "probe/watch_event.h"
#include "probe/watch_sampler.h"

/* The host's line, when events=PORT asked for one. */
struct watch_vm {
	struct watch_events events;
	struct watch_channel ch;
	unsigned last_id; /* the last event's id: they come in order */
	struct watch_event_verdict verdict;
};

struct watch_run {
	struct watch w;
	struct watch_sampler ws;
	struct run *r;
	double hz;
	bool stepped;           /* fault=tsc_step applied */
	int64_t step_cpu0;      /* the step on the boot CPU's reads, once applied */
	struct tsc_sync_result *sync;
	struct tsc_pair *pairs;
	unsigned pair_cap;
	struct watch_vm vm;
};

/* Each other CPU's TSC offset from the boot CPU, by a light ping-pong,
 * handed to take (none without other CPUs). */
void watch_run_offsets(struct watch_run *wr, void (*take)(void *ctx, unsigned cpu, double offset, double u),
		       void *ctx);
/* fault=tsc_step: the step, now. */
void watch_run_step(struct watch_run *wr, double t_s);

/* Opens the host's line and says the watch began (nothing without events=). */
void watch_vm_open(struct watch_run *wr);
/* What the host sent, acted upon: t_s, the watch's time now. */
void watch_vm_poll(struct watch_run *wr, double t_s);
/* The watch is over: an event still going on is recorded unfinished. */
void watch_vm_close(struct watch_run *wr);

#endif
