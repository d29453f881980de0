#include "probe/records.h"
#include "probe/fmt.h"
#include "probe/hist_codec.h"
#include "probe/util.h"

#define SAMPLES_PER_RECORD 1000

/* Without a TSC frequency there are no nanoseconds: NaN, which the JSON
 * writer turns into null (never a cycle count under an ns key). */
static double ns(double cycles, double tsc_hz) { return tsc_hz > 0 ? cycles * 1e9 / tsc_hz : __builtin_nan(""); }

void json_cost(struct json *j, const char *key, const struct hist *h, double tsc_hz)
{
	if (tsc_hz < 0) { /* nanoseconds asked for, with no TSC frequency to get them */
		json_null(j, key);
		return;
	}
	static const struct {
		const char *name;
		uint32_t ppm;
	} q[] = { { "p50", 500000 }, { "p99", 990000 }, { "p999", 999000 } };
	double scale = tsc_hz > 0 ? 1e9 / tsc_hz : 1;
	int dec = tsc_hz > 0 ? 1 : 0;

	json_object_begin(j, key);
	json_fixed(j, "min", (double)h->min * scale, dec);
	json_fixed(j, "p50", (double)hist_quantile(h, q[0].ppm) * scale, dec);
	json_fixed(j, "mean", hist_mean(h) * scale, 1);
	json_fixed(j, "sd", hist_sd(h) * scale, 1);
	for (int i = 1; i < 3; i++)
		json_fixed(j, q[i].name, (double)hist_quantile(h, q[i].ppm) * scale, dec);
	json_fixed(j, "max", (double)h->max * scale, dec);
	json_object_end(j);
}

static void json_hist(struct json *j, const struct hist *h)
{
	/* Schema 2: every non-empty bin as (skip, count), probe/hist_codec.h. */
	hist_encode(j, "hist", h);
}

static void json_modes(struct json *j, const struct hist *h)
{
	struct hist_mode m[5];
	int n = hist_modes(h, m, 5);

	json_array_begin(j, "modes");
	for (int i = 0; i < n; i++)
		json_pair_u64(j, m[i].value, m[i].count);
	json_array_end(j);
}

static void write_timer(struct json *j, const struct counter *c, const struct measure_result *r,
			const struct hist *cost, const struct freq_check *f, double tsc_hz, uint32_t samples,
			bool with_hist);

void record_timer(struct log *l, const struct counter *c, const struct measure_result *r,
		  const struct hist *cost, const struct freq_check *f, double tsc_hz, uint32_t samples)
{
	struct json *j = log_begin(l, "timer");

	write_timer(j, c, r, cost, f, tsc_hz, samples, true);
	/* A histogram of more distinct costs than one record holds (about 7000
	 * at 100000 samples) must not cost the whole record: write it again
	 * without the histogram, and say so. */
	if (j->overflow) {
		j = log_begin(l, "timer");
		write_timer(j, c, r, cost, f, tsc_hz, samples, false);
	}
	log_end(l);
}

static void write_timer(struct json *j, const struct counter *c, const struct measure_result *r,
			const struct hist *cost, const struct freq_check *f, double tsc_hz, uint32_t samples,
			bool with_hist)
{

	json_str(j, "name", c->name);
	json_bool(j, "present", c->present);
	json_bool(j, "healthy", c->healthy);
	if (!c->healthy)
		json_str(j, "reason", c->reason[0] ? c->reason : "not measured");
	if (c->note[0])
		json_str(j, "note", c->note);
	json_str(j, "method", c->method);
	if (c->width)
		json_u64(j, "width", c->width);
	else
		json_null(j, "width");
	if (c->hw)
		json_u64(j, "address", c->hw);
	json_u64(j, "insns", c->insns);
	if (!c->healthy) {
		json_u64(j, "samples", 0);
		return;
	}
	json_u64(j, "samples", cost->count);
	json_u64(j, "samples_requested", samples);
	json_u64(j, "overhead_cycles", r->subtracted);
	json_u64(j, "clamped", r->clamped);
	json_cost(j, "cost_cycles", cost, 0);
	json_cost(j, "cost_ns", cost, tsc_hz > 0 ? tsc_hz : -1);
	if (with_hist)
		json_hist(j, cost);
	else
		json_str(j, "hist", "omitted: more distinct values than one record holds");
	if (!with_hist) /* schema 2: else the hist's five largest bins, not written twice */
		json_modes(j, cost);

	json_object_begin(j, "throughput");
	json_u64(j, "reads", r->tp_reads);
	json_u64(j, "cycles", r->tp_cycles);
	json_fixed(j, "reads_per_s", r->tp_cycles && tsc_hz > 0 ? (double)r->tp_reads * tsc_hz / (double)r->tp_cycles : __builtin_nan(""), 0);
	json_object_end(j);

	/* Schema 2: one column per metric, not the keys again in every round. */
	json_object_begin(j, "rounds");
	json_array_begin(j, "p50");
	for (uint32_t i = 0; i < r->rounds; i++)
		json_fixed(j, NULL, ns((double)r->round_p50[i], tsc_hz), 2);
	json_array_end(j);
	json_array_begin(j, "mean");
	for (uint32_t i = 0; i < r->rounds; i++)
		json_fixed(j, NULL, ns(r->round_mean[i], tsc_hz), 2);
	json_array_end(j);
	json_object_end(j);

	if (r->delta_valid) {
		json_object_begin(j, "delta");
		json_u64(j, "samples", r->delta.samples);
		json_u64(j, "min", r->delta.min);
		json_u64(j, "granularity", r->delta.granularity);
		json_u64(j, "mode", r->delta.mode);
		json_u64(j, "mode_count", r->delta.mode_count);
		json_u64(j, "max", r->delta.max);
		json_u64(j, "backwards", r->delta.backwards);
		json_u64(j, "wraps", r->delta.wraps);
		json_object_end(j);
	} else {
		json_null(j, "delta");
	}

	json_object_begin(j, "outliers");
	json_array_begin(j, "largest");
	for (int i = r->n_largest - 1; i >= 0; i--)
		json_u64(j, NULL, r->largest[i]);
	json_array_end(j);
	json_u64(j, "over_10x_p50", r->over_10x_p50);
	json_object_end(j);

	if (f && f->valid) {
		json_object_begin(j, "freq");
		json_u64(j, "nominal_hz", f->nominal_hz);
		json_fixed(j, "measured_hz", f->measured_hz, 1);
		json_fixed(j, "ppm", f->ppm, 2);
		json_fixed(j, "err_ppm", f->err_ppm, 2);
		json_bool(j, "reference", f->reference);
		json_object_end(j);
	} else {
		json_null(j, "freq");
	}
	if (r->smi_valid) {
		json_object_begin(j, "smi");
		json_u64(j, "before", r->smi_before);
		json_u64(j, "after", r->smi_after);
		json_object_end(j);
	} else {
		json_null(j, "smi");
	}
}

void record_overhead(struct log *l, const char *sequence, const struct hist *cost, uint64_t subtracted,
		     double tsc_hz, const struct overhead_candidate *cand, int n_cand)
{
	struct json *j = log_begin(l, "overhead");
	json_str(j, "sequence", sequence);
	json_array_begin(j, "candidates");
	for (int i = 0; i < n_cand; i++) {
		json_object_begin(j, NULL);
		json_str(j, "sequence", cand[i].sequence);
		json_u64(j, "min", cand[i].min);
		json_u64(j, "p50", cand[i].p50);
		json_u64(j, "round_min_spread", cand[i].round_min_spread);
		json_object_end(j);
	}
	json_array_end(j);
	json_u64(j, "samples", cost->count);
	json_cost(j, "cycles", cost, 0);
	json_cost(j, "ns", cost, tsc_hz > 0 ? tsc_hz : -1);
	json_hist(j, cost);
	/* Holds for every histogram in the log: exact below HIST_EXACT cycles. */
	json_u64(j, "hist_exact_below", HIST_EXACT);
	json_fixed(j, "hist_rel_error", 1.0 / HIST_SUB, 5);
	json_u64(j, "subtracted", subtracted);
	log_end(l);
}

void record_samples(struct log *l, const char *name, const uint32_t *raw, uint32_t n)
{
	for (uint32_t off = 0; off < n; off += SAMPLES_PER_RECORD) {
		struct json *j = log_begin(l, "samples");
		json_str(j, "name", name);
		json_u64(j, "offset", off);
		json_array_begin(j, "values");
		for (uint32_t i = off; i < n && i < off + SAMPLES_PER_RECORD; i++)
			json_u64(j, NULL, raw[i]);
		json_array_end(j);
		log_end(l);
	}
}

int table_header(char *buf, size_t cap)
{
	return tp_snprintf(buf, cap, "%-13s %9s %9s %9s %9s %12s  %s\n", "counter", "p50 ns", "min ns",
			   "mean ns", "sd ns", "reads/s", "health");
}

int table_row(char *buf, size_t cap, const struct counter *c, const struct measure_result *r,
	      const struct hist *cost, double tsc_hz)
{
	if (!c->healthy)
		return tp_snprintf(buf, cap, "%-13s %9s %9s %9s %9s %12s  %s\n", c->name, "-", "-", "-", "-",
				   "-", c->present ? "unhealthy" : "absent");
	return tp_snprintf(buf, cap, "%-13s %9.1f %9.1f %9.1f %9.1f %12.0f  ok\n", c->name,
			   ns((double)hist_quantile(cost, 500000), tsc_hz), ns((double)cost->min, tsc_hz),
			   ns(hist_mean(cost), tsc_hz), ns(hist_sd(cost), tsc_hz),
			   r->tp_cycles ? (double)r->tp_reads * tsc_hz / (double)r->tp_cycles : 0.0);
}
