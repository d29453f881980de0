/* SPDX-License-Identifier: BSD-2-Clause */
/* One clocksource's measurements for `tickprobe os`: every clock call's cost
 * distribution with its vDSO verdict, the seeds' calls-per-second loop and
 * successive-call gaps, and the context-switch ping-pong; records and the
 * clocksource's part of the stderr summary. */
#ifndef TOOLS_OS_RUN_H
#define TOOLS_OS_RUN_H

#include "tools/lib/progress.h"
#include <stdint.h>
#include "probe/log.h"
#include "tools/os/threads.h"

struct os_params {
	int rounds;
	uint32_t samples;     /* per call, over all rounds */
	uint32_t tp_reads;    /* the throughput block */
	uint32_t loop_calls;  /* the seeds' loop: calls per run */
	int loop_runs;        /* at most 16 */
	uint32_t gap_samples;
	uint32_t vdso_calls;  /* calls of each kind in the seccomp child */
	uint32_t ctx_batches, ctx_trips; /* per round */
	int threads;          /* --threads: readers at once, up to this many; 0 none */
	const struct os_cpus *cpus; /* the CPUs they may use */
	struct progress *prog;      /* the progress line (tools/lib/progress.h); NULL: none */
};

/* cs: the clocksource in use (its name tags every record).  skip: when not
 * NULL, the switch to cs failed; unhealthy records say why.  Returns -1 when
 * out of memory.  *unhealthy counts what could not be measured. */
int os_measure_clocksource(struct log *l, const struct os_params *p, const char *cs, const char *skip,
			   uint64_t subtract, double hz, int cpu, int *unhealthy);

#endif
