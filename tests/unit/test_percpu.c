/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/percpu.c on simulated CPUs (tests/unit/sim_team.h): the TSC and
 * RDTSCP read cost measured on every CPU in turn through measure_counter,
 * each on its own CPU and exact; work run on a chosen CPU; one CPU of each
 * core type; a CPU that never comes back; the percpu record read back. */
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
static uint64_t reads_on[2][SIM_CPUS]; /* [tsc, rdtscp][the CPU the read ran on] */

/* A read costing 20 + 7 x CPU cycles (rdtscp 30 + 7 x CPU): different on
 * every CPU, so a measurement on the wrong CPU shows. */
static uint64_t cost_of(int which, int cpu) { return (uint64_t)(which ? 30 : 20) + 7 * (uint64_t)cpu; }

static uint64_t sim_read_tsc(const struct counter *c)
{
	(void)c;
	reads_on[0][sim_self]++;
	sim.local[sim_self] += cost_of(0, sim_self);
	return sim.local[sim_self];
}

static uint64_t sim_read_rdtscp(const struct counter *c)
{
	(void)c;
	reads_on[1][sim_self]++;
	sim.local[sim_self] += cost_of(1, sim_self);
	return sim.local[sim_self];
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
static struct counter tsc, rdtscp;
static struct percpu_config cfg;

static void setup(unsigned n, bool with_rdtscp)
{
	sim_setup(n, SIM_CLOCK_PRIVATE, SIM_FREE, 1, 1);
	sim_env(&env);
	memset(reads_on, 0, sizeof reads_on);
	counter_describe(&tsc, "tsc", sim_read_tsc, 3, "simulated rdtsc");
	counter_describe(&rdtscp, "rdtscp", sim_read_rdtscp, 3, "simulated rdtscp");
	cfg = (struct percpu_config){ .tsc = &tsc, .rdtscp = with_rdtscp ? &rdtscp : NULL, .pc = &pc, .subtract = 1, .samples = SAMPLES,
				      .rounds = ROUNDS, .cost = cost, .round = round_hist,
				      .timeout_cycles = percpu_timeout(&env, SAMPLES) };
}

static void test_costs(void)
{
	bool exact = true, placed = true;

	setup(4, true);
	percpu_measure(&env, &cfg, &res);
	for (int c = 0; c < 4; c++) {
		exact &= res.tsc[c].measured && res.tsc[c].p50 == cost_of(0, c) && res.tsc[c].min == cost_of(0, c) &&
			 res.rdtscp[c].measured && res.rdtscp[c].p50 == cost_of(1, c) &&
			 res.rdtscp[c].min == cost_of(1, c);
		placed &= reads_on[0][c] == READS_PER_COUNTER && reads_on[1][c] == READS_PER_COUNTER;
	}
	check(res.n_cpus == 4 && res.have_rdtscp && exact,
	      "every CPU's tsc and rdtscp p50 and min are its own read cost, bracket subtracted (CPU 3: %llu, %llu)",
	      (unsigned long long)res.tsc[3].p50, (unsigned long long)res.rdtscp[3].p50);
	check(placed, "each CPU's reads ran on that CPU, %d per counter (CPU 2: %llu)", READS_PER_COUNTER,
	      (unsigned long long)reads_on[0][2]);
	check(sim.runs == 8, "one CPU at a time: 8 runs for 4 CPUs and 2 counters (%llu)", (unsigned long long)sim.runs);

	setup(3, false);
	sim.hang_at_start[1] = true;
	percpu_measure(&env, &cfg, &res);
	check(!res.have_rdtscp && !res.rdtscp[0].measured && res.tsc[0].measured && !res.tsc[1].measured &&
		      env.gone[1] && res.tsc[2].measured && res.tsc[2].p50 == cost_of(0, 2) && sim.timeouts == 1,
	      "no RDTSCP: not measured; a CPU that never comes is gone after one bound, the next one measured");
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

	setup(4, true);
	ok = percpu_run_on(&env, 3, where_am_i, NULL, 1000000);
	check(ok && ran_on == 303, "run_on: the work runs on the CPU asked for, and is told so (%u)", ran_on);
	ok = percpu_run_on(&env, 0, where_am_i, NULL, 1000000);
	check(ok && ran_on == 0, "run_on: CPU 0 runs it itself");
	sim.hang_at_start[2] = true;
	ran_on = 99;
	ok = percpu_run_on(&env, 2, where_am_i, NULL, 1000000);
	check(!ok && ran_on == 99 && env.gone[2] && !percpu_run_on(&env, 2, where_am_i, NULL, 1000000) &&
		      !percpu_run_on(&env, 7, where_am_i, NULL, 1000000),
	      "run_on: false for a CPU that never returns (then gone) and for one that does not exist");

	n = percpu_pick_core_types(hybrid, 6, out, 8);
	check(n == 3 && out[0] == 0 && out[1] == 2 && out[2] == 5, "core types: one CPU of each, the first of its kind");
	n = percpu_pick_core_types(same, 3, out, 8);
	check(n == 1 && out[0] == 0, "core types: all alike gives CPU 0 alone");
}

static void test_record(void)
{
	/* Cycles only: the ns columns follow from the tsc record's hz and are
	 * put back by the host reader (tools/log/derived.c). */
	static const char *const keys[] = { "type", "seq", "cpus", "samples", "tsc_p50_cycles", "tsc_min_cycles",
		"rdtscp_p50_cycles", "rdtscp_min_cycles", "crc" };
	const struct lr_node *root;
	uint64_t v, w;
	size_t bytes[3];

	setup(3, true);
	sim.hang_at_start[1] = true;
	percpu_measure(&env, &cfg, &res);
	capture_reset();
	record_percpu(&cap.log, &res);
	root = capture_line(0, "percpu", &bytes[0]);
	check(root && capture_keys_are(root, keys, sizeof keys / sizeof keys[0]) && capture_u64(root, "cpus", 3),
	      "record: percpu has its keys, in order, no ns columns (%zu bytes for 3 CPUs)", bytes[0]);
	check(root && lr_uint(lr_at(lr_get(root, "tsc_p50_cycles"), 2), &v) && v == cost_of(0, 2) &&
		      lr_uint(lr_at(lr_get(root, "rdtscp_min_cycles"), 2), &w) && w == cost_of(1, 2) &&
		      capture_is_null(lr_at(lr_get(root, "tsc_p50_cycles"), 1)) &&
		      capture_is_null(lr_at(lr_get(root, "rdtscp_min_cycles"), 1)) &&
		      lr_get(root, "tsc_min_cycles")->len == 3 && lr_get(root, "rdtscp_p50_cycles")->len == 3,
	      "record: parallel arrays of cycles by CPU index, null for the CPU not measured");
	setup(2, false);
	percpu_measure(&env, &cfg, &res);
	capture_reset();
	record_percpu(&cap.log, &res);
	root = capture_line(0, "percpu", NULL);
	check(root && capture_is_null(lr_get(root, "rdtscp_p50_cycles")) &&
		      capture_is_null(lr_get(root, "rdtscp_min_cycles")) &&
		      lr_uint(lr_at(lr_get(root, "tsc_min_cycles"), 1), &v) && v == cost_of(0, 1),
	      "record: no RDTSCP gives null arrays, the TSC's stay");

	for (int k = 0; k < 2; k++) {
		unsigned n = k ? 256 : 8;
		memset(&res, 0, sizeof res);
		res.n_cpus = n, res.samples = 10000, res.have_rdtscp = true;
		for (unsigned c = 0; c < n; c++) {
			res.tsc[c] = (struct percpu_cost){ true, 123, 118 };
			res.rdtscp[c] = (struct percpu_cost){ true, 1234, 1180 };
		}
		capture_reset();
		record_percpu(&cap.log, &res);
		capture_line(0, "percpu", &bytes[1 + k]);
	}
	check(bytes[1] < 600 && bytes[2] < LOG_RECORD_MAX / 4, "record size: %zu bytes at 8 CPUs, %zu at 256", bytes[1],
	      bytes[2]);
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
