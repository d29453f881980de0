/* SPDX-License-Identifier: BSD-2-Clause */
/* Questions asked of the whole fleet store: each counter across machines,
 * and two counters paired machine by machine (docs/db.md). */
#ifndef TOOLS_LIB_DB_QUERY_H
#define TOOLS_LIB_DB_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "tools/lib/db_store.h"

/* Quantile q (0..1) of sorted values, interpolated linearly between the
 * two nearest ranks (Hyndman and Fan's type 7: R's and numpy's default). */
double quantile_sorted(const double *v, size_t n, double q);

/* One counter across machines: the p50 of each machine (the median of its
 * runs' p50s), summarised. */
struct fleet_counter {
	char *name;
	size_t machines;
	double median, q1, q3, min, max; /* ns */
};

struct fleet_group {
	char *group;          /* NULL for the whole store */
	long long runs, machines, damaged_records;
	struct fleet_counter *counters;
	size_t ncounters;
};

/* by: NULL, "cpu", "vendor", "firmware" or "boot".  Fills *groups (one per
 * value of the grouping, or one for the whole store); returns how many, or
 * -1 with why for an unknown grouping. */
int fleet_summary(struct store *s, const char *by, struct fleet_group **groups, char *why, size_t cap);
void fleet_groups_free(struct fleet_group *g, int n);

/* Two counters on every machine that has both: Student's t on their
 * per-round values at the given confidence. */
struct pair_machine {
	long long machine_id;
	char *label;           /* machine name, or its CPU brand */
	size_t na, nb;
	double mean_a, mean_b, ratio; /* ratio = mean_a / mean_b */
	int verdict;           /* -1: A faster, 1: B faster, 0: no difference proven */
};

struct pair_result {
	struct pair_machine *m;
	size_t n;              /* machines with both, each side with >= 2 rounds */
	size_t too_few;        /* machines with both but fewer than 2 rounds on a side */
	size_t a_faster, b_faster, no_difference;
	double ratio_median, ratio_q1, ratio_q3, ratio_min, ratio_max;
};

/* metric: "p50" or "mean" (which per-round value); conf_index from
 * stats_conf_index(). */
int fleet_pair(struct store *s, const char *a, const char *b, const char *metric, int conf_index,
	       struct pair_result *out, char *why, size_t cap);
void pair_result_free(struct pair_result *r);


/* The fleet as a table: one row per machine, one column per counter, each
 * cell the machine's p50 (median over its runs), NaN where it has none. */
struct fleet_row {
	long long machine_id;
	char *label, *vendor, *firmware, *boots; /* boots: "bios,uefi" */
	long long runs, damaged_records;
	double *p50;                             /* ncounters values */
};

struct fleet_matrix {
	char **counters;
	size_t ncounters;   /* ordered by how many machines have them, then by name */
	size_t *machines_with;
	struct fleet_row *rows;
	size_t nrows;
};

int fleet_matrix(struct store *s, struct fleet_matrix *m, char *why, size_t cap);
void fleet_matrix_free(struct fleet_matrix *m);

/* A machine's runs as one log text (each run's records as logged, in the
 * order imported), malloc'd; NULL when it has none.  Every reader takes it
 * through logfile_load_mem. */
char *machine_log(struct store *s, long long machine_id, size_t *len);

#endif
