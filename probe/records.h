/* The measurement records of the log (docs/log-format.md) and the screen's
 * results table: one place that turns a measurement into what people read. */
#ifndef PROBE_RECORDS_H
#define PROBE_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "probe/counter.h"
#include "probe/hist.h"
#include "probe/log.h"
#include "probe/measure.h"

struct freq_check {
	bool valid;
	uint64_t nominal_hz;
	double measured_hz, ppm, err_ppm;
	bool reference; /* this counter calibrated the TSC: its ppm is 0 by construction */
};

/* A timer record for a counter that was measured; c->healthy false with a
 * reason gives the short record of a skipped counter (r and cost unused). */
void record_timer(struct log *l, const struct counter *c, const struct measure_result *r,
		  const struct hist *cost, const struct freq_check *f, double tsc_hz, uint32_t samples);
/* The harness overhead: the chosen bracket's distribution, and how every
 * candidate bracket's per-round minimum held still (the choice's reason). */
struct overhead_candidate {
	const char *sequence;
	uint64_t min, p50, round_min_spread;
};
void record_overhead(struct log *l, const char *sequence, const struct hist *cost, uint64_t subtracted,
		     double tsc_hz, const struct overhead_candidate *cand, int n_cand);
/* Raw per-read costs (preset verbose), in chunks of at most 1000 values. */
void record_samples(struct log *l, const char *name, const uint32_t *raw, uint32_t n);

/* cost summary {min,p50,mean,sd,p99,p999,max}: cycles when tsc_hz is 0, ns
 * when it is > 0, and null when it is < 0 (ns wanted, frequency unknown). */
void json_cost(struct json *j, const char *key, const struct hist *h, double tsc_hz);

/* The results table: a header and one row per counter. */
int table_header(char *buf, size_t cap);
int table_row(char *buf, size_t cap, const struct counter *c, const struct measure_result *r,
	      const struct hist *cost, double tsc_hz);

#endif
