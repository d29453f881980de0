/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/contention.c on simulated CPUs (tests/unit/sim_team.h): the levels
 * and their structure, the cost of a serialising device rising with its
 * readers, backward steps across CPUs counted exactly, wraps, the TSC as the
 * control with and without tsc_skew=, a reader that never comes back, and
 * the contention record read back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/contention.h"
#include "probe/records_smp.h"
#include "tests/unit/check.h"
#include "tests/unit/log_capture.h"
#include "tests/unit/sim_team.h"

#define DEVICE_COST 100   /* cycles one device read takes */
#define LAG (1ull << 22)  /* ticks the lagging CPU's reads come back behind */
#define MASK24 0xffffffull

static struct smp_env env;
static struct contention_result res;
static struct hist *hists;

/* ---- simulated counters ------------------------------------------------------ */

/* A device that serves one read at a time, DEVICE_COST cycles each, on its
 * own time line (private clocks, lockstep): a read starts when both the CPU
 * and the device are free, and the CPU's clock moves to its end.  The value
 * is the device's time at the end of the read. */
static uint64_t device_busy;
static uint64_t device_read(const struct counter *c)
{
	int me = sim_self;
	uint64_t start = sim.local[me] > device_busy ? sim.local[me] : device_busy;

	device_busy = start + DEVICE_COST;
	sim.local[me] = device_busy;
	return device_busy & c->mask;
}

/* A counter every read of which, on any CPU, is one above the read before
 * (an atomic add: linearisable), 24 bits wide; reads on lag_cpu come back
 * LAG ticks behind. */
static uint64_t shared_count;
static int lag_cpu = -1;
static uint64_t shared_read(const struct counter *c)
{
	uint64_t v = __atomic_add_fetch(&shared_count, 1, __ATOMIC_SEQ_CST);
	return (sim_self == lag_cpu ? v - LAG : v) & c->mask;
}

/* The same CPU's values in a fixed order, for one reader. */
static const uint64_t *script;
static size_t script_n, script_at;
static uint64_t script_read(const struct counter *c)
{
	uint64_t v = script[script_at < script_n ? script_at : script_n - 1];
	script_at++;
	return v & c->mask;
}

/* The TSC as a counter: what this CPU's TSC reads. */
static uint64_t tsc_read(const struct counter *c)
{
	(void)c;
	return sim_tsc((unsigned)sim_self);
}

/* The counter's desc, one at a time, as a driver keeps its own. */
static struct counter_desc desc;

static void describe(struct counter *c, const char *name, counter_read_fn fn, unsigned width)
{
	desc = (struct counter_desc){
		.name = name, .read = fn, .insns = 3, .method = "simulated", .width = width, .is_counter = true
	};
	counter_from_desc(c, &desc);
}

static void setup(unsigned n, enum sim_clock clock, enum sim_sched sched, uint64_t seed)
{
	sim_setup(n, clock, sched, 1, seed);
	sim_env(&env);
	device_busy = 0;
	lag_cpu = -1;
	shared_count = MASK24 - 1000; /* wraps through 2^24 early in every test */
}

/* Bounds: 100,000 reads in lockstep (each read is a cycle), 1 s of host
 * time free-running (threads of a loaded host wait for a core). */
static void measure(const struct counter *c, uint32_t k)
{
	contention_measure(&env, c, k, hists, SIM_CPUS, sim.clock == SIM_CLOCK_REAL ? 1000000000 : 100000, &res);
}

static bool all_returned(void)
{
	bool ok = res.n_levels > 0;
	for (unsigned i = 0; i < res.n_levels; i++)
		ok &= res.level[i].returned == res.level[i].n && res.level[i].reads == res.level[i].n * res.reads_per_reader;
	return ok;
}

/* ---- the tests ------------------------------------------------------------- */

static void test_device(void)
{
	struct counter c;
	static const unsigned want[] = { 1, 2, 4, 6 };
	bool structure = true, rising = true, bounded = true;

	setup(6, SIM_CLOCK_PRIVATE, SIM_ROUND_ROBIN, 1);
	describe(&c, "hpet", device_read, 32);
	measure(&c, 200);
	structure = res.n_levels == 4;
	for (unsigned i = 0; i < res.n_levels && i < 4; i++) {
		const struct contention_level *lv = &res.level[i];
		structure &= lv->n == want[i] && lv->returned == want[i] && lv->reads == 200ull * want[i];
		if (i)
			rising &= lv->p50_median > res.level[i - 1].p50_median;
		bounded &= lv->p50_worst <= DEVICE_COST * lv->n;
	}
	check(structure, "levels: 6 readers give 1, 2, 4, 6, each with all its readers and reads");
	check(COND(res.level[0].p50_median == DEVICE_COST) && COND(res.level[0].p99_median == DEVICE_COST) &&
		      COND(res.level[0].p50_worst == DEVICE_COST),
	      "one reader: every read costs the device's %d cycles, overhead subtracted (p50 %llu)", DEVICE_COST,
	      (unsigned long long)res.level[0].p50_median);
	check(rising, "the serialising device's cost rises with its readers (p50 %llu, %llu, %llu, %llu)",
	      (unsigned long long)res.level[0].p50_median, (unsigned long long)res.level[1].p50_median,
	      (unsigned long long)res.level[2].p50_median, (unsigned long long)res.level[3].p50_median);
	check(bounded, "and no read waits for more than the other readers' reads: p50 <= n x %d", DEVICE_COST);
	check(COND(res.backwards == 0) && COND(res.same_cpu_backwards == 0) && COND(res.ordered > 0) &&
		      COND(res.level[3].lost == 0),
	      "a device read in turn never steps back (%llu ordered pairs compared)", (unsigned long long)res.ordered);
	check(sim.wrong_cpu == 0, "every TSC read named the CPU it ran on");
}

/* A counter behind on one CPU: every proven pair from another CPU to it is a
 * backward step (LAG is far beyond the reads of a test), and none other. */
static void test_lagging(enum sim_clock clock, enum sim_sched sched, const char *how)
{
	struct counter c;
	bool others = true;

	setup(4, clock, sched, 5);
	lag_cpu = 2;
	describe(&c, "hpet", shared_read, 24);
	measure(&c, sched == SIM_FREE ? 20000 : 400);
	for (unsigned cpu = 0; cpu < 4; cpu++)
		if (cpu != 2)
			others &= res.cpu_backwards[cpu] == 0;
	check(COND(all_returned()) && COND(res.cpu_backwards[2] == res.cpu_cross[2]) &&
		      COND(res.cpu_cross[2] > 0 || sched == SIM_FREE),
	      "%s: CPU 2 lags: its %llu reads proven after another CPU's are all backward steps (%llu)", how,
	      (unsigned long long)res.cpu_cross[2], (unsigned long long)res.cpu_backwards[2]);
	check(COND(others) && COND(res.backwards == res.cpu_backwards[2]) && COND(res.same_cpu_backwards == 0),
	      "%s: no other CPU steps back, nor CPU 2 against itself", how);
	check(COND(res.max_backward <= LAG) && COND(res.max_backward > LAG - 100000 || !res.backwards),
	      "%s: the largest step back is the lag, less the reads between (%llu of %llu)", how,
	      (unsigned long long)res.max_backward, (unsigned long long)LAG);
}

/* A counter that only goes up, read by every CPU at once, through a wrap:
 * with the order proven by the swap, not one false backward step. */
static void test_monotonic(enum sim_clock clock, enum sim_sched sched, const char *how)
{
	struct counter c;
	uint64_t cross = 0;

	setup(4, clock, sched, 3);
	describe(&c, "acpi-fast", shared_read, 24);
	measure(&c, sched == SIM_FREE ? 20000 : 400);
	for (unsigned cpu = 0; cpu < 4; cpu++)
		cross += res.cpu_cross[cpu];
	check(COND(all_returned()) && COND(res.backwards == 0) && COND(res.same_cpu_backwards == 0) &&
		      COND(res.ordered > 0) && COND(cross > 0 || sched == SIM_FREE) && COND(shared_count > MASK24),
	      "%s: a rising 24-bit counter read through its wrap: 0 backward steps in %llu proven pairs "
	      "(%llu across CPUs)",
	      how, (unsigned long long)res.ordered, (unsigned long long)cross);
}

static void test_script(void)
{
	/* 24 bits: forward through the wrap, back by 2, forward, back across the wrap by 0x12 */
	static const uint64_t values[] = { 0xfffff0, 0xfffff8, 0x000004, 0x000002, 0x000010, 0xfffffe, 0x000020 };
	struct counter c;

	setup(1, SIM_CLOCK_COUNTED, SIM_ROUND_ROBIN, 1);
	script = values;
	script_n = 7;
	script_at = 0;
	describe(&c, "acpi-fast", script_read, 24);
	measure(&c, 7);
	check(COND(res.n_levels == 1) && COND(res.level[0].returned == 1) && COND(res.ordered == 6) &&
		      COND(res.same_cpu_backwards == 2) && COND(res.backwards == 0),
	      "one CPU, scripted: 6 ordered pairs, 2 steps back (one across the wrap), a forward wrap is no step "
	      "(%llu, %llu)",
	      (unsigned long long)res.ordered, (unsigned long long)res.same_cpu_backwards);
}

static void test_tsc_control(void)
{
	struct counter c;
	bool others = true;

	setup(4, SIM_CLOCK_REAL, SIM_FREE, 1);
	describe(&c, "tsc", tsc_read, 64);
	desc.tsc_based = true;
	measure(&c, 20000);
	check(COND(all_returned()) && COND(res.backwards == 0) && COND(res.same_cpu_backwards == 0) &&
		      COND(res.ordered > 0),
	      "free-running: a synchronised TSC never steps back across CPUs (%llu proven pairs)",
	      (unsigned long long)res.ordered);

	setup(4, SIM_CLOCK_COUNTED, SIM_RANDOM, 8);
	env.skew_set = true;
	env.skew_cpu = 1;
	env.skew_cycles = -1000000000;
	describe(&c, "tsc", tsc_read, 64);
	desc.tsc_based = true;
	measure(&c, 300);
	for (unsigned cpu = 0; cpu < 4; cpu++)
		if (cpu != 1)
			others &= res.cpu_backwards[cpu] == 0;
	check(COND(res.cpu_backwards[1] == res.cpu_cross[1]) && COND(res.cpu_cross[1] > 0) && COND(others),
	      "tsc_skew=1:-1e9 reaches the TSC read as a counter: every proven pair into CPU 1 steps back (%llu)",
	      (unsigned long long)res.cpu_backwards[1]);
}

static void test_refused_and_gone(void)
{
	struct counter c;

	setup(2, SIM_CLOCK_COUNTED, SIM_ROUND_ROBIN, 1);
	describe(&c, "port80", shared_read, 0);
	c.mask = 0;
	desc.is_counter = false;
	measure(&c, 10);
	check(COND(res.refused) && COND(res.n_levels == 0) && COND(sim.runs == 0), "a bare port access is refused: %s",
	      res.refused);

	setup(6, SIM_CLOCK_PRIVATE, SIM_ROUND_ROBIN, 1);
	sim.hang_at_start[3] = true; /* its first run is the level of 4 */
	describe(&c, "hpet", device_read, 32);
	measure(&c, 50);
	check(COND(res.n_levels == 4) && COND(res.level[2].n == 4) && COND(res.level[2].returned == 0) &&
		      COND(env.gone[3]) && COND(res.level[3].n == 5) && COND(res.level[3].returned == 5) &&
		      COND(sim.timeouts == 1),
	      "a reader that never comes: its level ends at the barrier's bound with no reader counted, "
	      "and the last level has the 5 CPUs left");
	check(COND(res.level[2].overlap != res.level[2].overlap) && COND(res.level[3].overlap >= 0) &&
		      COND(res.level[3].overlap <= 1),
	      "overlap: null (NaN) for the level no reader made its reads in, in [0, 1] for the next (%.3f)",
	      res.level[3].overlap);
}

/* ---- the record -------------------------------------------------------------- */

static void test_record(void)
{
	static const char *const keys[] = { "type", "seq", "counter", "reads_per_reader", "readers", "ordered",
		"backwards", "max_backward_ticks", "same_cpu_backwards", "crc" };
	static const char *const level_keys[] = { "n", "returned", "p50_ns", "p99_ns", "worst_p50_ns",
		"worst_p99_ns", "reads_per_s", "backwards", "cpus", "overlap", "siblings" };
	const struct lr_node *root, *lv;
	struct counter c;
	bool levels = true;
	double v;
	size_t bytes[3];

	setup(4, SIM_CLOCK_PRIVATE, SIM_ROUND_ROBIN, 1);
	describe(&c, "hpet", device_read, 32);
	measure(&c, 100);
	capture_reset();
	record_contention(&cap.log, &res, SIM_HZ);
	root = capture_line(0, "contention", &bytes[0]);
	check(COND(root) && COND(capture_keys_are(root, keys, sizeof keys / sizeof keys[0])) &&
		      COND(!strcmp(lr_str(lr_get(root, "counter")), "hpet")) &&
		      COND(capture_u64(root, "reads_per_reader", 100)),
	      "record: contention has its keys, in order (%zu bytes, 3 levels)", bytes[0]);
	lv = root ? lr_get(root, "readers") : NULL;
	for (unsigned i = 0; lv && i < 3; i++) {
		const struct lr_node *l = lr_at(lv, i);
		levels &= capture_keys_are(l, level_keys, 11) && capture_u64(l, "n", res.level[i].n) &&
			  lr_num(lr_get(l, "p50_ns"), &v) && v == (double)res.level[i].p50_median &&
			  lr_num(lr_get(l, "reads_per_s"), &v) && v > 0;
	}
	check(COND(lv) && COND(lv->len == 3) && COND(levels),
	      "record: readers of {n, p50_ns, p99_ns, ..., reads_per_s, cpus, overlap, "
	      "siblings}, as measured (1 cycle = 1 ns here)");
	capture_reset();
	record_contention(&cap.log, &res, 0);
	root = capture_line(0, "contention", NULL);
	check(COND(root) && COND(capture_is_null(lr_get(lr_at(lr_get(root, "readers"), 0), "p50_ns"))) &&
		      COND(capture_is_null(lr_get(lr_at(lr_get(root, "readers"), 0), "reads_per_s"))),
	      "record: without the TSC frequency, ns and reads/s are null");

	describe(&c, "port80", shared_read, 0);
	c.mask = 0;
	desc.is_counter = false;
	measure(&c, 10);
	capture_reset();
	record_contention(&cap.log, &res, SIM_HZ);
	root = capture_line(0, "contention", NULL);
	check(COND(root) && COND(lr_str(lr_get(root, "refused"))) && COND(!lr_get(root, "readers")),
	      "record: a refused counter says why");

	/* The size at 8 and 256 CPUs: levels 1 .. 8 and 1 .. 256 and the two
	 * siblings, HPET-like figures with every field at its widest plausible
	 * value; each level lists its readers, 511 CPU numbers at 256. */
	for (int k = 0; k < 2; k++) {
		unsigned n = k ? 256 : 8;
		memset(&res, 0, sizeof res);
		res.counter = "acpi-fast";
		res.reads_per_reader = 10000;
		for (unsigned l = 1; res.n_levels < CONTENTION_MAX_LEVELS; l *= 2) {
			struct contention_level *x = &res.level[res.n_levels++];
			x->n = x->returned = l > n ? n : l;
			x->p50_median = 1234567;
			x->p99_median = 2345678;
			x->p50_worst = 3456789;
			x->p99_worst = 4567890;
			x->reads = 10000ull * x->n;
			x->wall_cycles = 98765432100ull;
			x->backwards = 12345;
			x->overlap = 0.123;
			for (unsigned i = 0; i < x->n; i++)
				x->cpus[i] = (uint16_t)(n - 1 - i);
			if (l >= n)
				break;
		}
		res.level[res.n_levels] = res.level[1];
		res.level[res.n_levels++].siblings = true;
		res.ordered = 1234567;
		res.backwards = 123456;
		res.max_backward = 12345678;
		capture_reset();
		record_contention(&cap.log, &res, 2.5e9);
		capture_line(0, "contention", &bytes[1 + k]);
	}
	check(COND(bytes[1] < 1500) && COND(bytes[2] < 4500),
	      "record size: %zu bytes per counter at 8 CPUs, %zu at 256", bytes[1], bytes[2]);
}

int main(void)
{
	hists = malloc(SIM_CPUS * sizeof *hists);
	test_device();
	test_lagging(SIM_CLOCK_COUNTED, SIM_RANDOM, "lockstep random");
	test_lagging(SIM_CLOCK_REAL, SIM_FREE, "free-running");
	test_monotonic(SIM_CLOCK_COUNTED, SIM_RANDOM, "lockstep random");
	test_monotonic(SIM_CLOCK_REAL, SIM_FREE, "free-running");
	test_script();
	test_tsc_control();
	test_refused_and_gone();
	test_record();
	return check_done();
}
