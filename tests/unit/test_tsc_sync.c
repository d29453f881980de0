/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/tsc_sync.c on simulated CPUs (tests/unit/sim_team.h): the warp test,
 * the ping-pong offset and its stated bound, IA32_TSC_ADJUST, the verdict,
 * the matrix, CPUs that never come back, and the tsc_sync record read back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/records_smp.h"
#include "probe/tsc_sync.h"
#include "tests/unit/check.h"
#include "tests/unit/log_capture.h"
#include "tests/unit/sim_team.h"
#include "tools/lib/logderived.h"

#define S_SKEW 100000 /* cycles: far above any round trip in the lockstep simulation */

static struct smp_env env;
static struct tsc_sync_result res;
static struct tsc_pair pairs[SIM_CPUS * SIM_CPUS], pairs_wide[TEAM_MAX_CPUS];

/* Lockstep: every read advances the clock by 1 cycle, so bounds are reads. */
static void lockstep_config(struct tsc_sync_config *cfg, bool matrix)
{
	cfg->matrix = matrix;
	cfg->warp_cycles = 2000;
	cfg->warp_loops = 10000000;
	cfg->pingpongs = 100;
	cfg->wait_cycles = 100000;
}

/* Real concurrency on the host clock (ns): bounds generous for a loaded
 * host, where a thread may wait for a core; a CPU whose partner is not
 * running stops after 200,000 rounds rather than Linux's 10,000,000. */
static void free_config(struct tsc_sync_config *cfg, bool matrix, uint64_t wait_ns)
{
	cfg->matrix = matrix;
	cfg->warp_cycles = 2000000;
	cfg->warp_loops = 200000;
	cfg->pingpongs = 200;
	cfg->wait_cycles = wait_ns;
}

static uint64_t mag(int64_t v) { return v < 0 ? (uint64_t)-v : (uint64_t)v; }

static const struct tsc_pair *find_pair(unsigned ref, unsigned cpu)
{
	for (unsigned i = 0; i < res.n_pairs; i++)
		if (res.pairs[i].ref == ref && res.pairs[i].cpu == cpu)
			return &res.pairs[i];
	return NULL;
}

/* The pair's offset is within its stated uncertainty of `want`. */
static bool offset_is(const struct tsc_pair *p, int64_t want)
{
	return p && p->offset_done && mag(p->offset - want) <= p->uncertainty;
}

static void run(const struct tsc_sync_config *cfg)
{
	tsc_sync_measure(&env, cfg, pairs, sizeof pairs / sizeof pairs[0], &res);
}

static void setup(unsigned n, enum sim_clock clock, enum sim_sched sched, uint64_t seed)
{
	sim_setup(n, clock, sched, 1, seed);
	sim_env(&env);
	for (unsigned c = 0; c < n; c++)
		sim.tsc_adjust[c] = (int64_t)c * 1000 - 1500;
}

static void test_synchronized(enum sim_clock clock, enum sim_sched sched, const char *how)
{
	struct tsc_sync_config cfg;
	bool offsets = true, handoffs = true;

	setup(4, clock, sched, 7);
	sim.tsc_adjust_absent[3] = true;
	if (clock == SIM_CLOCK_REAL)
		free_config(&cfg, false, 1000000000);
	else
		lockstep_config(&cfg, false);
	run(&cfg);
	for (unsigned i = 0; i < res.n_pairs; i++) {
		offsets &= offset_is(&res.pairs[i], 0);
		handoffs &= res.pairs[i].handoffs > 0 && res.pairs[i].warp_done;
	}
	check(COND(res.n_pairs == 3) && COND(res.pairs[0].ref == 0) && COND(res.pairs[2].cpu == 3),
	      "%s: 4 CPUs give 3 pairs, each against CPU 0", how);
	check(COND(res.warps == 0) && COND(res.max_warp == 0), "%s, no skew: 0 warps (%llu)", how,
	      (unsigned long long)res.warps);
	check(offsets, "%s, no skew: every |offset| <= its uncertainty (pair 1: %lld +- %llu)", how,
	      (long long)res.pairs[0].offset, (unsigned long long)res.pairs[0].uncertainty);
	check(handoffs, "%s: every warp test passed the lock between its CPUs (pair 1: %llu hand-overs, %llu rounds)",
	      how, (unsigned long long)res.pairs[0].handoffs, (unsigned long long)res.pairs[0].loops);
	check(COND(res.verdict == TSC_VERDICT_SYNCHRONIZED) && COND(!res.linux_would_mark_unstable) &&
		      COND(!res.n_incomplete),
	      "%s, no skew: synchronized, and Linux would keep the TSC", how);
	check(COND(res.tsc_adjust_valid[0]) && COND(res.tsc_adjust[0] == -1500) && COND(res.tsc_adjust[2] == 500) &&
		      COND(!res.tsc_adjust_valid[3]),
	      "%s: IA32_TSC_ADJUST read on each CPU (CPU 2: %lld), absent where CPUID says so (CPU 3)", how,
	      (long long)res.tsc_adjust[2]);
	check(sim.wrong_cpu == 0, "%s: every TSC read named the CPU it ran on", how);
}

/* Skew +skew on CPU 2, by the simulated hardware or by the tsc_skew= hook.
 * Free-running threads on a loaded host need not run at the same time, so
 * there a warp is possible, not certain (the lockstep runs make it certain);
 * what holds under any schedule is checked: no warp off CPU 2, the largest
 * warp within the skew, the offset within its bound of the skew, and a
 * verdict that follows from the offset alone (the bound is at most half the
 * 1 s wait, below the 2 s skew).  Linux's verdict follows the warps only, so
 * there it is "unstable" exactly when a warp was seen. */
static void test_skew(enum sim_clock clock, enum sim_sched sched, int64_t skew, bool hook, const char *how)
{
	struct tsc_sync_config cfg;
	const struct tsc_pair *p1, *p2, *p3;

	setup(4, clock, sched, 11);
	if (clock == SIM_CLOCK_REAL)
		free_config(&cfg, false, 1000000000);
	else
		lockstep_config(&cfg, false);
	if (hook) {
		env.skew_set = true;
		env.skew_cpu = 2;
		env.skew_cycles = skew;
	} else {
		sim.skew[2] = skew;
	}
	run(&cfg);
	p1 = find_pair(0, 1);
	p2 = find_pair(0, 2);
	p3 = find_pair(0, 3);
	check(COND(p1) && COND(p2) && COND(p3) && COND(p1->warps == 0) && COND(p3->warps == 0) &&
		      COND(p2->warps > 0 || clock == SIM_CLOCK_REAL),
	      "%s: warps on CPU 2's pair only (%llu; CPU 1 %llu, CPU 3 %llu)", how,
	      p2 ? (unsigned long long)p2->warps : 0, p1 ? (unsigned long long)p1->warps : 0,
	      p3 ? (unsigned long long)p3->warps : 0);
	check(COND(p2) && COND(p2->max_warp > 0 || clock == SIM_CLOCK_REAL) && COND(p2->max_warp <= mag(skew)),
	      "%s: the largest warp (%llu) is at most the skew (%lld)", how, p2 ? (unsigned long long)p2->max_warp : 0,
	      (long long)skew);
	check(offset_is(p2, skew), "%s: |offset - skew| <= uncertainty (offset %lld +- %llu, skew %lld)", how,
	      p2 ? (long long)p2->offset : 0, p2 ? (unsigned long long)p2->uncertainty : 0, (long long)skew);
	check(COND(offset_is(p1, 0)) && COND(offset_is(p3, 0)),
	      "%s: the other CPUs' offsets are 0 within their uncertainty", how);
	check(res.verdict == TSC_VERDICT_NOT_SYNCHRONIZED, "%s: not synchronized, from the offset alone", how);
	check(COND(p2) && COND(res.linux_would_mark_unstable == (p2->warps > 0)) &&
		      COND(res.linux_would_mark_unstable || clock == SIM_CLOCK_REAL),
	      "%s: Linux would mark the TSC unstable exactly when a warp was seen (%s)", how,
	      res.linux_would_mark_unstable ? "marked" : "kept");
}

static void test_deterministic(void)
{
	struct tsc_sync_config cfg;
	struct tsc_pair first[3];

	lockstep_config(&cfg, false);
	setup(4, SIM_CLOCK_COUNTED, SIM_RANDOM, 99);
	sim.skew[1] = -S_SKEW;
	run(&cfg);
	memcpy(first, pairs, sizeof first);
	setup(4, SIM_CLOCK_COUNTED, SIM_RANDOM, 99);
	sim.skew[1] = -S_SKEW;
	run(&cfg);
	check(COND(!memcmp(first, pairs, sizeof first)) && COND(first[0].warps > 0),
	      "lockstep: the same seed gives the same pairs, to the cycle (CPU 1: %llu warps, offset %lld)",
	      (unsigned long long)first[0].warps, (long long)first[0].offset);
}

static void test_matrix(void)
{
	struct tsc_sync_config cfg;
	bool refs = true, clean = true, skewed = true;

	lockstep_config(&cfg, true);
	setup(4, SIM_CLOCK_COUNTED, SIM_ROUND_ROBIN, 1);
	sim.skew[2] = S_SKEW;
	run(&cfg);
	check(COND(res.n_pairs == 6) && COND(tsc_sync_pairs_needed(4, true) == 6) &&
		      COND(tsc_sync_pairs_needed(4, false) == 3) && COND(tsc_sync_pairs_needed(1, true) == 0),
	      "matrix: 4 CPUs give n(n-1)/2 = 6 pairs (%u)", res.n_pairs);
	for (unsigned i = 0; i < res.n_pairs; i++) {
		const struct tsc_pair *p = &res.pairs[i];
		bool with2 = p->ref == 2 || p->cpu == 2;
		refs &= p->ref < p->cpu;
		if (with2)
			skewed &= p->warps > 0 && offset_is(p, p->cpu == 2 ? S_SKEW : -S_SKEW);
		else
			clean &= p->warps == 0 && offset_is(p, 0);
	}
	check(refs, "matrix: every pair names its reference CPU, the lower index");
	check(skewed, "matrix: the 3 pairs with CPU 2 warp, offset +skew against it, -skew from it (2 vs 3: %lld)",
	      find_pair(2, 3) ? (long long)find_pair(2, 3)->offset : 0);
	check(clean, "matrix: the 3 pairs without CPU 2 are clean");
	check(COND(res.verdict == TSC_VERDICT_NOT_SYNCHRONIZED) && COND(res.linux_would_mark_unstable),
	      "matrix: not synchronized; Linux (checking against CPU 0) would mark it unstable");

	/* A pair array too small: the rest are skipped, and the verdict is open. */
	setup(4, SIM_CLOCK_COUNTED, SIM_ROUND_ROBIN, 1);
	tsc_sync_measure(&env, &cfg, pairs, 2, &res);
	check(COND(res.n_pairs == 2) && COND(res.pairs_skipped == 4) && COND(res.verdict == TSC_VERDICT_UNKNOWN),
	      "matrix: pairs beyond the array are skipped and counted (%u), the verdict is unknown", res.pairs_skipped);
}

/* Two APs far off CPU 0 and 50 cycles apart: the matrix resolves the 50
 * (the lockstep round trip is a few reads, so its uncertainty is too). */
static void test_small_offset(void)
{
	struct tsc_sync_config cfg;
	const struct tsc_pair *p;

	lockstep_config(&cfg, true);
	setup(3, SIM_CLOCK_COUNTED, SIM_ROUND_ROBIN, 1);
	sim.skew[1] = S_SKEW;
	sim.skew[2] = S_SKEW + 50;
	run(&cfg);
	p = find_pair(1, 2);
	check(COND(p) && COND(offset_is(p, 50)) && COND(p->uncertainty < 50) && COND(p->warps > 0) &&
		      COND(offset_is(find_pair(0, 2), S_SKEW + 50)),
	      "matrix: CPU 2 is 50 cycles ahead of CPU 1 (%lld +- %llu), both far ahead of CPU 0",
	      p ? (long long)p->offset : 0, p ? (unsigned long long)p->uncertainty : 0);
}

static void test_gone(void)
{
	struct tsc_sync_config cfg;
	const struct tsc_pair *p;

	/* Hangs at the start of its first run: the TSC_ADJUST run. */
	lockstep_config(&cfg, false);
	setup(4, SIM_CLOCK_COUNTED, SIM_ROUND_ROBIN, 1);
	sim.hang_at_start[3] = true;
	run(&cfg);
	p = find_pair(0, 3);
	check(COND(env.gone[3]) && COND(env.n_gone == 1) && COND(sim.timeouts == 1),
	      "a CPU that never returns is marked gone after one bounded wait (%llu timeouts)",
	      (unsigned long long)sim.timeouts);
	check(COND(p) && COND(!p->warp_done) && COND(!p->offset_done) && COND(res.n_incomplete == 1) &&
		      COND(find_pair(0, 2)->warp_done) && COND(offset_is(find_pair(0, 2), 0)),
	      "its pair is reported incomplete, the others are measured");
	check(res.verdict == TSC_VERDICT_UNKNOWN, "with a pair missing and no fault found, the verdict is unknown");

	/* Stops inside the warp test, maybe holding the lock. */
	setup(4, SIM_CLOCK_COUNTED, SIM_ROUND_ROBIN, 1);
	sim.hang_at_read[2] = 40;
	run(&cfg);
	p = find_pair(0, 2);
	check(COND(env.gone[2]) && COND(p) && COND(!p->warp_done) && COND(find_pair(0, 3)->warp_done) &&
		      COND(offset_is(find_pair(0, 3), 0)),
	      "a CPU that stops mid-test: its pair incomplete (%llu rounds done), CPU 3 still measured after it",
	      p ? (unsigned long long)p->loops : 0);

	/* Stops inside the ping-pong, under real concurrency.  The wait is 1 s,
	 * not 50 ms: on a loaded host (load 20 on 2 cores) the measuring thread
	 * itself may wait that long for a core, and CPU 2 was then taken for
	 * gone too. */
	free_config(&cfg, false, 1000000000);
	setup(3, SIM_CLOCK_REAL, SIM_FREE, 1);
	sim.hang_at_start[1] = true;
	run(&cfg);
	check(COND(env.gone[1]) && COND(!env.gone[2]) && COND(find_pair(0, 2)) && COND(find_pair(0, 2)->warp_done) &&
		      COND(res.verdict == TSC_VERDICT_UNKNOWN),
	      "free-running: a CPU that never starts is gone, the rest measured, verdict unknown "
	      "(gone: %d %d, pair 0-2 %s)",
	      env.gone[1], env.gone[2],
	      !find_pair(0, 2)             ? "missing"
	      : find_pair(0, 2)->warp_done ? "done"
					   : "not done");

	/* One CPU: nothing to pair, nothing run. */
	setup(1, SIM_CLOCK_COUNTED, SIM_ROUND_ROBIN, 1);
	run(&cfg);
	check(COND(res.n_pairs == 0) && COND(res.n_cpus == 1) && COND(res.verdict == TSC_VERDICT_UNKNOWN) &&
		      COND(sim.runs == 0),
	      "one CPU: no pairs, no runs, verdict unknown");
}

/* ---- the record ------------------------------------------------------------ */


/* A record as the host reader gives it: the pairs, written as columns, as a
 * list of objects again (tools/lib/logderived.c).  Checks that they were
 * columns first.  Valid until the next call. */
static const struct lr_node *as_read(const struct lr_node *root, bool *columns)
{
	static struct derived d;
	const struct lr_node *pr = root ? lr_get(root, "pairs") : NULL;

	derived_free(&d);
	*columns = pr && pr->kind == LR_OBJ;
	if (root)
		derived_add(&d, (struct lr_node *)root, 0);
	return root;
}

static void test_record(void)
{
	static const char *const summary_keys[] = { "type", "seq", "synchronized", "warps", "max_warp_cycles",
		"linux_would_mark_unstable", "rule", "mode", "cpus", "warp_cycles", "pingpongs", "min_handoffs",
		"incomplete", "boot_tsc_adjust", "gone", "pairs_total", "pairs", "crc" };
	static const char *const pair_keys[] = { "cpu", "offset_cycles", "uncertainty_cycles", "warps",
		"max_warp_cycles", "tsc_adjust" };
	static const char *const matrix_keys[] = { "cpu", "ref", "offset_cycles", "uncertainty_cycles", "warps",
		"max_warp_cycles", "tsc_adjust", "complete" };
	struct tsc_sync_config cfg;
	const struct lr_node *root, *pr;
	bool same = true;
	size_t bytes;
	uint64_t gone;
	bool columns;

	lockstep_config(&cfg, false);
	setup(4, SIM_CLOCK_COUNTED, SIM_ROUND_ROBIN, 1);
	sim.skew[2] = S_SKEW;
	sim.tsc_adjust_absent[3] = true;
	run(&cfg);
	capture_reset();
	record_tsc_sync(&cap.log, &res, &env);
	root = as_read(capture_line(0, "tsc_sync", &bytes), &columns);
	check(columns, "record: the pairs are written as columns, one value a pair");
	check(COND(root) && COND(capture_keys_are(root, summary_keys, sizeof summary_keys / sizeof summary_keys[0])),
	      "record: tsc_sync has its keys, in order (%zu bytes for 4 CPUs)", bytes);
	check(COND(root) && COND(lr_get(root, "synchronized")->kind == LR_BOOL) &&
		      COND(!lr_true(lr_get(root, "synchronized"))) &&
		      COND(lr_true(lr_get(root, "linux_would_mark_unstable"))) &&
		      COND(capture_u64(root, "warps", res.warps)) &&
		      COND(capture_u64(root, "max_warp_cycles", res.max_warp)) &&
		      COND(!strcmp(lr_str(lr_get(root, "rule")), TSC_SYNC_RULE)),
	      "record: verdict, warps and the rule as measured");
	pr = root ? lr_get(root, "pairs") : NULL;
	for (unsigned i = 0; pr && i < 3; i++) {
		const struct lr_node *p = lr_at(pr, i);
		same &= capture_keys_are(p, pair_keys, 6) && capture_u64(p, "cpu", res.pairs[i].cpu) &&
			lr_get(p, "offset_cycles")->is_int && lr_get(p, "offset_cycles")->i == res.pairs[i].offset &&
			capture_u64(p, "uncertainty_cycles", res.pairs[i].uncertainty) &&
			capture_u64(p, "warps", res.pairs[i].warps);
	}
	check(COND(pr) && COND(pr->len == 3) && COND(same),
	      "record: 3 pairs of {cpu, offset_cycles, uncertainty_cycles, warps, "
	      "max_warp_cycles, tsc_adjust}, as measured");
	check(COND(pr) && COND(lr_get(lr_at(pr, 1), "tsc_adjust")->i == 500) &&
		      COND(capture_is_null(lr_get(lr_at(pr, 2), "tsc_adjust"))) &&
		      COND(lr_get(root, "boot_tsc_adjust")->i == -1500),
	      "record: tsc_adjust per CPU, null where absent; the boot CPU's beside the pairs");

	/* The matrix, with a CPU gone. */
	lockstep_config(&cfg, true);
	setup(4, SIM_CLOCK_COUNTED, SIM_ROUND_ROBIN, 1);
	sim.hang_at_start[3] = true;
	run(&cfg);
	capture_reset();
	record_tsc_sync(&cap.log, &res, &env);
	root = as_read(capture_line(0, "tsc_sync", &bytes), &columns);
	pr = root ? lr_get(root, "pairs") : NULL;
	check(COND(root) && COND(capture_is_null(lr_get(root, "synchronized"))) && COND(pr) && COND(pr->len == 6) &&
		      COND(capture_keys_are(lr_at(pr, 0), matrix_keys, 8)) &&
		      COND(capture_u64(lr_at(pr, 5), "ref", 2)) && COND(lr_get(root, "gone")->len == 1) &&
		      COND(lr_uint(lr_at(lr_get(root, "gone"), 0), &gone)) && COND(gone == 3),
	      "record: matrix pairs carry ref; an unknown verdict is null; the gone CPU is listed");
	check(COND(pr) && COND(capture_is_null(lr_get(lr_at(pr, 2), "offset_cycles"))) &&
		      COND(lr_get(lr_at(pr, 2), "complete")) && COND(!lr_true(lr_get(lr_at(pr, 2), "complete"))) &&
		      COND(lr_true(lr_get(lr_at(pr, 0), "complete"))),
	      "record: an incomplete pair says complete:false and has a null offset; the others, in the same column, true");
}

/* Many pairs continue in tsc_sync_pairs records. */
static void test_record_many_pairs(void)
{
	const struct lr_node *root;
	bool columns;
	int64_t off;
	static struct tsc_pair many[1200];
	memset(&res, 0, sizeof res);
	res.pairs = many;
	res.n_pairs = 1200;
	res.matrix = true;
	for (unsigned i = 0; i < 1200; i++)
		many[i] = (struct tsc_pair){ .ref = (uint16_t)(i / 40), .cpu = (uint16_t)(i % 40 + 41),
					     .warp_done = true, .offset_done = true, .offset = -(int64_t)i,
					     .uncertainty = 30 };
	bool middle;
	capture_reset();
	record_tsc_sync(&cap.log, &res, &env);
	root = as_read(capture_line(1, "tsc_sync_pairs", NULL), &columns);
	middle = columns && root && capture_u64(root, "first", 512) && lr_get(root, "pairs")->len == 512;
	root = as_read(capture_line(2, "tsc_sync_pairs", NULL), &columns); /* line 1's parse is gone now */
	off = root ? lr_get(lr_at(lr_get(root, "pairs"), 0), "offset_cycles")->i : 0;
	check(COND(capture_lines() == 3) && COND(middle) && COND(root) && COND(capture_u64(root, "first", 1024)) &&
		      COND(lr_get(root, "pairs")->len == 176) && COND(off == -1024),
	      "record: 1200 pairs go out as 512 + 512 + 176, the later records saying where they start");
}

/* The size at 8 and 256 CPUs, each CPU against CPU 0, with wide figures:
 * offsets of 5 digits, TSC_ADJUST of 10, a warp count in every pair. */
static void test_record_size(void)
{
	struct tsc_sync_config cfg;
	size_t size[2];
	lockstep_config(&cfg, false);
	for (int k = 0; k < 2; k++) {
		unsigned n = k ? 256 : 8;
		memset(&res, 0, sizeof res);
		res.pairs = pairs_wide;
		res.n_pairs = n - 1;
		res.n_cpus = n;
		res.cfg = cfg;
		res.verdict = TSC_VERDICT_NOT_SYNCHRONIZED;
		for (unsigned i = 0; i < n; i++) {
			res.tsc_adjust_valid[i] = true;
			res.tsc_adjust[i] = -1234567890;
		}
		for (unsigned i = 0; i + 1 < n; i++)
			pairs_wide[i] = (struct tsc_pair){ .ref = 0, .cpu = (uint16_t)(i + 1), .warp_done = true,
							   .offset_done = true, .offset = -12345, .uncertainty = 1234,
							   .warps = 123, .max_warp = 12345 };
		capture_reset();
		record_tsc_sync(&cap.log, &res, &env);
		check(capture_line(0, "tsc_sync", &size[k]) != NULL, "record: %u CPUs fit one record", n);
	}
	check(COND(size[0] < 1500) && COND(size[1] < LOG_RECORD_MAX / 2),
	      "record size: %zu bytes at 8 CPUs, %zu at 256", size[0], size[1]);
}

int main(void)
{
	test_synchronized(SIM_CLOCK_COUNTED, SIM_ROUND_ROBIN, "lockstep");
	test_synchronized(SIM_CLOCK_COUNTED, SIM_RANDOM, "lockstep random");
	test_synchronized(SIM_CLOCK_REAL, SIM_FREE, "free-running");
	test_skew(SIM_CLOCK_COUNTED, SIM_ROUND_ROBIN, S_SKEW, false, "lockstep, CPU 2 +S");
	test_skew(SIM_CLOCK_COUNTED, SIM_RANDOM, -S_SKEW, false, "lockstep random, CPU 2 -S");
	test_skew(SIM_CLOCK_COUNTED, SIM_ROUND_ROBIN, S_SKEW, true, "lockstep, tsc_skew=2:+S");
	test_skew(SIM_CLOCK_REAL, SIM_FREE, 2000000000, false, "free-running, CPU 2 +2 s");
	test_skew(SIM_CLOCK_REAL, SIM_FREE, -2000000000, true, "free-running, tsc_skew=2:-2 s");
	test_deterministic();
	test_matrix();
	test_small_offset();
	test_gone();
	test_record();
	test_record_many_pairs();
	test_record_size();
	return check_done();
}
