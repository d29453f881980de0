/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe show`: the CPUs of a run and what only many CPUs measure (the
 * multi-CPU records, tools/lib/smprec.h), as text and as JSON members. */
#ifndef TOOLS_SHOW_CPUS_H
#define TOOLS_SHOW_CPUS_H

#include <stdio.h>
#include "tools/lib/logset.h"
#include "tools/lib/smprec.h"

/* The CPU list (one line per CPU, or per group of alike CPUs past 16),
 * the TSC sync verdict, the per-CPU cost, the counters on other core types,
 * contention and latency; a damaged record in their place is named. */
void show_cpus_text(FILE *o, const struct lrun *r);
/* The same records embedded whole, as members after a comma:
 * ,"cpus":…,"team_check":…,"tsc_sync":…,"tsc_sync_pairs":[…],"percpu":…,
 * "timers_on_cpus":[…],"contention":[…],"latency":…,"cpu_records_left_out":[…] */
void show_cpus_json(FILE *o, const struct lrun *r);

/* Shared by show_cpus.c and show_cpus_levels.c: a string member as shown
 * (escaped into b), or `none`; "  (text)" after a line's figures for a
 * string member, nothing else; a section's "line N was damaged and left
 * out" lines; the contention and latency sections. */
void show_cpus_left_out(FILE *o, const struct smp_view *v, enum smp_kind k, const char *label);
const char *show_cpus_str(char *b, size_t cap, const struct lr_node *n, const char *none);
void show_cpus_aside(FILE *o, const struct lr_node *n);
void show_cpus_contention(FILE *o, const struct smp_view *v);
void show_cpus_latency(FILE *o, const struct smp_view *v);

#endif
