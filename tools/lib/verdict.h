/* SPDX-License-Identifier: BSD-2-Clause */
/* The hardware's verdicts from one bare-metal run (a probe log): is the TSC
 * fit to keep time on every CPU, what Linux and FreeBSD would choose on this
 * machine and why, and which correct counter is the cheapest to read here.
 * Shared by `tickprobe doctor`, `show` and `report`. */
#ifndef TOOLS_LIB_VERDICT_H
#define TOOLS_LIB_VERDICT_H

#include <stdbool.h>
#include <stdio.h>
#include "tools/lib/logset.h"

/* Linux's clocksource watchdog (kernel/time/clocksource.c) allows each of
 * the two clocks an uncertainty of 125 µs over its 0.5 s interval: 500 ppm. */
#define VERDICT_WATCHDOG_PPM 500.0
#define VERDICT_EVIDENCE_MAX 12

enum tsc_verdict { TV_UNKNOWN, TV_RELIABLE, TV_UNRELIABLE };

struct verdict_cost {          /* one counter of the bare run */
	const char *name;          /* "tsc", "hpet", "acpi-fast", "i8254" */
	bool measured, healthy;
	double p50_ns;
};

struct bare_verdict {
	enum tsc_verdict tsc;
	char reason[240];          /* the verdict in one sentence */
	bool invariant_known, invariant;
	int cpus;                  /* CPUs measured by tsc_sync (1: none to compare) */
	int sync;                  /* 1 synchronised, 0 not, -1 not known */
	int bad_cpu, bad_ref;      /* the worst pair, when not synchronised */
	double bad_offset_cycles, bad_uncertainty_cycles, bad_offset_ns;
	long warps;
	bool linux_marks_at_boot;  /* tsc_sync.c's warp test with CPU 0 fails */
	double tsc_hz, linux_hz;
	const char *watchdog_ref;  /* "hpet" or "acpi_pm": the reference Linux would use */
	bool rate_known;
	double rate_ppm;           /* the TSC against watchdog_ref, as Linux would see it */
	double rate_err_ppm;
	char hypervisor[40];
	struct verdict_cost cost[4];
	/* the conclusions */
	char linux_cs[16], linux_why[320];
	char freebsd_tc[16], freebsd_why[320];
	char cheapest[16], cheapest_why[320];
	char evidence[VERDICT_EVIDENCE_MAX][240];
	int nevidence;
};

const char *tsc_verdict_name(enum tsc_verdict v); /* "reliable", "unreliable", "unknown" */

/* Everything above from one run of a bare-metal log. */
void bare_verdict(const struct lrun *r, struct bare_verdict *v);

/* The "Verdicts" section as text lines, each starting with indent. */
void bare_verdict_print(FILE *o, const struct bare_verdict *v, const char *indent);

/* The same as one JSON object: tsc_verdict, reason, linux {clocksource,
 * why}, freebsd {timecounter, why}, cheapest {counter, why}, evidence. */
void bare_verdict_json(FILE *o, const struct bare_verdict *v);

/* The probe counter Linux's clocksource reads ("hpet" → "hpet", "acpi_pm" →
 * "acpi-fast", "tsc"/"tsc-early" → "tsc"), or NULL. */
const char *verdict_counter_of(const char *cs);

#endif
