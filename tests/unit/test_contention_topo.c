/* SPDX-License-Identifier: BSD-2-Clause */
/* probe/contention.c and the machine's shape: the order the levels take
 * their readers in (packages, then cores, then SMT siblings), the extra level
 * of two siblings, and each level's overlap, on simulated CPUs
 * (tests/unit/sim_team.h) placed as -smp 8,sockets=2,cores=2,threads=2 places
 * QEMU's vCPUs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/contention.h"
#include "probe/records_smp.h"
#include "tests/unit/check.h"
#include "tests/unit/log_capture.h"
#include "tests/unit/sim_team.h"

static struct smp_env env;
static struct contention_result res;
static struct hist *hists;

/* APIC IDs 0-7 of 2 packages x 2 cores x 2 threads: thread in bit 0, core in
 * bit 1, package in bit 2, as QEMU numbers them. */
static struct team_place place_222[8];

static void make_222(void)
{
	for (unsigned c = 0; c < 8; c++)
		place_222[c] = (struct team_place){ .package = c >> 2, .core = c >> 1 & 1, .thread = c & 1, .known = true };
}

static bool same(const unsigned *a, const unsigned *b, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static void show(const unsigned *v, unsigned n, char *buf, size_t cap)
{
	size_t at = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < n && at + 8 < cap; i++)
		at += (size_t)snprintf(buf + at, cap - at, "%s%u", i ? "," : "", v[i]);
}

static void test_order(void)
{
	static const unsigned all[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, spread[8] = { 0, 4, 2, 6, 1, 5, 3, 7 };
	static const unsigned some[5] = { 0, 1, 3, 5, 7 }, some_spread[5] = { 0, 5, 3, 7, 1 };
	unsigned out[8], pair[2];
	char buf[64];
	struct team_place mixed[4] = { { 0, 0, 0, true }, { 0, 0, 1, true }, { 0, 0, 0, false }, { 0, 1, 0, true } };
	static const unsigned four[4] = { 0, 1, 2, 3 }, mixed_spread[4] = { 0, 2, 3, 1 };

	make_222();
	contention_order(place_222, all, 8, out);
	show(out, 8, buf, sizeof buf);
	check(same(out, spread, 8), "order 2x2x2: packages, then cores, then siblings: %s", buf);
	contention_order(place_222, some, 5, out);
	show(out, 5, buf, sizeof buf);
	/* one a core first, 0 (p0 c0), 5 (p1 c0), 3 (p0 c1), 7 (p1 c1); then 1, c0's second thread */
	check(same(out, some_spread, 5), "order with CPUs 2, 4, 6 gone: %s", buf);
	contention_order(NULL, all, 8, out);
	check(same(out, all, 8), "order without a topology: the CPUs' own order");
	contention_order(mixed, four, 4, out);
	show(out, 4, buf, sizeof buf);
	check(same(out, mixed_spread, 4), "order with one CPU of unknown place (a package of its own): %s", buf);

	check(COND(contention_siblings(place_222, all, 8, pair)) && COND(pair[0] == 0) && COND(pair[1] == 1),
	      "siblings 2x2x2: CPUs 0 and 1 share core 0 of package 0");
	check(COND(contention_siblings(place_222, some, 5, pair)) && COND(pair[0] == 0) && COND(pair[1] == 1),
	      "siblings among 0, 1, 3, 5, 7: the first pair in order, 0 and 1");
	check(COND(!contention_siblings(NULL, all, 8, pair)) && COND(!contention_siblings(place_222, spread, 4, pair)),
	      "siblings: none without a topology, none among one CPU a core");
}

static void test_overlap(void)
{
	uint64_t f1[2] = { 100, 100 }, l1[2] = { 200, 200 };
	uint64_t f2[2] = { 100, 300 }, l2[2] = { 200, 400 };
	uint64_t f3[2] = { 100, 150 }, l3[2] = { 200, 250 };
	uint64_t f4[1] = { 5 }, l4[1] = { 5 };

	check(contention_overlap(f1, l1, 2) == 1.0, "overlap: two readers reading at the same times: 1");
	check(contention_overlap(f2, l2, 2) == 0.0, "overlap: one reader after the other: 0");
	check(fabs(contention_overlap(f3, l3, 2) - 50.0 / 150.0) < 1e-12,
	      "overlap: [100,200] and [150,250]: 50 of 150 cycles (%.4f)", contention_overlap(f3, l3, 2));
	check(contention_overlap(f4, l4, 1) == 1.0, "overlap: one reader with one read: 1");
}

/* The levels on 8 simulated CPUs in lockstep on one counted clock: every
 * read of every reader interleaves, so each level overlaps almost fully. */
static uint64_t shared;
static uint64_t shared_read(const struct counter *c)
{
	return __atomic_add_fetch(&shared, 1, __ATOMIC_SEQ_CST) & c->mask;
}

static const struct counter_desc hpet_desc = {
	.name = "hpet", .read = shared_read, .insns = 3, .method = "simulated", .width = 32, .is_counter = true
};

static void test_levels(void)
{
	static const unsigned want_cpus[5][8] = { { 0 }, { 0, 4 }, { 0, 4, 2, 6 }, { 0, 4, 2, 6, 1, 5, 3, 7 }, { 0, 1 } };
	static const unsigned want_n[5] = { 1, 2, 4, 8, 2 };
	const struct lr_node *root, *lv;
	struct counter c;
	bool cpus_ok = true, overlap_ok = true, rec_ok = true;
	char buf[128] = "";

	make_222();
	sim_setup(8, SIM_CLOCK_COUNTED, SIM_ROUND_ROBIN, 1, 7);
	sim.team.place = place_222;
	sim_env(&env);
	counter_from_desc(&c, &hpet_desc);
	contention_measure(&env, &c, 200, hists, SIM_CPUS, 1000000, &res);
	for (unsigned i = 0; i < res.n_levels && i < 5; i++) {
		const struct contention_level *x = &res.level[i];
		unsigned got[8];
		for (unsigned k = 0; k < x->n && k < 8; k++)
			got[k] = x->cpus[k];
		cpus_ok &= x->n == want_n[i] && same(got, want_cpus[i], x->n) && x->siblings == (i == 4);
		overlap_ok &= x->overlap >= 0.9 && x->overlap <= 1.0;
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%.3f", i ? " " : "", x->overlap);
	}
	check(COND(res.n_levels == 5) && COND(cpus_ok),
	      "levels 2x2x2: [0] [0,4] [0,4,2,6] [0..7 spread], then siblings [0,1] (%u levels)", res.n_levels);
	check(overlap_ok, "levels in lockstep overlap in [0.9, 1]: %s", buf);

	capture_reset();
	record_contention(&cap.log, &res, SIM_HZ);
	root = capture_line(0, "contention", NULL);
	lv = root ? lr_get(root, "readers") : NULL;
	for (unsigned i = 0; lv && i < 5; i++) {
		const struct lr_node *l = lr_at(lv, i), *cpus = lr_get(l, "cpus");
		double o, first;
		rec_ok &= cpus && cpus->len == want_n[i] && lr_num(lr_get(l, "overlap"), &o) && o >= 0 && o <= 1 &&
			  lr_num(lr_at(cpus, 0), &first) && first == (double)want_cpus[i][0];
	}
	check(COND(lv) && COND(lv->len == 5) && COND(rec_ok),
	      "record: each level's cpus and overlap, the siblings' level last");
	sim_stop();
}

/* No topology: the levels are the CPUs in their own order, no siblings level. */
static void test_flat(void)
{
	struct counter c;

	sim_setup(4, SIM_CLOCK_COUNTED, SIM_ROUND_ROBIN, 1, 9);
	sim_env(&env);
	counter_from_desc(&c, &hpet_desc);
	contention_measure(&env, &c, 50, hists, SIM_CPUS, 1000000, &res);
	check(COND(res.n_levels == 3) && COND(res.level[2].cpus[0] == 0) && COND(res.level[2].cpus[3] == 3) &&
		      COND(!res.level[2].siblings),
	      "no topology: levels 1, 2, 4 in CPU order, no siblings level (%u levels)", res.n_levels);
	sim_stop();
}

int main(void)
{
	hists = malloc(SIM_CPUS * sizeof *hists);
	test_order();
	test_overlap();
	test_levels();
	test_flat();
	return check_done();
}
