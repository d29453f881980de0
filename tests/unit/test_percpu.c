/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/percpu.c on simulated CPUs (tests/unit/sim_team.h): the TSC, RDTSCP
 * and an APIC-like read cost measured on every CPU in turn through
 * measure_counter, each on its own CPU and exact, the APIC's prepare and
 * settle run on the CPU that measures; work run on a chosen CPU; one CPU of
 * each core type; a CPU that never comes back; the percpu record read back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/percpu.h"
#include "probe/records_smp.h"
#include "tests/unit/check.h"
#include "tests/unit/log_capture.h"
#include "tests/unit/sim_team.h"

#define SAMPLES 1000
#define ROUNDS 10
/* measure_counter's reads: 16 warm-up, the samples, a block of samples/rounds */
#define READS_PER_COUNTER (16 + SAMPLES + SAMPLES / ROUNDS)

static struct smp_env env;
static struct percpu_result res;
static struct hist *cost, *round_hist;
static uint64_t reads_on[3][SIM_CPUS]; /* [tsc, rdtscp, apic][the CPU the read ran on] */
static uint64_t unready_reads;          /* APIC reads outside its prepare and settle on the CPU */
static int prepared_on[SIM_CPUS], settled_on[SIM_CPUS], apic_ready = -1;

/* A read costing 20 + 7 x CPU cycles (rdtscp 30 + 7 x CPU, the APIC 90 +
 * 7 x CPU): different on every CPU, so a measurement on the wrong CPU shows. */
static uint64_t cost_of(int which, int cpu)
{
	return (uint64_t)(which == 2 ? 90 : which ? 30 : 20) + 7 * (uint64_t)cpu;
}

static uint64_t sim_read(int which)
{
	reads_on[which][sim_self]++;
	sim.local[sim_self] += cost_of(which, sim_self);
	return sim.local[sim_self];
}

static uint64_t sim_read_tsc(const struct counter *c)
{
	(void)c;
	return sim_read(0);
}

static uint64_t sim_read_rdtscp(const struct counter *c)
{
	(void)c;
	return sim_read(1);
}

/* Worth reading only between its prepare and settle on the same CPU, as the
 * APIC timer's current count counts only once that CPU's timer runs. */
static uint64_t sim_read_apic(const struct counter *c)
{
	(void)c;
	unready_reads += apic_ready != sim_self;
	return sim_read(2);
}

static const struct counter_desc tsc_desc = {
	.name = "tsc", .read = sim_read_tsc, .insns = 3, .method = "simulated rdtsc"
};
static const struct counter_desc rdtscp_desc = {
	.name = "rdtscp", .read = sim_read_rdtscp, .insns = 3, .method = "simulated rdtscp"
};
static const struct counter_desc apic_desc = {
	.name = "lapic", .read = sim_read_apic, .insns = 3, .method = "simulated APIC current count"
};
static void sim_apic_prepare(void *ctx)
{
	(void)ctx;
	prepared_on[sim_self]++;
	apic_ready = sim_self;
}
static void sim_apic_settle(void *ctx)
{
	(void)ctx;
	settled_on[sim_self]++;
	apic_ready = -1;
}

/* The probe_clock on the calling simulated CPU: brackets of two TSC reads. */
static uint64_t pc_tsc(void) { return sim_tsc((unsigned)sim_self); }
static uint64_t pc_bracket(counter_read_fn fn, const struct counter *c)
{
	uint64_t t0 = pc_tsc();
	fn(c);
	return pc_tsc() - t0;
}
static uint64_t pc_block(counter_read_fn fn, const struct counter *c, uint64_t k)
{
	uint64_t t0 = pc_tsc();
	for (uint64_t i = 0; i < k; i++)
		fn(c);
	return pc_tsc() - t0;
}
static uint64_t pc_empty(const struct counter *c)
{
	(void)c;
	return 0;
}

static struct probe_clock pc = { .tsc = pc_tsc, .bracket = pc_bracket, .block = pc_block, .empty = pc_empty,
				 .bracket_name = "sim", .max_wait_cycles = 1000000000, .max_wait_loops = 1000000 };
static struct counter tsc, rdtscp, apic;
static struct percpu_config cfg;

static void setup(unsigned n, bool with_rdtscp, bool with_apic)
{
	sim_setup(n, SIM_CLOCK_PRIVATE, SIM_FREE, 1, 1);
	sim_env(&env);
	memset(reads_on, 0, sizeof reads_on);
	memset(prepared_on, 0, sizeof prepared_on);
	memset(settled_on, 0, sizeof settled_on);
	unready_reads = 0;
	counter_from_desc(&tsc, &tsc_desc);
	counter_from_desc(&rdtscp, &rdtscp_desc);
	counter_from_desc(&apic, &apic_desc);
	cfg = (struct percpu_config){ .pc = &pc, .subtract = 1, .samples = SAMPLES, .rounds = ROUNDS, .cost = cost,
				      .round = round_hist, .timeout_cycles = percpu_timeout(&env, SAMPLES) };
	cfg.counter[cfg.n++] = (struct percpu_counter){ .c = &tsc };
	if (with_rdtscp)
		cfg.counter[cfg.n++] = (struct percpu_counter){ .c = &rdtscp };
	if (with_apic)
		cfg.counter[cfg.n++] = (struct percpu_counter){ .c = &apic, .prepare = sim_apic_prepare,
								.settle = sim_apic_settle };
}

static void test_costs(void)
{
	bool exact = true, placed = true, framed = true;

	setup(4, true, true);
	percpu_measure(&env, &cfg, &res);
	for (int c = 0; c < 4; c++) {
		for (int k = 0; k < 3; k++) {
			exact &= res.cost[k][c].measured && res.cost[k][c].p50 == cost_of(k, c) &&
				 res.cost[k][c].min == cost_of(k, c);
			placed &= reads_on[k][c] == READS_PER_COUNTER;
		}
		framed &= prepared_on[c] == 1 && settled_on[c] == 1;
	}
	check(COND(res.n_cpus == 4) && COND(res.n == 3) && COND(res.counter[2] == &apic) && COND(exact),
	      "every CPU's tsc, rdtscp and lapic p50 and min are its own read cost, bracket subtracted "
	      "(CPU 3: %llu, %llu, %llu)",
	      (unsigned long long)res.cost[0][3].p50, (unsigned long long)res.cost[1][3].p50,
	      (unsigned long long)res.cost[2][3].p50);
	check(placed, "each CPU's reads ran on that CPU, %d per counter (CPU 2: %llu)", READS_PER_COUNTER,
	      (unsigned long long)reads_on[0][2]);
	check(COND(framed) && COND(unready_reads == 0),
	      "the APIC's prepare and settle ran once on each CPU, around its reads there (%llu reads outside)",
	      (unsigned long long)unready_reads);
	check(sim.runs == 12, "one CPU at a time: 12 runs for 4 CPUs and 3 counters (%llu)", (unsigned long long)sim.runs);

	setup(3, false, false);
	sim.hang_at_start[1] = true;
	percpu_measure(&env, &cfg, &res);
	check(COND(res.n == 1) && COND(res.cost[0][0].measured) && COND(!res.cost[0][1].measured) &&
		      COND(env.gone[1]) && COND(res.cost[0][2].measured) && COND(res.cost[0][2].p50 == cost_of(0, 2)) &&
		      COND(sim.timeouts == 1),
	      "no RDTSCP: the TSC alone; a CPU that never comes is gone after one bound, the next one measured");
}

static unsigned ran_on = 99;
static void where_am_i(unsigned cpu, void *arg)
{
	(void)arg;
	ran_on = (unsigned)sim_self * 100 + cpu;
}

static void test_run_on(void)
{
	static const uint8_t hybrid[6] = { 0x40, 0x40, 0x20, 0x20, 0x40, 0x21 };
	static const uint8_t same[3] = { 0x20, 0x20, 0x20 };
	unsigned out[8], n;
	bool ok;

	setup(4, true, false);
	ok = percpu_run_on(&env, 3, where_am_i, NULL, 1000000);
	check(COND(ok) && COND(ran_on == 303), "run_on: the work runs on the CPU asked for, and is told so (%u)",
	      ran_on);
	ok = percpu_run_on(&env, 0, where_am_i, NULL, 1000000);
	check(COND(ok) && COND(ran_on == 0), "run_on: CPU 0 runs it itself");
	sim.hang_at_start[2] = true;
	ran_on = 99;
	ok = percpu_run_on(&env, 2, where_am_i, NULL, 1000000);
	check(COND(!ok) && COND(ran_on == 99) && COND(env.gone[2]) &&
		      COND(!percpu_run_on(&env, 2, where_am_i, NULL, 1000000)) &&
		      COND(!percpu_run_on(&env, 7, where_am_i, NULL, 1000000)),
	      "run_on: false for a CPU that never returns (then gone) and for one that does not exist");

	n = percpu_pick_core_types(hybrid, 6, out, 8);
	check(COND(n == 3) && COND(out[0] == 0) && COND(out[1] == 2) && COND(out[2] == 5),
	      "core types: one CPU of each, the first of its kind");
	n = percpu_pick_core_types(same, 3, out, 8);
	check(COND(n == 1) && COND(out[0] == 0), "core types: all alike gives CPU 0 alone");
}

static void test_record(void)
{
	/* Cycles only: the ns columns follow from the tsc record's hz and are
	 * put back by the host reader (tools/lib/logderived.c). */
	static const char *const keys[] = { "type", "seq", "cpus", "samples", "tsc_p50_cycles", "tsc_min_cycles",
		"rdtscp_p50_cycles", "rdtscp_min_cycles", "lapic_p50_cycles", "lapic_min_cycles", "crc" };
	static const char *const tsc_only[] = { "type", "seq", "cpus", "samples", "tsc_p50_cycles", "tsc_min_cycles",
		"crc" };
	const struct lr_node *root;
	uint64_t v, w, a;
	size_t bytes[3];

	setup(3, true, true);
	sim.hang_at_start[1] = true;
	percpu_measure(&env, &cfg, &res);
	capture_reset();
	record_percpu(&cap.log, &res);
	root = capture_line(0, "percpu", &bytes[0]);
	check(COND(root) && COND(capture_keys_are(root, keys, sizeof keys / sizeof keys[0])) &&
		      COND(capture_u64(root, "cpus", 3)),
	      "record: percpu has a pair of columns per counter, in order, no ns columns (%zu bytes for 3 CPUs)",
	      bytes[0]);
	check(COND(root) && COND(lr_uint(lr_at(lr_get(root, "tsc_p50_cycles"), 2), &v)) && COND(v == cost_of(0, 2)) &&
		      COND(lr_uint(lr_at(lr_get(root, "rdtscp_min_cycles"), 2), &w)) && COND(w == cost_of(1, 2)) &&
		      COND(lr_uint(lr_at(lr_get(root, "lapic_p50_cycles"), 2), &a)) && COND(a == cost_of(2, 2)),
	      "record: parallel arrays of cycles by CPU index");
	check(COND(root) && COND(capture_is_null(lr_at(lr_get(root, "tsc_p50_cycles"), 1))) &&
		      COND(capture_is_null(lr_at(lr_get(root, "lapic_min_cycles"), 1))),
	      "record: null for the CPU not measured");
	check(COND(root) && COND(lr_get(root, "tsc_min_cycles")->len == 3) &&
		      COND(lr_get(root, "lapic_p50_cycles")->len == 3),
	      "record: an entry for each CPU in every array");
	setup(2, false, false);
	percpu_measure(&env, &cfg, &res);
	capture_reset();
	record_percpu(&cap.log, &res);
	root = capture_line(0, "percpu", NULL);
	check(COND(root) && COND(capture_keys_are(root, tsc_only, sizeof tsc_only / sizeof tsc_only[0])) &&
		      COND(lr_uint(lr_at(lr_get(root, "tsc_min_cycles"), 1), &v)) && COND(v == cost_of(0, 1)),
	      "record: no RDTSCP and no APIC give the TSC's columns alone");

	for (int k = 0; k < 2; k++) {
		unsigned n = k ? 256 : 8;
		memset(&res, 0, sizeof res);
		res.n_cpus = n;
		res.samples = 10000;
		res.n = 3;
		res.counter[0] = &tsc;
		res.counter[1] = &rdtscp;
		res.counter[2] = &apic;
		for (unsigned c = 0; c < n; c++) {
			res.cost[0][c] = (struct percpu_cost){ true, 123, 118 };
			res.cost[1][c] = (struct percpu_cost){ true, 1234, 1180 };
			res.cost[2][c] = (struct percpu_cost){ true, 2345, 2290 };
		}
		capture_reset();
		record_percpu(&cap.log, &res);
		capture_line(0, "percpu", &bytes[1 + k]);
	}
	check(COND(bytes[1] < 800) && COND(bytes[2] < LOG_RECORD_MAX / 4),
	      "record size with 3 counters: %zu bytes at 8 CPUs, %zu at 256", bytes[1], bytes[2]);
}

int main(void)
{
	cost = malloc(sizeof *cost);
	round_hist = malloc(sizeof *round_hist);
	test_costs();
	test_run_on();
	test_record();
	return check_done();
}
