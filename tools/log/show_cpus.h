/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe show`: the CPUs of a run and what only many CPUs measure (the
 * multi-CPU records, tools/lib/smprec.h), as text and as JSON members. */
#ifndef TOOLS_SHOW_CPUS_H
#define TOOLS_SHOW_CPUS_H

#include <stdio.h>
#include "tools/lib/logset.h"

/* The CPU list (one line per CPU, or per group of alike CPUs past 16),
 * the TSC sync verdict, the per-CPU cost, the counters on other core types,
 * contention and latency; a damaged record in their place is named. */
void show_cpus_text(FILE *o, const struct lrun *r);
/* The same records embedded whole, as members after a comma:
 * ,"cpus":…,"team_check":…,"tsc_sync":…,"tsc_sync_pairs":[…],"percpu":…,
 * "timers_on_cpus":[…],"contention":[…],"latency":…,"cpu_records_left_out":[…] */
void show_cpus_json(FILE *o, const struct lrun *r);

#endif
