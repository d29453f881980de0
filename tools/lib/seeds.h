/* SPDX-License-Identifier: BSD-2-Clause */
/* The seeds' own figures, per clocksource of a `tickprobe os` log:
 *
 *   - calls per second of clock_gettime(MONOTONIC) in a loop (`rate`
 *     records: `runs`, one figure per run), each clocksource against the
 *     first one, ministat-style;
 *   - the five most common gaps between successive results (`gaps`
 *     records: `modes`, [[ns, count], …]);
 *   - the context-switch rate of a pipe ping-pong (`ctxsw` records:
 *     `switches_per_s`, per-round `runs`).
 *
 * `tickprobe compare` prints them as text (seeds_print) and `tickprobe
 * report` as HTML (tools/report/seeds.c), from the rows built here, so the
 * two always show the same figures. */
#ifndef TOOLS_LIB_SEEDS_H
#define TOOLS_LIB_SEEDS_H

#include <stdio.h>
#include <stddef.h>
#include "tools/lib/logset.h"

struct seed_row {
	const char *clocksource;
	size_t os_log;            /* index into the runs given */
	const struct lrun *run;
	const struct lr_node *rate, *gaps, *ctxsw, *contention; /* NULL when the log lacks one */
};

struct seeds {
	struct seed_row *rows;
	size_t n;
};

/* Every clocksource of every OS run, in order: the runs, then the order
 * the clocksources' records appear in.  0, or -1 when out of memory. */
int seeds_build(const struct lrun *const *runs, size_t nruns, struct seeds *out);
void seeds_free(struct seeds *s);

/* The numbers of a JSON array, malloc'd into *out; how many (0: *out NULL). */
size_t seeds_numbers(const struct lr_node *arr, double **out);

/* The name a row goes by in a comparison: "acpi_pm", or "acpi_pm@LOG" when
 * rows come from more than one log. */
void seeds_label(const struct seeds *s, size_t i, char *buf, size_t cap);

/* The three figures as text, after one heading; nothing when no row has
 * any.  conf: the confidence level in percent. */
void seeds_print(FILE *out, const struct seeds *s, double conf);

#endif
