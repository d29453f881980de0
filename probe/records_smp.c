/* SPDX-License-Identifier: BSD-2-Clause */
/* The multi-CPU records (probe/records_smp.h, docs/log-format.md). */
#include "probe/records_smp.h"
#include "lib/util.h"
#include "probe/log_schema.h"

/* Nanoseconds from cycles; NaN (written as null) without a frequency. */
static double ns(double cycles, double tsc_hz) { return tsc_hz > 0 ? cycles * 1e9 / tsc_hz : __builtin_nan(""); }

/* ---- tsc_sync ------------------------------------------------------------ */

/* The pairs as columns, one value a pair (docs/log-format.md, "tsc_sync"):
 * the keys once rather than once a CPU.  `ref` only in matrix mode,
 * `complete` only when some pair is not. */
struct pair_span {
	const struct tsc_sync_result *r;
	unsigned first, end;
};

static void pair_ids(struct put_tsc_pair_columns cols, const struct pair_span *sp)
{
	struct put_tsc_pair_cpu_column cpu = put_tsc_pair_cpu_column_open(cols);

	for (unsigned i = sp->first; i < sp->end; i++)
		put_tsc_pair_cpu_column_add(cpu, sp->r->pairs[i].cpu);
	put_tsc_pair_cpu_column_close(cpu);
	if (sp->r->matrix) {
		struct put_tsc_pair_ref_column ref = put_tsc_pair_ref_column_open(cols);
		for (unsigned i = sp->first; i < sp->end; i++)
			put_tsc_pair_ref_column_add(ref, sp->r->pairs[i].ref);
		put_tsc_pair_ref_column_close(ref);
	}
}

static void pair_offsets(struct put_tsc_pair_columns cols, const struct pair_span *sp)
{
	struct put_tsc_pair_offset_cycles_column off = put_tsc_pair_offset_cycles_column_open(cols);
	struct put_tsc_pair_uncertainty_cycles_column unc;

	for (unsigned i = sp->first; i < sp->end; i++) {
		const struct tsc_pair *p = &sp->r->pairs[i];
		if (p->offset_done)
			put_tsc_pair_offset_cycles_column_add(off, p->offset);
		else
			put_tsc_pair_offset_cycles_column_add_null(off);
	}
	put_tsc_pair_offset_cycles_column_close(off);
	unc = put_tsc_pair_uncertainty_cycles_column_open(cols);
	for (unsigned i = sp->first; i < sp->end; i++) {
		const struct tsc_pair *p = &sp->r->pairs[i];
		if (p->offset_done)
			put_tsc_pair_uncertainty_cycles_column_add(unc, p->uncertainty);
		else
			put_tsc_pair_uncertainty_cycles_column_add_null(unc);
	}
	put_tsc_pair_uncertainty_cycles_column_close(unc);
}

static void pair_warps(struct put_tsc_pair_columns cols, const struct pair_span *sp)
{
	struct put_tsc_pair_warps_column warps = put_tsc_pair_warps_column_open(cols);
	struct put_tsc_pair_max_warp_cycles_column max;

	for (unsigned i = sp->first; i < sp->end; i++)
		put_tsc_pair_warps_column_add(warps, sp->r->pairs[i].warps);
	put_tsc_pair_warps_column_close(warps);
	max = put_tsc_pair_max_warp_cycles_column_open(cols);
	for (unsigned i = sp->first; i < sp->end; i++)
		put_tsc_pair_max_warp_cycles_column_add(max, sp->r->pairs[i].max_warp);
	put_tsc_pair_max_warp_cycles_column_close(max);
}

static void pair_adjust_complete(struct put_tsc_pair_columns cols, const struct pair_span *sp)
{
	struct put_tsc_pair_tsc_adjust_column adj = put_tsc_pair_tsc_adjust_column_open(cols);
	bool some_incomplete = false;

	for (unsigned i = sp->first; i < sp->end; i++) {
		unsigned cpu = sp->r->pairs[i].cpu;
		if (sp->r->tsc_adjust_valid[cpu])
			put_tsc_pair_tsc_adjust_column_add(adj, sp->r->tsc_adjust[cpu]);
		else
			put_tsc_pair_tsc_adjust_column_add_null(adj);
		some_incomplete |= !sp->r->pairs[i].warp_done || !sp->r->pairs[i].offset_done;
	}
	put_tsc_pair_tsc_adjust_column_close(adj);
	if (some_incomplete) {
		struct put_tsc_pair_complete_column done = put_tsc_pair_complete_column_open(cols);
		for (unsigned i = sp->first; i < sp->end; i++)
			put_tsc_pair_complete_column_add(done,
							 sp->r->pairs[i].warp_done && sp->r->pairs[i].offset_done);
		put_tsc_pair_complete_column_close(done);
	}
}

static void pairs_columns(struct put_tsc_pair_columns cols, const struct tsc_sync_result *r, unsigned first)
{
	unsigned end = r->n_pairs < first + TSC_SYNC_PAIRS_PER_RECORD ? r->n_pairs : first + TSC_SYNC_PAIRS_PER_RECORD;
	struct pair_span sp = { r, first, end };

	pair_ids(cols, &sp);
	pair_offsets(cols, &sp);
	pair_warps(cols, &sp);
	pair_adjust_complete(cols, &sp);
	put_tsc_pair_columns_close(cols);
}

void record_tsc_sync(struct log *l, const struct tsc_sync_result *r, const struct smp_env *e)
{
	struct put_tsc_sync t = put_record_tsc_sync(l);
	struct put_tsc_sync_gone_list gone;

	if (r->verdict == TSC_VERDICT_UNKNOWN)
		put_tsc_sync_synchronized_null(t);
	else
		put_tsc_sync_synchronized(t, r->verdict == TSC_VERDICT_SYNCHRONIZED);
	put_tsc_sync_warps(t, r->warps);
	put_tsc_sync_max_warp_cycles(t, r->max_warp);
	put_tsc_sync_linux_would_mark_unstable(t, r->linux_would_mark_unstable);
	put_tsc_sync_rule(t, TSC_SYNC_RULE);
	put_tsc_sync_mode(t, r->matrix ? "matrix" : "boot");
	put_tsc_sync_cpus(t, r->n_cpus);
	put_tsc_sync_warp_cycles(t, r->cfg.warp_cycles);
	put_tsc_sync_pingpongs(t, r->cfg.pingpongs);
	put_tsc_sync_min_handoffs(t, r->min_handoffs);
	put_tsc_sync_incomplete(t, r->n_incomplete + r->pairs_skipped);
	if (r->n_cpus && r->tsc_adjust_valid[0])
		put_tsc_sync_boot_tsc_adjust(t, r->tsc_adjust[0]);
	else
		put_tsc_sync_boot_tsc_adjust_null(t);
	gone = put_tsc_sync_gone_open(t);
	for (unsigned c = 0; e && c < TEAM_MAX_CPUS; c++)
		if (e->gone[c])
			put_tsc_sync_gone_add(gone, c);
	put_tsc_sync_gone_close(gone);
	put_tsc_sync_pairs_total(t, r->n_pairs);
	pairs_columns(put_tsc_sync_pairs_open(t), r, 0);
	log_end(l);
	for (unsigned first = TSC_SYNC_PAIRS_PER_RECORD; first < r->n_pairs; first += TSC_SYNC_PAIRS_PER_RECORD) {
		struct put_tsc_sync_pairs more = put_record_tsc_sync_pairs(l);
		put_tsc_sync_pairs_first(more, first);
		pairs_columns(put_tsc_sync_pairs_pairs_open(more), r, first);
		log_end(l);
	}
}

/* ---- percpu -------------------------------------------------------------- */

/* Cycles only: the ns columns follow from the tsc record's hz
 * (docs/log-format.md, "Derived members"), 7 KB less at 256 CPUs.  A pair
 * of columns per counter measured, named after it. */
void record_percpu(struct log *l, const struct percpu_result *r)
{
	struct put_percpu t = put_record_percpu(l);

	put_percpu_cpus(t, r->n_cpus);
	put_percpu_samples(t, r->samples);
	for (unsigned k = 0; k < r->n; k++) {
		const struct percpu_cost *c = r->cost[k];
		struct put_percpu_p50_cycles_list p50 = put_percpu_p50_cycles_open(t, r->counter[k]->desc->name);
		struct put_percpu_min_cycles_list min;
		for (unsigned i = 0; i < r->n_cpus; i++) {
			if (c[i].measured)
				put_percpu_p50_cycles_add(p50, c[i].p50);
			else
				put_percpu_p50_cycles_add_null(p50);
		}
		put_percpu_p50_cycles_close(p50);
		min = put_percpu_min_cycles_open(t, r->counter[k]->desc->name);
		for (unsigned i = 0; i < r->n_cpus; i++) {
			if (c[i].measured)
				put_percpu_min_cycles_add(min, c[i].min);
			else
				put_percpu_min_cycles_add_null(min);
		}
		put_percpu_min_cycles_close(min);
	}
	log_end(l);
}

/* ---- contention ---------------------------------------------------------- */

static void contention_level(struct put_contention_level o, const struct contention_level *lv, double tsc_hz)
{
	bool any = lv->returned > 0;
	struct put_contention_level_cpus_list cpus;

	put_contention_level_n(o, lv->n);
	put_contention_level_returned(o, lv->returned);
	put_contention_level_p50_ns(o, any ? ns((double)lv->p50_median, tsc_hz) : __builtin_nan(""));
	put_contention_level_p99_ns(o, any ? ns((double)lv->p99_median, tsc_hz) : __builtin_nan(""));
	put_contention_level_worst_p50_ns(o, any ? ns((double)lv->p50_worst, tsc_hz) : __builtin_nan(""));
	put_contention_level_worst_p99_ns(o, any ? ns((double)lv->p99_worst, tsc_hz) : __builtin_nan(""));
	put_contention_level_reads_per_s(o, any && lv->wall_cycles && tsc_hz > 0
						    ? (double)lv->reads * tsc_hz / (double)lv->wall_cycles
						    : __builtin_nan(""));
	put_contention_level_backwards(o, lv->backwards);
	cpus = put_contention_level_cpus_open(o);
	for (unsigned k = 0; k < lv->n; k++)
		put_contention_level_cpus_add(cpus, lv->cpus[k]);
	put_contention_level_cpus_close(cpus);
	put_contention_level_overlap(o, lv->overlap);
	put_contention_level_siblings(o, lv->siblings);
	put_contention_level_close(o);
}

void record_contention(struct log *l, const struct contention_result *r, double tsc_hz)
{
	struct put_contention t = put_record_contention(l);
	struct put_contention_readers_list readers;

	put_contention_counter(t, r->counter);
	if (r->refused) {
		put_contention_refused(t, r->refused);
		log_end(l);
		return;
	}
	put_contention_reads_per_reader(t, r->reads_per_reader);
	readers = put_contention_readers_open(t);
	for (unsigned i = 0; i < r->n_levels; i++)
		contention_level(put_contention_readers_add(readers), &r->level[i], tsc_hz);
	put_contention_readers_close(readers);
	put_contention_ordered(t, r->ordered);
	put_contention_backwards(t, r->backwards);
	put_contention_max_backward_ticks(t, r->max_backward);
	put_contention_same_cpu_backwards(t, r->same_cpu_backwards);
	log_end(l);
}

/* ---- latency ------------------------------------------------------------- */

/* The schema's tuple gap_bins has one item a bin. */
_Static_assert(LATENCY_BINS == 7, "probe/log_schema_cpus.def's gap_bins has 7 items");

static void latency_bins(struct put_latency t, const struct latency_result *r)
{
	struct put_latency_bins_list bins = put_latency_bins_open(t);

	for (unsigned c = 0; c < r->n_cpus; c++) {
		const uint64_t *b = r->cpu[c].bins;
		struct put_gap_bins g;
		if (!r->cpu[c].done) {
			put_latency_bins_add_null(bins);
			continue;
		}
		g = put_latency_bins_add(bins);
		put_gap_bins_le_1us(g, b[0]);
		put_gap_bins_le_10us(g, b[1]);
		put_gap_bins_le_100us(g, b[2]);
		put_gap_bins_le_1ms(g, b[3]);
		put_gap_bins_le_10ms(g, b[4]);
		put_gap_bins_le_100ms(g, b[5]);
		put_gap_bins_over_100ms(g, b[6]);
		put_gap_bins_close(g);
	}
	put_latency_bins_close(bins);
}

static void latency_gaps(struct put_latency t, const struct latency_result *r)
{
	struct put_latency_max_gap_ns_list gap = put_latency_max_gap_ns_open(t);
	struct put_latency_max_gap_at_ns_list at;
	struct put_latency_smi_delta_list smi;

	for (unsigned c = 0; c < r->n_cpus; c++)
		put_latency_max_gap_ns_add(gap, r->cpu[c].done ? ns((double)r->cpu[c].max_gap, r->tsc_hz)
							       : __builtin_nan(""));
	put_latency_max_gap_ns_close(gap);
	at = put_latency_max_gap_at_ns_open(t);
	for (unsigned c = 0; c < r->n_cpus; c++)
		put_latency_max_gap_at_ns_add(at, r->cpu[c].done ? ns((double)r->cpu[c].max_gap_at, r->tsc_hz)
								 : __builtin_nan(""));
	put_latency_max_gap_at_ns_close(at);
	smi = put_latency_smi_delta_open(t);
	for (unsigned c = 0; c < r->n_cpus; c++) {
		if (r->cpu[c].done && r->cpu[c].smi_valid)
			put_latency_smi_delta_add(smi, r->cpu[c].smi_after - r->cpu[c].smi_before);
		else
			put_latency_smi_delta_add_null(smi);
	}
	put_latency_smi_delta_close(smi);
}

void record_latency(struct log *l, const struct latency_result *r)
{
	struct put_latency t = put_record_latency(l);
	struct put_latency_bins_ns_list edges;
	struct put_latency_verdict_list verdicts;
	unsigned failed = 0, worst = 0;
	uint64_t backwards = 0;

	put_latency_seconds(t, r->seconds);
	if (r->refused) {
		put_latency_refused(t, r->refused);
		log_end(l);
		return;
	}
	put_latency_limit_ns(t, LATENCY_LIMIT_NS);
	edges = put_latency_bins_ns_open(t);
	for (unsigned b = 0; b < LATENCY_BINS - 1; b++)
		put_latency_bins_ns_add(edges, ns((double)r->edge[b], r->tsc_hz));
	put_latency_bins_ns_close(edges);
	put_latency_cpus(t, r->n_cpus);
	latency_bins(t, r);
	latency_gaps(t, r);
	verdicts = put_latency_verdict_open(t);
	for (unsigned c = 0; c < r->n_cpus; c++) {
		const char *v = latency_verdict(r, c);
		put_latency_verdict_add(verdicts, v);
		if (v && v[0] == 'f')
			failed++;
		if (r->cpu[c].done && r->cpu[c].max_gap > r->cpu[worst].max_gap)
			worst = c;
		backwards += r->cpu[c].backwards;
	}
	put_latency_verdict_close(verdicts);
	put_latency_failed(t, failed);
	put_latency_worst_cpu(t, worst);
	put_latency_backwards(t, backwards);
	log_end(l);
}
