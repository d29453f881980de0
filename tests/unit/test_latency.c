/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/latency.c on simulated CPUs (tests/unit/sim_team.h): every CPU's
 * private TSC advances 700 cycles a read, with gaps planted at known times
 * (each an SMI); the bins, the largest gap and its time, the SMI count and
 * the verdict come out exactly as a model of the same clock says.  Also the
 * edges of the bins and the limit, a TSC stepping back, no frequency, a CPU
 * that never comes back, and the latency record read back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/latency.h"
#include "probe/records_smp.h"
#include "tests/unit/check.h"
#include "tests/unit/log_capture.h"
#include "tests/unit/sim_team.h"

#define STEP 700          /* cycles (ns) per TSC read */
#define WAIT 100000000ull /* the barrier's bound: 100 ms of a CPU's own clock */
#define SECONDS 1.0
#define DURATION 1000000000ull

static struct smp_env env;
static struct latency_result res;

struct plan {
	unsigned cpu;
	uint64_t at, gap;
};

/* Every plant is after 200 ms of a CPU's clock: past any barrier, which
 * gives up at 100 ms. */
static const struct plan plans[] = {
	{ 1, 200000000, 5000 },      /* 5.7 us: <= 10 us */
	{ 1, 300000000, 50000 },     /* 50.7 us: <= 100 us */
	{ 1, 400000000, 500000 },    /* 500.7 us: <= 1 ms, over the limit */
	{ 2, 200000000, 5000000 },   /* <= 10 ms */
	{ 2, 500000000, 50000000 },  /* <= 100 ms */
	{ 2, 700000000, 200000000 }, /* > 100 ms */
	{ 3, 200000000, 149300 },    /* exactly 150 us: at the limit, which passes */
	{ 3, 600000000, 99300 },     /* exactly 100 us: the top of its bin */
};
#define N_PLANS (sizeof plans / sizeof plans[0])

struct model {
	uint64_t bins[LATENCY_BINS], gaps, max_gap, max_gap_at, smis;
};

/* The gaps CPU `cpu` sees, as the simulated clock makes them, from the
 * scan's first read (start) until DURATION has passed. */
static void model(unsigned cpu, uint64_t start, struct model *m)
{
	bool fired[N_PLANS] = { 0 };
	uint64_t prev = start, t;

	memset(m, 0, sizeof *m);
	for (uint64_t reads = 0; reads < DURATION; reads++) {
		t = prev + STEP;
		for (unsigned i = 0; i < N_PLANS; i++)
			if (plans[i].cpu == cpu && !fired[i] && t >= plans[i].at) {
				t += plans[i].gap;
				fired[i] = true;
				m->smis++;
			}
		m->bins[latency_bin(&res, t - prev)]++;
		m->gaps++;
		if (t - prev > m->max_gap) {
			m->max_gap = t - prev;
			m->max_gap_at = prev - start;
		}
		prev = t;
		if (t - start >= DURATION)
			break;
	}
}

static void setup(unsigned n)
{
	sim_setup(n, SIM_CLOCK_PRIVATE, SIM_FREE, STEP, 1);
	sim_env(&env);
}

static void test_planted(void)
{
	static const char *const verdicts[4] = { "pass", "fail", "fail", "pass" };
	bool exact = true, verdict = true;
	char what[256] = "";

	setup(4);
	for (unsigned i = 0; i < N_PLANS; i++)
		sim_plant(plans[i].cpu, plans[i].at, plans[i].gap);
	sim.smi_absent[2] = true;
	latency_scan(&env, SECONDS, WAIT, &res);
	check(COND(!res.refused) && COND(res.n_cpus == 4) && COND(res.edge[0] == 1000) &&
		      COND(res.edge[5] == 100000000) && COND(res.limit_cycles == 150000),
	      "bins: decades from 1 us to 100 ms, in cycles of the 1 GHz TSC; the limit 150 us");
	for (unsigned c = 0; c < 4; c++) {
		const struct latency_cpu *r = &res.cpu[c];
		struct model m;
		model(c, r->start_tsc, &m);
		exact &= r->done && !memcmp(r->bins, m.bins, sizeof m.bins) && r->gaps == m.gaps &&
			 r->max_gap == m.max_gap && r->max_gap_at == m.max_gap_at && r->backwards == 0;
		verdict &= latency_verdict(&res, c) && !strcmp(latency_verdict(&res, c), verdicts[c]);
		if (c == 1)
			snprintf(what, sizeof what, "CPU 1: %llu %llu %llu %llu, max %llu at %llu",
				 (unsigned long long)r->bins[0], (unsigned long long)r->bins[1],
				 (unsigned long long)r->bins[2], (unsigned long long)r->bins[3],
				 (unsigned long long)r->max_gap, (unsigned long long)r->max_gap_at);
	}
	check(exact, "every CPU's bins, largest gap and its time are the model's, exactly (%s)", what);
	check(COND(res.cpu[1].bins[1] == 1) && COND(res.cpu[1].bins[2] == 1) && COND(res.cpu[1].bins[3] == 1) &&
		      COND(res.cpu[2].bins[4] == 1) && COND(res.cpu[2].bins[5] == 1) && COND(res.cpu[2].bins[6] == 1) &&
		      COND(res.cpu[3].bins[2] == 1) && COND(res.cpu[3].bins[3] == 1) &&
		      COND(res.cpu[0].bins[0] == res.cpu[0].gaps),
	      "each planted gap lands in its decade; 100 us exactly is the top of <= 100 us");
	check(COND(res.cpu[1].max_gap == 500700) && COND(res.cpu[2].max_gap == 200000700) &&
		      COND(res.cpu[3].max_gap == 150000),
	      "the largest gaps are the planted ones plus one read");
	check(verdict, "verdicts: CPU 0 (no gap) passes, 500.7 us and 200 ms fail, exactly 150 us passes");
	check(COND(res.cpu[0].smi_valid) && COND(res.cpu[0].smi_after == res.cpu[0].smi_before) &&
		      COND(res.cpu[1].smi_valid) && COND(res.cpu[1].smi_after - res.cpu[1].smi_before == 3) &&
		      COND(!res.cpu[2].smi_valid) && COND(res.cpu[3].smi_after - res.cpu[3].smi_before == 2),
	      "MSR_SMI_COUNT moves by the SMIs in the scan (CPU 1: 3), and is unknown where absent (CPU 2)");
	check(sim.wrong_cpu == 0, "every TSC read named the CPU it ran on");
}

static void test_edges(void)
{
	memset(&res, 0, sizeof res);
	for (unsigned b = 0; b < LATENCY_BINS - 1; b++)
		res.edge[b] = 1000ull * (1ull << (3 * b)); /* any ascending edges */
	check(COND(latency_bin(&res, 0) == 0) && COND(latency_bin(&res, 1000) == 0) &&
		      COND(latency_bin(&res, 1001) == 1) && COND(latency_bin(&res, res.edge[5]) == 5) &&
		      COND(latency_bin(&res, res.edge[5] + 1) == 6) && COND(latency_bin(&res, ~0ull) == 6),
	      "a gap equal to an edge is in the bin below it; past the last edge is the last bin");
}

static void test_odd_cases(void)
{
	/* A TSC that steps back 5000 cycles once: counted, not binned. */
	setup(1);
	sim_plant(0, 200000000, (uint64_t)-5700);
	latency_scan(&env, SECONDS, WAIT, &res);
	check(COND(res.cpu[0].done) && COND(res.cpu[0].backwards == 1) && COND(res.cpu[0].max_gap == STEP) &&
		      COND(res.n_cpus == 1),
	      "one CPU: a step back is counted (%llu) and not a gap; the scan runs alone",
	      (unsigned long long)res.cpu[0].backwards);

	setup(2);
	env.tsc_hz = 0;
	latency_scan(&env, SECONDS, WAIT, &res);
	check(COND(res.refused) && COND(sim.runs == 0) && COND(!latency_verdict(&res, 0)),
	      "without the TSC frequency the scan is refused: %s", res.refused);

	setup(3);
	sim.hang_at_start[2] = true;
	latency_scan(&env, 0.01, WAIT, &res);
	check(COND(env.gone[2]) && COND(!res.cpu[2].done) && COND(!latency_verdict(&res, 2)) &&
		      COND(!res.cpu[0].done) && COND(!res.cpu[1].done) && COND(sim.timeouts == 1),
	      "a CPU that never comes: the barrier gives up after its bound, nothing is scanned, the CPU is gone");
	latency_scan(&env, 0.01, WAIT, &res);
	check(COND(res.cpu[0].done) && COND(res.cpu[1].done) && COND(!res.cpu[2].done) && COND(sim.timeouts == 1),
	      "the next scan leaves it out and runs on the others");
}

/* ---- the record -------------------------------------------------------------- */

static void test_record(void)
{
	static const char *const keys[] = { "type", "seq", "seconds", "limit_ns", "bins_ns", "cpus", "bins",
		"max_gap_ns", "max_gap_at_ns", "smi_delta", "verdict", "failed", "worst_cpu", "backwards", "crc" };
	const struct lr_node *root, *bins;
	uint64_t v;
	double d;
	bool same = true;
	size_t bytes[3];

	setup(4);
	for (unsigned i = 0; i < N_PLANS; i++)
		sim_plant(plans[i].cpu, plans[i].at, plans[i].gap);
	sim.smi_absent[2] = true;
	latency_scan(&env, SECONDS, WAIT, &res);
	capture_reset();
	record_latency(&cap.log, &res);
	root = capture_line(0, "latency", &bytes[0]);
	check(COND(root) && COND(capture_keys_are(root, keys, sizeof keys / sizeof keys[0])),
	      "record: latency has its keys, in order (%zu bytes for 4 CPUs)", bytes[0]);
	bins = root ? lr_get(root, "bins") : NULL;
	for (unsigned c = 0; bins && c < 4; c++)
		for (unsigned b = 0; b < LATENCY_BINS; b++)
			same &= lr_uint(lr_at(lr_at(bins, c), b), &v) && v == res.cpu[c].bins[b];
	check(COND(bins) && COND(bins->len == 4) && COND(same), "record: bins per CPU, 7 each, as measured");
	check(COND(root) && COND(lr_num(lr_at(lr_get(root, "max_gap_ns"), 1), &d)) && COND(d == 500700) &&
		      COND(lr_num(lr_at(lr_get(root, "max_gap_at_ns"), 1), &d)) &&
		      COND(d == (double)res.cpu[1].max_gap_at) &&
		      COND(lr_uint(lr_at(lr_get(root, "smi_delta"), 1), &v)) && COND(v == 3) &&
		      COND(capture_is_null(lr_at(lr_get(root, "smi_delta"), 2))),
	      "record: max_gap_ns, max_gap_at_ns, smi_delta (null where unknown) per CPU");
	check(COND(root) && COND(!strcmp(lr_str(lr_at(lr_get(root, "verdict"), 1)), "fail")) &&
		      COND(!strcmp(lr_str(lr_at(lr_get(root, "verdict"), 3)), "pass")) &&
		      COND(capture_u64(root, "failed", 2)) && COND(capture_u64(root, "worst_cpu", 2)) &&
		      COND(capture_u64(root, "limit_ns", 150000)),
	      "record: verdict per CPU, how many failed, the worst CPU");

	/* The size of a 10 s scan at 8 and 256 CPUs, every field at its widest. */
	for (int k = 0; k < 2; k++) {
		unsigned n = k ? 256 : 8;
		memset(&res, 0, sizeof res);
		uint64_t edge = 3000; /* 1 us at 3 GHz */
		res.seconds = 10;
		res.tsc_hz = 3e9;
		res.n_cpus = n;
		res.limit_cycles = 450000;
		for (unsigned b = 0; b < LATENCY_BINS - 1; b++, edge *= 10)
			res.edge[b] = edge;
		for (unsigned c = 0; c < n; c++) {
			struct latency_cpu *x = &res.cpu[c];
			x->done = x->smi_valid = true;
			x->bins[0] = 333333333;
			x->bins[1] = 12345;
			x->bins[2] = 123;
			x->bins[3] = 12;
			x->bins[4] = 1;
			x->bins[5] = 1;
			x->bins[6] = 0;
			x->max_gap = 29999999;
			x->max_gap_at = 29999999999ull;
			x->smi_after = 12;
		}
		capture_reset();
		record_latency(&cap.log, &res);
		root = capture_line(0, "latency", &bytes[1 + k]);
	}
	check(COND(bytes[1] < 1000) && COND(bytes[2] < LOG_RECORD_MAX / 2),
	      "record size: %zu bytes at 8 CPUs, %zu at 256", bytes[1], bytes[2]);
}

int main(void)
{
	test_planted();
	test_edges();
	test_odd_cases();
	test_record();
	return check_done();
}
