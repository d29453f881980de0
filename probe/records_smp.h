/* SPDX-License-Identifier: BSD-2-Clause */
/* The log records of the multi-CPU measurements (docs/log-format.md):
 * tsc_sync (and tsc_sync_pairs), percpu, contention, latency.  Per-CPU data
 * is kept compact, parallel arrays where it can be, so that 8 CPUs cost a
 * few kilobytes of serial output and 256 still fit a record each. */
#ifndef PROBE_RECORDS_SMP_H
#define PROBE_RECORDS_SMP_H

#include "probe/contention.h"
#include "probe/latency.h"
#include "probe/log.h"
#include "probe/percpu.h"
#include "probe/tsc_sync.h"

/* Pairs per record: 512 at about 40 bytes each (as columns) stays well
 * inside LOG_RECORD_MAX; a matrix of many CPUs continues in tsc_sync_pairs. */
#define TSC_SYNC_PAIRS_PER_RECORD 512

void record_tsc_sync(struct log *l, const struct tsc_sync_result *r, const struct smp_env *e);
void record_percpu(struct log *l, const struct percpu_result *r); /* cycles: the ns are derived */
void record_contention(struct log *l, const struct contention_result *r, double tsc_hz);
void record_latency(struct log *l, const struct latency_result *r);

#endif
