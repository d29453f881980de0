/* SPDX-License-Identifier: BSD-2-Clause */
/* The watch's records (docs/log-format.md, "The watch") and its lines on
 * the screen: one writer for the image and for `tickprobe os --watch`. */
#ifndef PROBE_RECORDS_WATCH_H
#define PROBE_RECORDS_WATCH_H

#include "probe/log.h"
#include "probe/options.h"
#include "probe/watch.h"
#include "probe/watch_event.h"

/* watch_begin: the clocks, the reference, the CPUs followed, the faults
 * (o may be NULL: none). */
void record_watch_begin(struct log *l, const struct watch *w, const struct options *o, unsigned cpus);
/* watch_segment k, which ended at t_s: each clock's rate, each CPU's offset. */
void record_watch_segment(struct log *l, const struct watch *w, unsigned k, double t_s);
/* watch: the whole watch's conclusions; e: the VM events' line (NULL, or
 * port 0: not asked for). */
void record_watch(struct log *l, const struct watch *w, const struct watch_verdict *v, const struct watch_events *e);
/* watch_event: one VM event and what every clock did across it (v NULL:
 * it never ended). */
void record_watch_event(struct log *l, const struct watch *w, const struct watch_event *ev,
			const struct watch_event_verdict *v);
/* A watch asked for and not run: why. */
void record_watch_skipped(struct log *l, uint32_t watch_s, const char *why);

/* "watch 3/32, 56.2 s: tsc +12.300, hpet -0.100, … ppm; CPU offsets -4..12 cycles" */
void watch_segment_text(const struct watch *w, unsigned k, double t_s, char *buf, unsigned cap);

#endif
