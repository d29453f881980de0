/* SPDX-License-Identifier: BSD-2-Clause */
/* The records `tickprobe os` writes (docs/log-format.md, "OS-side records"). */
#ifndef TOOLS_OS_RECORD_H
#define TOOLS_OS_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include "probe/log.h"
#include "tools/os/bench.h"
#include "tools/os/ctxsw.h"

/* One `timer` record.  Members that do not apply are left at 0/NULL. */
struct os_timer_rec {
	const char *name;        /* unique in the log: "clock_gettime(MONOTONIC)@tsc", "tsc", "hpet" */
	const char *clocksource; /* NULL gives null (raw reads do not go through one) */
	const char *call;        /* "clock_gettime(MONOTONIC)", "rdtsc", "inl(pm_timer)" */
	const char *method;
	const char *note;        /* or NULL */
	uint64_t address;        /* port or physical address read; 0 gives none */
	bool present;            /* the call or counter exists here */
	bool healthy;
	const char *reason;      /* when not healthy */
	int width;               /* counter bits; <= 0 gives null */
	const struct os_dist *d; /* NULL when not healthy */
	double hz;               /* TSC Hz, for the ns figures */
	uint32_t samples_requested;
	bool has_vdso;           /* write vdso / vdso_evidence */
	int vdso;                /* 1 true, 0 false, -1 null */
	const char *vdso_method; /* "seccomp" or "cost" */
	double syscalls_per_call;/* < 0 gives null */
	uint32_t vdso_calls;
	double cost_ratio;       /* call p50 / syscall p50; < 0 gives null */
	const char *vdso_text;
	bool has_freq;           /* the freq member (else null) */
	double nominal_hz, measured_hz;
};
void os_write_timer(struct log *l, const struct os_timer_rec *r);

/* The empty bracket. */
void os_write_overhead(struct log *l, const char *sequence, const struct os_dist *d, uint64_t subtracted);

/* The call the records about one clocksource are about, and their names:
 * "KIND:clock_gettime(MONOTONIC)@CLOCKSOURCE". */
#define OS_CALL_MONOTONIC "clock_gettime(MONOTONIC)"
void os_call_name(char *buf, size_t cap, const char *kind, const char *clocksource);

/* `rate`: the seeds' loop, calls per second of each run. */
void os_write_rate(struct log *l, const char *clocksource, uint32_t calls, const double *runs, int nruns);

/* `gaps`: successive clock_gettime(MONOTONIC) results, in ns. */
void os_write_gaps(struct log *l, const char *clocksource, const struct hist *h, uint64_t backwards);

/* `ctxsw`: the pipe ping-pong. */
void os_write_ctxsw(struct log *l, const char *clocksource, const struct os_ctxsw *c);

#endif
