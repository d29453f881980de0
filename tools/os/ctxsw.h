/* SPDX-License-Identifier: BSD-2-Clause */
/* Context switches: a pipe ping-pong between this process and a child, both
 * pinned to one CPU, so every one-byte hand-over is a switch. */
#ifndef TOOLS_OS_CTXSW_H
#define TOOLS_OS_CTXSW_H

#include <stdbool.h>
#include <stdint.h>
#include "tools/os/bench.h"

struct os_ctxsw {
	bool ok;
	char why[160];
	int cpu;
	int nrounds;
	uint32_t batches, trips;     /* per round: batches of `trips` round trips (2 switches each) */
	uint64_t switches;           /* over every round */
	double seconds;
	double round_p50_ns[OS_MAX_ROUNDS];  /* median batch, ns per switch */
	double round_mean_ns[OS_MAX_ROUNDS]; /* the round's time / its switches */
	double round_per_s[OS_MAX_ROUNDS];   /* switches per second */
};

/* cpu: the CPU both sides run on (this process is already pinned there). */
void os_ctxsw_measure(struct os_ctxsw *c, int cpu, int rounds, uint32_t batches, uint32_t trips, double hz);

#endif
