/* SPDX-License-Identifier: BSD-2-Clause */
/* The measurement records of the log (docs/log-format.md) and the screen's
 * results table: one place that turns a measurement into what people read. */
#ifndef PROBE_RECORDS_H
#define PROBE_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "probe/core_clock.h"
#include "probe/counter.h"
#include "probe/hist.h"
#include "probe/log.h"
#include "probe/log_schema.h"
#include "probe/measure.h"

struct freq_check {
	bool valid;
	uint64_t nominal_hz;
	double measured_hz, ppm, err_ppm;
	bool reference; /* this counter calibrated the TSC: its ppm is 0 by construction */
};

/* The one writer of `timer` records, for the image and for `tickprobe os`:
 * a neutral description of what was read and of what was measured, with no
 * struct counter needed, so both sides write the same members by the same
 * rules. */
struct timer_what {
	const char *name;
	const char *call;        /* the OS side: the call made ("rdtsc", "clock_gettime(MONOTONIC)");
	                          * NULL in the image, and then call and clocksource are not written */
	const char *clocksource; /* with call: NULL gives null */
	bool present, healthy;
	const char *reason;      /* when not healthy; NULL or "" gives "not measured" */
	const char *note;        /* NULL or "": none */
	const char *method;
	unsigned width;          /* 0 gives null */
	uint64_t address;        /* 0: not written */
	int insns;               /* < 0: not written (an OS call has no fixed count) */
	/* Members of the caller's own, written after insns (the image's cpu, the
	 * OS side's vdso). */
	void (*more)(struct put_timer t, const void *ctx);
	const void *more_ctx;
};

struct timer_figures {
	const struct hist *cost;   /* every sample, overhead subtracted, cycles */
	uint32_t samples_requested;
	uint64_t clamped;          /* samples below the overhead, counted as 0 */
	uint64_t tp_reads, tp_cycles;
	uint32_t rounds;
	const double *round_p50_ns, *round_mean_ns; /* NaN gives null */
	bool has_delta;            /* write the delta member (the image); the OS side has none */
	const struct delta_summary *delta; /* with has_delta: NULL gives null */
	const uint64_t *largest;   /* the largest samples, exact, largest first */
	int n_largest;
	const struct freq_check *freq; /* NULL or !valid gives null; err_ppm NaN gives null */
	bool smi_valid;
	uint64_t smi_before, smi_after;
	/* The image: write core_clock (null when !core_valid) and, where its
	 * ratio is known, cost_core_cycles.  The OS side has none. */
	bool has_core;
	bool core_valid;
	struct core_clock core;
};

/* Writes the "hist" member (and whatever qualifies it) of a timer record.
 * Returns true when it holds every bin exactly: the five most common costs
 * then follow from it and are not written again as "modes" (schema 2). */
typedef bool (*timer_hist_fn)(struct put_timer t, const struct hist *h, const void *ctx);

/* The members of one timer record, into a record just begun (put_record_timer).
 * f NULL, or w not healthy, or no samples: the short record of a counter not
 * measured.  The caller ends the record, or begins it again with a smaller
 * histogram when j->overflow says it did not fit. */
void timer_members(struct put_timer t, const struct timer_what *w, const struct timer_figures *f, timer_hist_fn hist,
		   const void *hist_ctx);

/* Per-round values as schema 2 writes them: {"p50":[…],"mean":[…]}, one
 * column per metric; NaN gives null.  Closes c. */
void write_rounds(struct put_rounds_columns c, const double *p50_ns, const double *mean_ns, uint32_t n);

/* Samples above ten times the p50; a p50 of 0 (a read no dearer than the
 * harness) counts as 1 cycle, the histogram's resolution. */
uint64_t timer_over_10x_p50(const struct hist *h);

/* The image's timer record: a counter that was measured (r, cost, f), or,
 * with s->healthy false and a reason, the short record of a skipped counter
 * (r and cost unused). */
void record_timer(struct log *l, const struct counter *c, const struct counter_state *s,
		  const struct measure_result *r, const struct hist *cost, const struct freq_check *f,
		  double tsc_hz, uint32_t samples);
/* The same, measured on CPU cpu (its index in the cpus record), which the
 * record names as "cpu"; cpu < 0: the boot CPU, and no "cpu" member. */
void record_timer_on(struct log *l, int cpu, const struct counter *c, const struct counter_state *s,
		     const struct measure_result *r, const struct hist *cost, const struct freq_check *f,
		     double tsc_hz, uint32_t samples);
/* The harness overhead: the chosen bracket's distribution, and how every
 * candidate bracket's per-round minimum held still (the choice's reason);
 * hist_bounds: also the histogram's exact range and relative error
 * (tickprobe os writes them). */
struct overhead_candidate {
	const char *sequence;
	uint64_t min, p50, round_min_spread;
};
void record_overhead(struct log *l, const char *sequence, const struct hist *cost, uint64_t subtracted,
		     const struct overhead_candidate *cand, int n_cand, bool hist_bounds);
/* Raw per-read costs (preset verbose), in chunks of at most 1000 values. */
void record_samples(struct log *l, const char *name, const uint32_t *raw, uint32_t n);

/* A cost's members {min,p50,mean,sd,p99,p999,max} in cycles (the ns follow
 * from the tsc record's hz: docs/log-format.md, "Derived members"); closes c. */
void write_cost(struct put_cost c, const struct hist *h);

/* The results table: a header and one row per counter. */
int table_header(char *buf, size_t cap);
int table_row(char *buf, size_t cap, const struct counter *c, const struct counter_state *s,
	      const struct measure_result *r, const struct hist *cost, double tsc_hz);

#endif
