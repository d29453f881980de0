/* SPDX-License-Identifier: BSD-2-Clause */
/* The multi-CPU records (probe/records_smp.h, docs/log-format.md). */
#include "probe/records_smp.h"
#include "lib/util.h"

/* Nanoseconds from cycles; NaN (written as null) without a frequency. */
static double ns(double cycles, double tsc_hz) { return tsc_hz > 0 ? cycles * 1e9 / tsc_hz : __builtin_nan(""); }

/* ---- tsc_sync ------------------------------------------------------------ */

/* The pairs as columns, one value a pair (docs/log-format.md, "tsc_sync"):
 * the keys once rather than once a CPU.  `ref` only in matrix mode,
 * `complete` only when some pair is not. */
enum { PAIR_CPU, PAIR_REF, PAIR_OFFSET, PAIR_UNCERTAINTY, PAIR_WARPS, PAIR_MAX_WARP, PAIR_TSC_ADJUST,
       PAIR_COMPLETE, PAIR_COLUMNS };
static const char *const pair_column[PAIR_COLUMNS] = {
	"cpu", "ref", "offset_cycles", "uncertainty_cycles", "warps", "max_warp_cycles", "tsc_adjust", "complete",
};

static void pair_value(struct json *j, const struct tsc_sync_result *r, const struct tsc_pair *p, int col)
{
	switch (col) {
	case PAIR_CPU: json_u64(j, NULL, p->cpu); return;
	case PAIR_REF: json_u64(j, NULL, p->ref); return;
	case PAIR_OFFSET: p->offset_done ? json_i64(j, NULL, p->offset) : json_null(j, NULL); return;
	case PAIR_UNCERTAINTY: p->offset_done ? json_u64(j, NULL, p->uncertainty) : json_null(j, NULL); return;
	case PAIR_WARPS: json_u64(j, NULL, p->warps); return;
	case PAIR_MAX_WARP: json_u64(j, NULL, p->max_warp); return;
	case PAIR_TSC_ADJUST:
		r->tsc_adjust_valid[p->cpu] ? json_i64(j, NULL, r->tsc_adjust[p->cpu]) : json_null(j, NULL);
		return;
	default: json_bool(j, NULL, p->warp_done && p->offset_done); return;
	}
}

static void pairs_json(struct json *j, const struct tsc_sync_result *r, unsigned first)
{
	unsigned end = r->n_pairs < first + TSC_SYNC_PAIRS_PER_RECORD ? r->n_pairs : first + TSC_SYNC_PAIRS_PER_RECORD;
	bool some_incomplete = false;

	for (unsigned i = first; i < end; i++)
		some_incomplete |= !r->pairs[i].warp_done || !r->pairs[i].offset_done;
	json_object_begin(j, "pairs");
	for (int col = 0; col < PAIR_COLUMNS; col++) {
		if ((col == PAIR_REF && !r->matrix) || (col == PAIR_COMPLETE && !some_incomplete))
			continue;
		json_array_begin(j, pair_column[col]);
		for (unsigned i = first; i < end; i++)
			pair_value(j, r, &r->pairs[i], col);
		json_array_end(j);
	}
	json_object_end(j);
}

void record_tsc_sync(struct log *l, const struct tsc_sync_result *r, const struct smp_env *e)
{
	struct json *j = log_begin(l, "tsc_sync");

	if (r->verdict == TSC_VERDICT_UNKNOWN)
		json_null(j, "synchronized");
	else
		json_bool(j, "synchronized", r->verdict == TSC_VERDICT_SYNCHRONIZED);
	json_u64(j, "warps", r->warps);
	json_u64(j, "max_warp_cycles", r->max_warp);
	json_bool(j, "linux_would_mark_unstable", r->linux_would_mark_unstable);
	json_str(j, "rule", TSC_SYNC_RULE);
	json_str(j, "mode", r->matrix ? "matrix" : "boot");
	json_u64(j, "cpus", r->n_cpus);
	json_u64(j, "warp_cycles", r->cfg.warp_cycles);
	json_u64(j, "pingpongs", r->cfg.pingpongs);
	json_u64(j, "min_handoffs", r->min_handoffs);
	json_u64(j, "incomplete", r->n_incomplete + r->pairs_skipped);
	if (r->n_cpus && r->tsc_adjust_valid[0])
		json_i64(j, "boot_tsc_adjust", r->tsc_adjust[0]);
	else
		json_null(j, "boot_tsc_adjust");
	json_array_begin(j, "gone");
	for (unsigned c = 0; e && c < TEAM_MAX_CPUS; c++)
		if (e->gone[c])
			json_u64(j, NULL, c);
	json_array_end(j);
	json_u64(j, "pairs_total", r->n_pairs);
	pairs_json(j, r, 0);
	log_end(l);
	for (unsigned first = TSC_SYNC_PAIRS_PER_RECORD; first < r->n_pairs; first += TSC_SYNC_PAIRS_PER_RECORD) {
		j = log_begin(l, "tsc_sync_pairs");
		json_u64(j, "first", first);
		pairs_json(j, r, first);
		log_end(l);
	}
}

/* ---- percpu -------------------------------------------------------------- */

/* Cycles only: the ns columns follow from the tsc record's hz
 * (docs/log-format.md, "Derived members"), 7 KB less at 256 CPUs.  A pair
 * of columns per counter measured, named after it. */
static void cost_array(struct json *j, const char *name, const char *suffix, const struct percpu_cost *c,
		       unsigned n, bool p50)
{
	char key[48]; /* the longest name, "tsc-deadline", and a suffix fit */
	unsigned len = (unsigned)tp_strlen(name);

	if (len > sizeof key - 16)
		len = sizeof key - 16;
	tp_memcpy(key, name, len);
	tp_memcpy(key + len, suffix, tp_strlen(suffix) + 1);
	json_array_begin(j, key);
	for (unsigned i = 0; i < n; i++) {
		if (!c[i].measured)
			json_null(j, NULL);
		else
			json_u64(j, NULL, p50 ? c[i].p50 : c[i].min);
	}
	json_array_end(j);
}

void record_percpu(struct log *l, const struct percpu_result *r)
{
	struct json *j = log_begin(l, "percpu");

	json_u64(j, "cpus", r->n_cpus);
	json_u64(j, "samples", r->samples);
	for (unsigned k = 0; k < r->n; k++) {
		cost_array(j, r->counter[k]->name, "_p50_cycles", r->cost[k], r->n_cpus, true);
		cost_array(j, r->counter[k]->name, "_min_cycles", r->cost[k], r->n_cpus, false);
	}
	log_end(l);
}

/* ---- contention ---------------------------------------------------------- */

void record_contention(struct log *l, const struct contention_result *r, double tsc_hz)
{
	struct json *j = log_begin(l, "contention");

	json_str(j, "counter", r->counter);
	if (r->refused) {
		json_str(j, "refused", r->refused);
		log_end(l);
		return;
	}
	json_u64(j, "reads_per_reader", r->reads_per_reader);
	json_array_begin(j, "readers");
	for (unsigned i = 0; i < r->n_levels; i++) {
		const struct contention_level *lv = &r->level[i];
		bool any = lv->returned > 0;
		json_object_begin(j, NULL);
		json_u64(j, "n", lv->n);
		json_u64(j, "returned", lv->returned);
		json_fixed(j, "p50_ns", any ? ns((double)lv->p50_median, tsc_hz) : __builtin_nan(""), 1);
		json_fixed(j, "p99_ns", any ? ns((double)lv->p99_median, tsc_hz) : __builtin_nan(""), 1);
		json_fixed(j, "worst_p50_ns", any ? ns((double)lv->p50_worst, tsc_hz) : __builtin_nan(""), 1);
		json_fixed(j, "worst_p99_ns", any ? ns((double)lv->p99_worst, tsc_hz) : __builtin_nan(""), 1);
		json_fixed(j, "reads_per_s",
			   any && lv->wall_cycles && tsc_hz > 0 ? (double)lv->reads * tsc_hz / (double)lv->wall_cycles
								  : __builtin_nan(""), 0);
		json_u64(j, "backwards", lv->backwards);
		json_array_begin(j, "cpus");
		for (unsigned k = 0; k < lv->n; k++)
			json_u64(j, NULL, lv->cpus[k]);
		json_array_end(j);
		json_fixed(j, "overlap", lv->overlap, 3);
		json_bool(j, "siblings", lv->siblings);
		json_object_end(j);
	}
	json_array_end(j);
	json_u64(j, "ordered", r->ordered);
	json_u64(j, "backwards", r->backwards);
	json_u64(j, "max_backward_ticks", r->max_backward);
	json_u64(j, "same_cpu_backwards", r->same_cpu_backwards);
	log_end(l);
}

/* ---- latency ------------------------------------------------------------- */

void record_latency(struct log *l, const struct latency_result *r)
{
	struct json *j = log_begin(l, "latency");
	unsigned failed = 0, worst = 0;
	uint64_t backwards = 0;

	json_fixed(j, "seconds", r->seconds, 3);
	if (r->refused) {
		json_str(j, "refused", r->refused);
		log_end(l);
		return;
	}
	json_u64(j, "limit_ns", LATENCY_LIMIT_NS);
	json_array_begin(j, "bins_ns");
	for (unsigned b = 0; b < LATENCY_BINS - 1; b++)
		json_fixed(j, NULL, ns((double)r->edge[b], r->tsc_hz), 0);
	json_array_end(j);
	json_u64(j, "cpus", r->n_cpus);
	json_array_begin(j, "bins");
	for (unsigned c = 0; c < r->n_cpus; c++) {
		if (!r->cpu[c].done) {
			json_null(j, NULL);
			continue;
		}
		json_array_begin(j, NULL);
		for (unsigned b = 0; b < LATENCY_BINS; b++)
			json_u64(j, NULL, r->cpu[c].bins[b]);
		json_array_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "max_gap_ns");
	for (unsigned c = 0; c < r->n_cpus; c++)
		json_fixed(j, NULL, r->cpu[c].done ? ns((double)r->cpu[c].max_gap, r->tsc_hz) : __builtin_nan(""), 0);
	json_array_end(j);
	json_array_begin(j, "max_gap_at_ns");
	for (unsigned c = 0; c < r->n_cpus; c++)
		json_fixed(j, NULL, r->cpu[c].done ? ns((double)r->cpu[c].max_gap_at, r->tsc_hz) : __builtin_nan(""), 0);
	json_array_end(j);
	json_array_begin(j, "smi_delta");
	for (unsigned c = 0; c < r->n_cpus; c++) {
		if (r->cpu[c].done && r->cpu[c].smi_valid)
			json_u64(j, NULL, r->cpu[c].smi_after - r->cpu[c].smi_before);
		else
			json_null(j, NULL);
	}
	json_array_end(j);
	json_array_begin(j, "verdict");
	for (unsigned c = 0; c < r->n_cpus; c++) {
		const char *v = latency_verdict(r, c);
		json_str(j, NULL, v);
		if (v && v[0] == 'f')
			failed++;
		if (r->cpu[c].done && r->cpu[c].max_gap > r->cpu[worst].max_gap)
			worst = c;
		backwards += r->cpu[c].backwards;
	}
	json_array_end(j);
	json_u64(j, "failed", failed);
	json_u64(j, "worst_cpu", worst);
	json_u64(j, "backwards", backwards);
	log_end(l);
}
