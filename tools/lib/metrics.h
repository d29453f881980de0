/* SPDX-License-Identifier: BSD-2-Clause */
/* What runs measured, as Prometheus metrics: the text exposition format that
 * node_exporter's textfile collector reads (`tickprobe os --prometheus`), or
 * OpenMetrics (`tickprobe export --format openmetrics`).  Units are the base
 * units Prometheus asks for (seconds, hertz, ratios); every label value from
 * a log is escaped and cut short.  The metrics (docs/metrics.md):
 *   tickprobe_read_cost_seconds{counter,quantile}    a read's p50 and p99
 *   tickprobe_clock_healthy{counter}
 *   tickprobe_clock_gettime_seconds{clocksource}     its p50, per clocksource
 *   tickprobe_clocksource_info{clocksource}          the kernel's current one
 *   tickprobe_tsc_frequency_hertz
 *   tickprobe_tsc_reliable                           1 or 0; absent when unknown
 *   tickprobe_watch_rate_offset_ratio{clock}         a watch's rates and drifts
 *   tickprobe_watch_drift_ratio_per_hour{clock}
 *   tickprobe_watch_odd_clock_info{clock}            the clock at fault, or "none" */
#ifndef TOOLS_LIB_METRICS_H
#define TOOLS_LIB_METRICS_H

#include <stdbool.h>
#include <stdio.h>
#include "tools/lib/logset.h"

struct metrics_run {
	const struct lrun *r;
	const char *log; /* its log="…" label, or NULL: none (a single run) */
};

struct metrics_opts {
	bool openmetrics; /* OpenMetrics (# UNIT, # EOF); else the text format */
};

void metrics_write(FILE *o, const struct metrics_run *runs, size_t n, const struct metrics_opts *mo);
/* `tickprobe export --format openmetrics|prometheus`: every run of every log
 * (or only run only_run of each, when not 0) on stdout, each labelled with
 * its log; the worst of the logs' exit statuses. */
int metrics_export(char *const *paths, size_t n, bool openmetrics, long only_run);

#endif
