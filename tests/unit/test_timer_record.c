/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/records.c's timer, overhead and samples records, written from
 * measurements on the simulated platform (tests/unit/sim_counter.h) and read
 * back through the probe's JSON reader (tests/unit/log_capture.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "probe/measure.h"
#include "probe/records.h"
#include "tools/lib/logread.h"
#include "tests/unit/sim_counter.h"
#include "tests/unit/log_capture.h"
#include "tests/unit/check.h"
#include "tools/lib/hist_decode.h"

/* Line k of the capture, checked (crc, type) and parsed, its seq k and its
 * first members type and seq; NULL if not. */
static const struct lr_node *line(size_t k, const char *type)
{
	const struct lr_node *root = capture_line(k, type, NULL);
	uint64_t seq;

	if (!root || !lr_uint(lr_get(root, "seq"), &seq) || seq != k || root->child != lr_get(root, "type") ||
	    root->child->next != lr_get(root, "seq"))
		return NULL;
	return root;
}

static double num(const struct lr_node *root, const char *path)
{
	double v;
	return lr_num(lr_path(root, path), &v) ? v : NAN;
}

static bool is_null(const struct lr_node *root, const char *path)
{
	const struct lr_node *n = lr_path(root, path);
	return n && n->kind == LR_NULL;
}

static const char *cost_keys[] = { "min", "p50", "mean", "sd", "p99", "p999", "max" };

/* A measured counter as run.c records it, on the simulated platform. */
static void measured(struct sim_counter *s, struct hist *cost, struct hist *scratch, struct measure_result *r,
		     uint32_t samples, uint32_t spread)
{
	static uint64_t script[16 + 20000], values[1000];
	struct probe_clock pc;

	for (size_t i = 0; i < 16 + samples; i++)
		script[i] = 60 + sim_rand() % spread + (i % 500 == 3 ? 50000 + 1000 * i : 0);
	sim_clock(&pc);
	sim_counter_init(s, "hpet", SIM_RATE, 32, 14318180);
	s->st.healthy = true;
	sim_bracket_script(script, 16 + samples);
	measure_counter(&s->c, &pc, 25, samples, 10, cost, scratch, NULL, 0, r);
	measure_deltas(&s->c, values, 1000, scratch, &r->delta);
	r->delta_valid = true;
}

/* cost_cycles: every key, and the histogram's figures; whole cycles where
 * the histogram has them: the ns are derived from these, so they must not
 * carry a fraction or a scale. */
static void check_record_cost(const struct lr_node *root, const struct hist *cost)
{
	const struct lr_node *m = lr_get(root, "cost_cycles");
	const char *whole[] = { "min", "p50", "p99", "p999", "max" };
	uint64_t u;
	int ok = 1;

	for (size_t i = 0; i < 7; i++) {
		char path[32];
		snprintf(path, sizeof path, "cost_cycles.%s", cost_keys[i]);
		ok &= !isnan(num(root, path));
	}
	check(ok, "records: cost_cycles has min, p50, mean, sd, p99, p999, max");
	check(COND(num(root, "cost_cycles.min") == (double)cost->min) &&
		      COND(num(root, "cost_cycles.max") == (double)cost->max) &&
		      COND(num(root, "cost_cycles.p50") == (double)hist_quantile(cost, 500000)) &&
		      COND(num(root, "cost_cycles.p99") == (double)hist_quantile(cost, 990000)) &&
		      COND(num(root, "cost_cycles.p999") == (double)hist_quantile(cost, 999000)) &&
		      COND(fabs(num(root, "cost_cycles.mean") - hist_mean(cost)) <= 0.05) &&
		      COND(fabs(num(root, "cost_cycles.sd") - hist_sd(cost)) <= 0.05),
	      "records: cost_cycles agrees with the histogram");
	ok = m && m->kind == LR_OBJ && m->len == 7;
	for (size_t i = 0; ok && i < 5; i++)
		ok &= lr_uint(lr_get(m, whole[i]), &u);
	check(ok, "records: cost_cycles min, p50, p99, p999, max are whole cycles");
}

/* The record's hist: every bin of the histogram, in order, and the 5 most
 * common costs rebuilt from it (schema 2 leaves modes to the hist). */
static void check_record_hist(const struct lr_node *root, const struct hist *cost)
{
	struct hist_mode modes[5];
	uint64_t sum = 0, v, c;
	size_t cursor = 0, i;
	int ok, nm;

	{
		struct hist_dec d;
		uint64_t pv, pc;
		int got;
		ok = hist_dec_init(&d, lr_get(root, "hist")) == HIST_FORM_COMPACT;
		while (ok && (got = hist_dec_next(&d, &pv, &pc)) == 1) {
			ok &= hist_next(cost, &cursor, &v, &c) && pv == v && pc == c;
			sum += pc;
		}
		ok &= got == 0;
	}
	check(COND(ok) && COND(sum == cost->count) && COND(!hist_next(cost, &cursor, &v, &c)),
	      "records: hist lists every bin in order, counts summing to samples (%llu)", (unsigned long long)sum);
	{
		struct hist *back = sim_hist();
		struct hist_mode got[5];
		struct hist_dec d;
		uint64_t pv, pc;
		nm = hist_modes(cost, modes, 5);
		hist_dec_init(&d, lr_get(root, "hist"));
		while (hist_dec_next(&d, &pv, &pc) == 1)
			hist_add_n(back, pv, pc);
		ok = !lr_get(root, "modes") && nm == 5 && hist_modes(back, got, 5) == nm;
		for (i = 0; ok && i < (size_t)nm; i++)
			ok &= got[i].value == modes[i].value && got[i].count == modes[i].count;
		check(ok, "records: no modes member; the hist gives the 5 most common costs, most common first");
		free(back);
	}
}

/* What is not known is null or left out, never 0 or a made-up number; a
 * skipped or absent counter has its reason and no figures. */
static void check_record_unknowns(struct sim_counter *sc, struct measure_result *r, struct hist *cost, double hz)
{
	const struct lr_node *root;
	size_t i;
	int ok;

	/* Nothing known: null, never 0 or a made-up number. */
	r->delta_valid = false;
	r->smi_valid = false;
	capture_reset();
	record_timer(&cap.log, &sc->c, &sc->st, r, cost, NULL, hz, 10000);
	root = line(0, "timer");
	check(COND(root) && COND(is_null(root, "delta")) && COND(!lr_get(root, "freq")) && COND(!lr_get(root, "smi")) &&
		      COND(!lr_get(root, "core_clock")),
	      "records: no delta: null; no frequency check, SMI count or core clock: left out");
	capture_reset();
	record_timer(&cap.log, &sc->c, &sc->st, r, cost, NULL, 0, 10000);
	root = line(0, "timer");
	ok = root && !lr_get(root, "cost_ns") && num(root, "cost_cycles.p50") == (double)hist_quantile(cost, 500000) &&
	     lr_get(root, "rounds") && lr_at(lr_path(root, "rounds.p50"), 0) &&
	     lr_at(lr_path(root, "rounds.p50"), 0)->kind == LR_NULL;
	check(ok, "records: with no TSC frequency (0), cost_cycles stays and rounds' ns are null");
	/* Clamped and short samples are written, and then only then. */
	r->clamped = 7;
	capture_reset();
	record_timer(&cap.log, &sc->c, &sc->st, r, cost, NULL, hz, 12000);
	root = line(0, "timer");
	check(COND(root) && COND(num(root, "clamped") == 7) && COND(num(root, "samples_requested") == 12000) &&
		      COND(num(root, "samples") == (double)cost->count),
	      "records: clamped 7 and samples_requested 12000 (of %llu taken) are written",
	      (unsigned long long)cost->count);

	/* Skipped counters: the reason, no numbers, and r/cost never looked at. */
	sc->st.healthy = false;
	snprintf(sc->st.reason, sizeof sc->st.reason, "hpet went backwards 3 times in 20000 reads");
	capture_reset();
	record_timer(&cap.log, &sc->c, &sc->st, NULL, NULL, NULL, hz, 0);
	root = line(0, "timer");
	check(COND(root) && COND(!lr_true(lr_get(root, "healthy"))) && COND(lr_get(root, "healthy")->kind == LR_BOOL) &&
		      COND(!strcmp(lr_str(lr_get(root, "reason")), sc->st.reason)) && COND(num(root, "samples") == 0),
	      "records: an unhealthy counter: \"healthy\":false, the reason, samples 0");
	check(COND(root) && COND(!lr_get(root, "cost_cycles")) && COND(!lr_get(root, "hist")) &&
		      COND(!lr_get(root, "method")) && COND(!lr_get(root, "width")) && COND(!lr_get(root, "insns")),
	      "records: an unhealthy counter: no cost, hist, method, width or insns");
	sc->st.present = false;
	sc->st.reason[0] = 0;
	sc->c.mask = 0;
	sc->c.hw = 0;
	capture_reset();
	record_timer(&cap.log, &sc->c, &sc->st, NULL, NULL, NULL, hz, 0);
	root = line(0, "timer");
	{
		static const char *const keys[] = { "type", "seq", "name", "present", "healthy", "reason", "samples",
			"crc" };
		const struct lr_node *m = root ? root->child : NULL;
		ok = root && root->len == 8;
		for (i = 0; ok && i < 8; i++, m = m->next)
			ok &= m && !strcmp(m->key, keys[i]);
	}
	check(COND(ok) && COND(!lr_true(lr_get(root, "present"))) &&
		      COND(!strcmp(lr_str(lr_get(root, "reason")), "not measured")),
	      "records: an absent counter without a reason says \"not measured\": name, present, healthy, reason, samples only");
}

static void test_record_timer(void)
{
	static struct sim_counter s;
	static struct measure_result r;
	struct hist *cost = sim_hist(), *scratch = sim_hist();
	struct freq_check f = { true, 14318180, 14318200.5, 1.43, 0.25, false };
	const double hz = 2.5e9, ns = 1e9 / hz;
	const struct lr_node *root, *n;
	uint64_t v, u;
	int ok = 1;

	measured(&s, cost, scratch, &r, 10000, 40);
	/* Every delta field different, so that a swapped key shows. */
	r.delta = (struct delta_summary){ 999, 1, 2, 14, 500, 30, 3, 7 };
	capture_reset();
	record_timer(&cap.log, &s.c, &s.st, &r, cost, &f, hz, 10000);
	root = line(0, "timer");
	check(COND(root) && COND(capture_lines() == 1),
	      "records: a healthy timer is one record with a good crc, type and seq");
	if (!root)
		return;
	check(COND(!strcmp(lr_str(lr_get(root, "name")), "hpet")) && COND(!lr_get(root, "healthy")) &&
		      COND(!lr_get(root, "present")) && COND(!strcmp(lr_str(lr_get(root, "method")), s.c.method)) &&
		      COND(num(root, "width") == 32) && COND(!lr_get(root, "reason")) && COND(num(root, "samples") > 0),
	      "records: name, method, width, samples > 0; present, healthy and reason left implied when measured");
	/* Schema 2: clamped only when not 0, samples_requested only when it
	 * differs from samples, and nothing that follows from other members. */
	check(COND(lr_uint(lr_get(root, "samples"), &u)) && COND(u == cost->count) &&
		      COND(r.clamped ? num(root, "clamped") == (double)r.clamped : !lr_get(root, "clamped")) &&
		      COND(cost->count == 10000 ? !lr_get(root, "samples_requested")
						: num(root, "samples_requested") == 10000),
	      "records: samples = %llu measured, clamped (%llu) only when not 0, samples_requested only when short",
	      (unsigned long long)cost->count, (unsigned long long)r.clamped);
	check(COND(!lr_get(root, "cost_ns")) && COND(!lr_get(root, "overhead_cycles")) &&
		      COND(!lr_get(root, "address")) && COND(!lr_path(root, "throughput.reads_per_s")),
	      "records: no cost_ns, overhead_cycles, address or throughput.reads_per_s (they follow from others)");
	check_record_cost(root, cost);
	check_record_hist(root, cost);
	check(COND(num(root, "throughput.reads") == (double)r.tp_reads) &&
		      COND(num(root, "throughput.cycles") == (double)r.tp_cycles) && COND(r.tp_reads > 0) &&
		      COND(r.tp_cycles > 0) && COND(lr_get(root, "throughput")->len == 2),
	      "records: throughput reads (%llu), cycles (%llu), nothing else", (unsigned long long)r.tp_reads,
	      (unsigned long long)r.tp_cycles);

	n = lr_get(root, "rounds");
	ok = n && n->kind == LR_OBJ && lr_path(root, "rounds.p50") && lr_path(root, "rounds.p50")->len == r.rounds &&
	     lr_path(root, "rounds.mean") && lr_path(root, "rounds.mean")->len == r.rounds && r.rounds == 10;
	for (size_t i = 0; ok && i < r.rounds; i++) {
		double p50, mean;
		ok &= lr_num(lr_at(lr_get(n, "p50"), i), &p50) && lr_num(lr_at(lr_get(n, "mean"), i), &mean) &&
		      fabs(p50 - (double)r.round_p50[i] * ns) <= 0.05 && fabs(mean - r.round_mean[i] * ns) <= 0.05;
	}
	check(ok, "records: rounds has a p50 and a mean column, in ns to 1 decimal, one entry per round");
	{
		const struct lr_node *d = lr_get(root, "delta");
		double v[7];
		bool all = d && d->kind == LR_ARR && d->len == 7;
		for (size_t i = 0; all && i < 7; i++)
			all = lr_num(lr_at(d, i), &v[i]);
		check(COND(all) && COND(v[0] == (double)r.delta.min) && COND(v[1] == (double)r.delta.granularity) &&
			      COND(v[2] == (double)r.delta.mode) && COND(v[3] == (double)r.delta.mode_count) &&
			      COND(v[4] == (double)r.delta.max) && COND(v[5] == 3) &&
			      COND(v[6] == (double)r.delta.wraps) && COND(r.delta.granularity > 0),
		      "records: delta [min, granularity, mode, mode_count, max, backwards, wraps]");
	}
	ok = (n = lr_path(root, "outliers.largest")) && n->kind == LR_ARR && (int)n->len == r.n_largest;
	for (size_t i = 0; ok && i < n->len; i++)
		ok &= lr_uint(lr_at(n, i), &v) && v == r.largest[i];
	check(COND(ok) && COND(num(root, "outliers.over_10x_p50") == (double)timer_over_10x_p50(cost)) &&
		      COND(timer_over_10x_p50(cost) > 0),
	      "records: outliers largest (largest first) and over_10x_p50 (%llu)",
	      (unsigned long long)timer_over_10x_p50(cost));
	check(COND(num(root, "freq.nominal_hz") == 14318180) &&
		      COND(fabs(num(root, "freq.measured_hz") - 14318200.5) < 0.01) &&
		      COND(fabs(num(root, "freq.ppm") - 1.43) < 0.001) &&
		      COND(fabs(num(root, "freq.err_ppm") - 0.25) < 0.001),
	      "records: freq nominal_hz, measured_hz, ppm, err_ppm");
	check(COND(num(root, "smi.before") == 41) && COND(num(root, "smi.after") == 42), "records: smi before, after");

	check_record_unknowns(&s, &r, cost, hz);
	free(cost);
	free(scratch);
}

static void test_record_overhead_samples(void)
{
	static uint32_t raw[2500];
	struct overhead_candidate cand[2] = { { "lfence;rdtsc", 30, 32, 1 }, { "rdtscp", 28, 40, 6 } };
	struct hist *cost = sim_hist();
	const struct lr_node *root, *n;
	uint64_t sum = 0, v;
	int ok = 1;

	for (int i = 0; i < 5000; i++)
		hist_add(cost, 30 + sim_rand() % 5);
	capture_reset();
	record_overhead(&cap.log, "lfence;rdtsc", cost, 30, cand, 2, false);
	root = line(0, "overhead");
	ok = root && !strcmp(lr_str(lr_get(root, "sequence")), "lfence;rdtsc") && num(root, "samples") == 5000 &&
	     num(root, "subtracted") == 30 && num(root, "cycles.min") == (double)cost->min &&
	     num(root, "cycles.p50") == (double)hist_quantile(cost, 500000) && !isnan(num(root, "cycles.p999")) &&
	     !isnan(num(root, "cycles.sd")) && num(root, "cycles.max") == (double)cost->max;
	if (ok) {
		struct hist_dec d;
		uint64_t value;
		ok = hist_dec_init(&d, lr_get(root, "hist")) == HIST_FORM_COMPACT;
		while (hist_dec_next(&d, &value, &v) == 1)
			sum += v;
		ok &= !d.err;
	}
	check(COND(ok) && COND(sum == 5000) && COND(!lr_get(root, "ns")),
	      "records: overhead: sequence, samples, cycles summary (no ns), hist summing to samples, subtracted");
	capture_reset();
	record_overhead(&cap.log, "lfence;rdtsc", cost, 30, cand, 2, false);
	root = line(0, "overhead");
	n = root ? lr_get(root, "candidates") : NULL;
	check(COND(n) && COND(n->len == 2) && COND(!strcmp(lr_str(lr_get(lr_at(n, 1), "sequence")), "rdtscp")) &&
		      COND(num(lr_at(n, 1), "round_min_spread") == 6) && COND(num(lr_at(n, 0), "p50") == 32),
	      "records: overhead lists every candidate bracket");

	for (int i = 0; i < 2500; i++)
		raw[i] = (uint32_t)sim_rand();
	raw[7] = 0xffffffffu;
	capture_reset();
	record_samples(&cap.log, "hpet", raw, 2500);
	ok = capture_lines() == 3;
	for (size_t k = 0; ok && k < 3; k++) {
		root = line(k, "samples");
		n = root ? lr_get(root, "values") : NULL;
		ok &= n && num(root, "offset") == 1000.0 * (double)k && n->len == (k < 2 ? 1000 : 500) &&
		      !strcmp(lr_str(lr_get(root, "name")), "hpet");
		for (size_t i = 0; ok && i < n->len; i++)
			ok &= lr_uint(lr_at(n, i), &v) && v == raw[1000 * k + i];
	}
	check(ok, "records: 2500 raw values give 3 samples records (offsets 0, 1000, 2000) holding every value");
	static const uint32_t counts[][2] = { { 0, 0 }, { 1, 1 }, { 1000, 1 }, { 1001, 2 } };
	for (size_t i = 0; i < 4; i++) {
		capture_reset();
		record_samples(&cap.log, "tsc", raw, counts[i][0]);
		check(capture_lines() == counts[i][1], "records: %u raw values give %u records", counts[i][0], counts[i][1]);
	}
	free(cost);
}

/* A histogram too wide for one record: the timer record is written without
 * it (and says so), its summary kept, the log intact. */
static void test_record_too_big(void)
{
	static struct sim_counter s;
	static struct measure_result r;
	struct hist *cost = sim_hist();
	static const uint32_t one = 1;
	const struct lr_node *root;
	uint64_t seq;
	size_t end_at;

	sim_counter_init(&s, "i8254", SIM_RATE, 16, 1193182);
	s.st.healthy = true;
	/* 8 bytes a bin in schema 2 (a count of 2^30 is 7 digits): 131 KB. */
	for (uint64_t v = 0; v < HIST_EXACT; v++)
		hist_add_n(cost, v, 1u << 30);
	r.rounds = 1;
	capture_reset();
	record_timer(&cap.log, &s.c, &s.st, &r, cost, NULL, 2.5e9, 0);
	record_samples(&cap.log, "i8254", &one, 1);
	end_at = cap.len; /* the end record's bytes: everything before it */
	log_close(&cap.log, "ok");
	root = line(0, "timer");
	check(COND(root) && COND(lr_str(lr_get(root, "hist"))) &&
		      COND(!strncmp(lr_str(lr_get(root, "hist")), "omitted", 7)),
	      "records: a timer with %u histogram bins is written without its histogram, which it says", HIST_EXACT);
	check(COND(root) && COND(lr_get(root, "modes")) && COND(lr_get(root, "modes")->len == 5) &&
		      COND(num(root, "samples") == (double)((uint64_t)HIST_EXACT << 30)) &&
		      COND(lr_path(root, "cost_cycles.p50")),
	      "records: that timer keeps its samples, summary and 5 modes");
	/* One record parsed at a time: each line() ends the last one's root. */
	check(line(1, "samples") != NULL, "records: the log goes on: the samples record follows");
	root = line(2, "end");
	check(COND(root) && COND(lr_uint(lr_get(root, "records"), &seq)) && COND(seq == 2) &&
		      COND(lr_uint(lr_get(root, "bytes"), &seq)) && COND(seq == end_at),
	      "records: then the end record, counting 2 records and their bytes");
	free(cost);
}

int main(void)
{
	test_record_timer();
	test_record_overhead_samples();
	test_record_too_big();
	free(cap.buf);
	free(cap.nodes);
	free(cap.strs);
	return check_done();
}
