/* SPDX-License-Identifier: BSD-2-Clause */
/* The clock calls `tickprobe os` measures, and how it tells whether each one
 * stayed in the vDSO or entered the kernel. */
#ifndef TOOLS_OS_CALLS_H
#define TOOLS_OS_CALLS_H

#include <stdbool.h>
#include <stdint.h>
#include "tools/os/bench.h"

enum os_call_id {
	OS_CALL_MONO,        /* clock_gettime(CLOCK_MONOTONIC) */
	OS_CALL_MONO_RAW,    /* clock_gettime(CLOCK_MONOTONIC_RAW) */
	OS_CALL_REALTIME,    /* clock_gettime(CLOCK_REALTIME) */
	OS_CALL_MONO_COARSE, /* clock_gettime(CLOCK_MONOTONIC_COARSE) */
	OS_CALL_GTOD,        /* gettimeofday() */
	OS_CALL_TIME,        /* time() */
	OS_CALL_SYSCALL,     /* syscall(SYS_clock_gettime, CLOCK_MONOTONIC): always the kernel, the reference */
	OS_NCALLS
};

struct os_call {
	const char *call;   /* the `call` member of the record: "clock_gettime(MONOTONIC)" */
	const char *method; /* in words */
	os_sampler_fn sample;
	os_block_fn block;
};

extern const struct os_call os_calls[OS_NCALLS];

/* vDSO or kernel, by counting system calls.  A child process installs a
 * seccomp filter that makes clock_gettime, gettimeofday and time fail with
 * EDOM, then makes each call `calls` times: a call that entered the kernel
 * (directly, or through the vDSO's own fallback) fails, one served by the
 * vDSO succeeds.  The syscall() reference must fail every time, which checks
 * the filter.  Needs no privilege; only the child is filtered. */
struct os_vdso_probe {
	bool ok;            /* the method worked (else why says why) */
	char why[160];
	uint32_t calls;     /* calls made of each kind */
	uint32_t syscalls[OS_NCALLS]; /* how many of them entered the kernel */
	bool vdso_mapped;   /* the kernel gave this process a vDSO (AT_SYSINFO_EHDR) */
};
void os_vdso_probe(struct os_vdso_probe *p, uint32_t calls);

/* calls per second of `calls` back-to-back clock_gettime(CLOCK_MONOTONIC)
 * calls, timed with the TSC (so the figure does not depend on the clock
 * being measured). */
double os_loop_rate(uint32_t calls, double hz);

/* Gaps in ns between successive clock_gettime(CLOCK_MONOTONIC) results:
 * `samples` gaps into h; results that went backwards are counted, not added. */
void os_gaps(struct hist *h, uint32_t samples, uint64_t *backwards);

#endif
