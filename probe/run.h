/* SPDX-License-Identifier: BSD-2-Clause */
/* The run: the sequence of steps that makes a log, on any platform
 * (probe/platform.h).  All its state is one struct run; its big buffers come
 * from the platform's allocator, so they are never stored zeroes in a binary.
 *
 * The steps, in order (run_steps in run.c): the consoles (the options are the
 * boot's, parsed once by its entry path: probe/platform.h), the begin
 * record, the machine, ACPI, the counters' setup, their checks, the TSC
 * calibration, the bracket choice, the plan, the measurements, the end.  A
 * new step (TSC synchronisation across CPUs, say) is one more entry there. */
#ifndef PROBE_RUN_H
#define PROBE_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include "acpi/acpi.h"
#include "probe/calibrate.h"
#include "probe/hist.h"
#include "probe/log.h"
#include "probe/measure.h"
#include "probe/options.h"
#include "probe/platform.h"

#define RUN_MAX_COUNTERS 32
#define RUN_MAX_CALIBRATORS 16 /* the TSC's calibrators, then the rated counters (run_clocks.c) */
#define RUN_MAX_PROBLEMS 4
#define RUN_PROBLEM_LEN 384     /* room for the list of every counter's name */
#define RUN_MAX_RAW 100000u  /* raw costs kept per counter: raw=N's upper bound */
#define RUN_DELTA_READS 16384u

/* One counter as the run sees it. */
struct run_counter {
	const struct counter *c;             /* the driver's descriptor, or stuck below */
	struct counter_state s;
	const struct counter_desc *desc;     /* its driver's, constant */
	const struct counter_driver *driver;
	bool wanted;                         /* selected by counters= (or all) */
	int cal;                             /* its rate's calibrator in run.cal, or -1 */
	struct counter stuck;                /* stuck=NAME: the descriptor with a constant read */
	struct slowed_counter {              /* fault=slow: the descriptor with a slower read */
		struct counter c;                /* first: the read gets a pointer to it */
		struct counter_desc desc;        /* c's: its desc but for the instruction count */
		counter_read_fn read;
		uint32_t spins;
	} slowed;
};

struct run {
	const struct platform *p;
	const char *step; /* what the run is doing: named in an exception record */
	char step_buf[64];

	const struct options *opt; /* the boot's (boot_facts.opt), parsed once by the entry path */
	int n_problems; /* the run's own option problems, after options.c's */
	char problems[RUN_MAX_PROBLEMS][RUN_PROBLEM_LEN];

	struct console consoles[PLATFORM_MAX_CONSOLES];
	unsigned n_consoles;
	bool serial_open;

	struct probe_clock clock;
	struct acpi_info acpi;

	unsigned n;
	struct run_counter counters[RUN_MAX_COUNTERS];
	int n_cal;          /* calibrators in cal[], the rated counters' included */
	int n_tsc_cal;      /* of which the first n_tsc_cal time the TSC */
	struct calibrator cal[RUN_MAX_CALIBRATORS];
	struct tsc_choice tsc;
	const struct team *team;       /* every CPU that runs; NULL before run_cpus_start */
	struct smp_env *smp;           /* the multi-CPU measurements' view of them */
	uint64_t subtract;
	bool some_absent;
	bool fault_done;
	bool finishing;     /* run_finish has begun: an exception there only halts */
	double core_ratio_lo, core_ratio_hi; /* APERF/MPERF over the measurements; 0: none seen */

	struct measure_result result;
	/* From the platform's allocator. */
	struct log *log;
	struct hist *cost, *round;
	uint32_t *raw;                 /* RUN_MAX_RAW */
	uint64_t *delta_values;        /* RUN_DELTA_READS */
};

/* Runs the whole sequence and never returns: it ends in p->halt. */
__attribute__((noreturn)) void run_probe(const struct platform *p);

/* Steps and helpers shared by the run's files (run.c, run_counters.c,
 * run_measure.c). */
__attribute__((format(printf, 2, 3))) void run_text(struct run *r, const char *fmt, ...);
__attribute__((noreturn)) void run_finish(struct run *r, const char *status);
void run_option_problem(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void run_counters_select(struct run *r);   /* counters=, stuck= against the names */
void run_counters_setup(struct run *r);    /* every driver's attach */
void run_counters_check(struct run *r);
void run_calibrate(struct run *r);
void run_rates(struct run *r);             /* the rated counters' rates (run_clocks.c) */
bool run_calibrate_from_rated(struct run *r); /* run_clocks.c: when nothing else timed the TSC */
void run_choose_bracket(struct run *r);
void run_plan(struct run *r);
void run_measure(struct run *r);
/* One counter's measurement into r->result, r->cost and r->raw (up to
 * raw_cap), on whichever CPU calls it; it writes no record. */
void run_measure_counter(struct run *r, struct run_counter *rc, uint32_t raw_cap);
void run_cpus_start(struct run *r);        /* run_cpus.c */
void run_cpus_measure(struct run *r);
void run_watch(struct run *r);            /* run_watch.c: watch=DURATION */

/* The counter named name, or NULL. */
struct run_counter *run_counter_named(struct run *r, const char *name);
/* To be measured, or needed healthy by one that is, or a TSC calibrator. */
bool run_counter_in_use(struct run *r, const struct run_counter *rc);
/* The reads a counter is measured with: samples, or fewer for a slow one. */
uint32_t run_samples(const struct run *r, const struct run_counter *rc);
/* Its prepare (counter_desc.prepare), when it has one. */
void run_prepare(struct run *r, const struct run_counter *rc);
/* Every driver's settle, in the list's order. */
void run_settle(struct run *r);
/* Named in counters= (not merely selected because no name was known). */
bool run_counter_asked(const struct run *r, const struct run_counter *rc);
/* Absent on this machine by design (counter_state.by_design) and not
 * named in counters=: the run is not ok-absent for it. */
bool run_absent_by_design(const struct run *r, const struct run_counter *rc);
/* The core clock of one measurement, for the line under the table; then
 * that line and the line of the counters absent by design. */
void run_core_clock_seen(struct run *r, const struct measure_result *m);
void run_measure_footer(struct run *r);

#endif
