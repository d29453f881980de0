/* SPDX-License-Identifier: BSD-2-Clause */
/* The multi-CPU records of one run (docs/log-format.md: cpus, team_check,
 * tsc_sync, tsc_sync_pairs, percpu, the timers measured on another core
 * type, contention, latency), gathered once for show, compare and report,
 * with the figures all three print: the TSC sync pair with the largest
 * offset, the pairs that break the rule, the spread of the per-CPU costs.
 *
 * A record that failed its checksum is not here.  Where one is missing, the
 * damaged lines in its place are found from the order the probe writes the
 * records in (smp_left_out), so a reader can say "left out: line 21" instead
 * of showing nothing, or worse, a verdict from another record. */
#ifndef TOOLS_LIB_SMPREC_H
#define TOOLS_LIB_SMPREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tools/lib/logset.h"

/* The counters the probe contends are three (hpet, acpi-fast, tsc); room
 * for more without a limit that a newer probe would hit at once. */
#define SMP_MAX_CONTENTION 16
/* The whole table again on up to 7 other core types: 11 counters each. */
#define SMP_MAX_TIMERS_ON 128
/* tsc_sync_pairs records: 512 pairs each; 256 CPUs in matrix mode make
 * 32,640 pairs, 64 records. */
#define SMP_MAX_PAIR_RECS 128
/* Damaged lines attributed to the multi-CPU records. */
#define SMP_MAX_LEFT_OUT 32

/* The sections, in the order the probe writes them. */
enum smp_kind {
	SMP_CPUS,
	SMP_TEAM,
	SMP_SYNC,
	SMP_SYNC_PAIRS,
	SMP_PERCPU,
	SMP_TIMER_ON,
	SMP_CONTENTION,
	SMP_LATENCY,
	SMP_KINDS
};

/* A damaged record line where a multi-CPU record belongs: `kinds` is the
 * set (1 << enum smp_kind) of the records it may have been. */
struct smp_left_out {
	uint32_t line;
	unsigned kinds;
};

struct smp_view {
	const struct lr_node *cpus, *team, *sync, *percpu, *latency;
	const struct lr_node *contention[SMP_MAX_CONTENTION];
	size_t ncontention;
	const struct lr_node *timers_on[SMP_MAX_TIMERS_ON]; /* timer records with a `cpu` member */
	size_t ntimers_on;
	const struct lr_node *pair_recs[SMP_MAX_PAIR_RECS];  /* tsc_sync_pairs, in the log's order */
	size_t npair_recs;
	long started;   /* cpus.started, or -1 without a cpus record */
	long count;     /* cpus.count, or -1 */
	struct smp_left_out left_out[SMP_MAX_LEFT_OUT];
	size_t nleft_out;
};

/* Gathers the run's multi-CPU records.  Returns true when there is anything
 * to say about CPUs at all: a cpus record, or a damaged line in its place. */
bool smp_view_load(struct smp_view *v, const struct lrun *r);
/* More than one CPU ran: the multi-CPU sections apply. */
bool smp_multi(const struct smp_view *v);

/* The record kinds of a damaged line's `kinds`, in words: "tsc_sync",
 * "contention or latency". */
const char *smp_kinds_text(unsigned kinds, char *buf, size_t cap);
/* What a left-out line was by its place, with its article: "the tsc_sync
 * record", "a contention or latency record". */
const char *smp_left_out_what(const struct smp_left_out *lo, char *buf, size_t cap);
/* The damaged lines that may have been a record of `kind`, as
 * "line 21" / "lines 21, 24"; returns how many (0: buf is ""). */
size_t smp_left_out_lines(const struct smp_view *v, enum smp_kind kind, char *buf, size_t cap);
/* The record type name of a kind ("tsc_sync"). */
const char *smp_kind_name(enum smp_kind kind);

/* ---- tsc_sync ------------------------------------------------------------ */

/* The k-th pair over tsc_sync.pairs and every tsc_sync_pairs record, NULL
 * past the last. */
const struct lr_node *smp_pair_at(const struct smp_view *v, size_t k);

struct smp_sync_summary {
	size_t pairs;          /* pairs read */
	size_t measured;       /* with an offset and its uncertainty */
	size_t outside;        /* |offset| > uncertainty */
	size_t warped;         /* pairs with warps */
	size_t incomplete;     /* complete: false */
	size_t adjusted;       /* TSC_ADJUST present and not 0 */
	const struct lr_node *largest;     /* the measured pair with the largest |offset| */
	const struct lr_node *worst_out;   /* of those outside, the largest |offset| - uncertainty */
	bool pairs_short;      /* fewer pairs read than pairs_total says */
	bool consistent;       /* `synchronized` agrees with the rule applied to the pairs read */
};
void smp_sync_summary(const struct smp_view *v, struct smp_sync_summary *s);
/* A pair's members, false when absent or null. */
bool smp_pair_offset(const struct lr_node *pair, int64_t *offset, uint64_t *uncertainty);
/* "synchronized", "NOT synchronized", "not known", "no record" */
const char *smp_sync_word(const struct smp_view *v);

/* ---- percpu -------------------------------------------------------------- */

struct smp_spread {
	size_t n;              /* CPUs with a value */
	double min, median, max;
	size_t min_cpu, max_cpu;
	bool ns;               /* the values are ns (else cycles: no TSC rate) */
};
/* Over percpu's `<prefix>_p50_ns` (or `_cycles` without ns) entries:
 * prefix a counter's name ("tsc", "rdtscp", "lapic").  False when none. */
bool smp_percpu_spread(const struct smp_view *v, const char *prefix, struct smp_spread *s);
/* The counters percpu has columns for, in its order (each `NAME_p50_cycles`):
 * up to cap names; returns how many. */
#define SMP_PERCPU_MAX 8
size_t smp_percpu_counters(const struct smp_view *v, char names[][32], size_t cap);
/* CPU cpu's p50 in ns of a counter ("tsc"): percpu's `<counter>_p50_ns`. */
bool smp_percpu_ns(const struct smp_view *v, const char *counter, size_t cpu, double *out);

/* ---- cpus ---------------------------------------------------------------- */

/* The cpus.list entry of multi-CPU index `cpu`, or NULL. */
const struct lr_node *smp_cpu_entry(const struct smp_view *v, long cpu);

/* ---- contention ---------------------------------------------------------- */

/* The contention record of `counter`, or NULL. */
const struct lr_node *smp_contention(const struct smp_view *v, const char *counter);
/* Its readers level with n readers spread out, or NULL: never the level of
 * two SMT siblings, a second experiment with 2 readers. */
const struct lr_node *smp_level(const struct lr_node *contention, uint64_t n);
/* A readers level of two SMT siblings of one core (`siblings`). */
bool smp_level_siblings(const struct lr_node *level);
/* An overlap below this and the level's readers did not read at the same
 * time: no contention (probe/contention.h, CONTENTION_CONCURRENT). */
#define SMP_CONCURRENT 0.5
/* 1: the readers overlapped (or there was one); 0: they did not, the level
 * is no contention; -1: not known (no overlap: schema before it, or null). */
int smp_level_concurrent(const struct lr_node *level);
/* Whether any level of the record says its overlap (newer probes do). */
bool smp_has_overlap(const struct lr_node *contention);

#endif
