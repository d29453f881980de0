/* SPDX-License-Identifier: BSD-2-Clause */
/* TSC synchronisation between CPUs (probe/tsc_sync.h). */
#include "probe/tsc_sync.h"
#include "lib/util.h"

#define NOBODY 2u            /* last_side before anyone stored a value */
#define PINGPONG_STOP 0xffffffffu

void tsc_sync_defaults(struct tsc_sync_config *cfg, const struct smp_env *e, bool matrix)
{
	cfg->matrix = matrix;
	cfg->warp_cycles = smp_cycles(e, matrix ? 0.002 : 0.020);
	cfg->warp_loops = 10000000;
	cfg->pingpongs = 1000;
	cfg->wait_cycles = smp_cycles(e, 0.100);
}

unsigned tsc_sync_pairs_needed(unsigned n_cpus, bool matrix)
{
	if (n_cpus < 2)
		return 0;
	return matrix ? n_cpus * (n_cpus - 1) / 2 : n_cpus - 1;
}

/* ---- IA32_TSC_ADJUST, every CPU at once -------------------------------- */

static void read_adjust(unsigned cpu, void *arg)
{
	struct tsc_sync_result *r = arg;
	const struct smp_env *e = r->env;
	uint64_t v = 0;
	bool ok;

	if (cpu >= TEAM_MAX_CPUS)
		return;
	ok = e->has_tsc_adjust && e->rdmsr && e->has_tsc_adjust() && e->rdmsr(MSR_IA32_TSC_ADJUST, &v);
	r->tsc_adjust[cpu] = ok ? (int64_t)v : 0;
	r->tsc_adjust_valid[cpu] = ok;
	__atomic_store_n(&r->answered[cpu], true, __ATOMIC_RELEASE);
}

static void read_adjustments(struct smp_env *e, struct tsc_sync_result *r, const unsigned *cpus, unsigned n)
{
	e->team->run(e->team->plat, cpus, n, read_adjust, r, r->cfg.wait_cycles);
	for (unsigned i = 0; i < n; i++)
		if (!__atomic_load_n(&r->answered[cpus[i]], __ATOMIC_ACQUIRE))
			smp_mark_gone(e, cpus[i]);
}

/* ---- one pair: the two CPUs' side -------------------------------------- */

static bool rendezvous(const struct smp_env *e, unsigned cpu, struct tsc_sync_shared *s, uint32_t target,
		       uint64_t wait)
{
	__atomic_add_fetch(&s->arrive, 1, __ATOMIC_ACQ_REL);
	return smp_wait_at_least(e, cpu, &s->arrive, target, wait);
}

/* A ticket lock, as Linux's spinlock is: first come, first served, so the
 * two CPUs alternate and the lock changes hands as often as it can.  Only
 * the holder moves ticket_serving, and tickets only grow: waiting for
 * serving >= mine is waiting for my turn. */
static bool ticket_lock(const struct smp_env *e, unsigned cpu, struct tsc_sync_shared *s, uint64_t wait)
{
	uint32_t mine = __atomic_fetch_add(&s->ticket_next, 1, __ATOMIC_RELAXED);
	return smp_wait_at_least(e, cpu, &s->ticket_serving, mine, wait);
}

static void ticket_unlock(struct tsc_sync_shared *s)
{
	__atomic_store_n(&s->ticket_serving, s->ticket_serving + 1, __ATOMIC_RELEASE);
}

/* Each CPU stops once warp_cycles have passed on its own TSC and it has
 * seen at least one value the other CPU stored (a test without a hand-over
 * compares nothing across CPUs), or warp_cycles + wait_cycles have passed,
 * or warp_loops rounds are done. */
static void warp_test(const struct smp_env *e, const struct tsc_sync_config *cfg, unsigned cpu, unsigned me,
		      struct tsc_sync_shared *s)
{
	struct tsc_sync_side *d = &s->side[me];
	uint64_t start = smp_tsc(e, cpu), loops = 0, warps = 0, max_warp = 0, handoffs = 0;
	bool done = false, locked = true;

	/* Counted in registers, stored once: the other CPU is spinning on the
	 * lock's cache line, it should not also fight for this one. */
	while (loops < cfg->warp_loops) {
		uint64_t prev, now, elapsed;
		uint32_t prev_side;

		if (!ticket_lock(e, cpu, s, cfg->wait_cycles)) {
			locked = false; /* the other CPU holds the lock and does not let go */
			break;
		}
		prev = s->last_tsc;
		prev_side = s->last_side;
		now = smp_tsc(e, cpu);
		s->last_tsc = now;
		s->last_side = me;
		ticket_unlock(s);
		loops++;
		if (prev_side != NOBODY && smp_diff(prev, now) < 0) {
			warps++;
			if (prev - now > max_warp)
				max_warp = prev - now;
		}
		if (prev_side == 1 - me)
			handoffs++;
		elapsed = (uint64_t)smp_diff(start, now);
		if (elapsed >= cfg->warp_cycles && (handoffs || elapsed >= cfg->warp_cycles + cfg->wait_cycles)) {
			done = true;
			break;
		}
	}
	d->loops = loops;
	d->warps = warps;
	d->max_warp = max_warp;
	d->handoffs = handoffs;
	d->warp_done = locked && (done || loops >= cfg->warp_loops);
}

/* The reference CPU's half of the ping-pong: the whole phase is bounded by
 * wait_cycles too (1000 round trips take well under 1 ms on any machine). */
static void pingpong_ref(const struct smp_env *e, const struct tsc_sync_config *cfg, unsigned cpu,
			 struct tsc_sync_shared *s)
{
	struct tsc_sync_side *d = &s->side[0];
	uint64_t phase_start = smp_tsc(e, cpu);

	d->best_round_trip = ~0ull;
	for (uint32_t i = 0; i < cfg->pingpongs; i++) {
		uint64_t t1, t2, tb, round_trip;

		t1 = smp_tsc(e, cpu);
		__atomic_store_n(&s->flag, 2 * i + 1, __ATOMIC_RELEASE);
		if (!smp_wait_at_least(e, cpu, &s->flag, 2 * i + 2, cfg->wait_cycles))
			break;
		t2 = smp_tsc(e, cpu);
		tb = __atomic_load_n(&s->tb, __ATOMIC_RELAXED); /* after the acquire of flag */
		round_trip = (uint64_t)smp_diff(t1, t2);
		if (round_trip < d->best_round_trip) {
			d->best_round_trip = round_trip;
			d->best_offset2 = smp_diff(t1, tb) + smp_diff(t2, tb);
		}
		d->round_trips++;
		if ((uint64_t)smp_diff(phase_start, t2) >= cfg->wait_cycles)
			break;
	}
	__atomic_store_n(&s->flag, PINGPONG_STOP, __ATOMIC_RELEASE);
}

static void pingpong_other(const struct smp_env *e, const struct tsc_sync_config *cfg, unsigned cpu,
			   struct tsc_sync_shared *s)
{
	for (uint32_t expect = 1;; expect += 2) {
		if (!smp_wait_at_least(e, cpu, &s->flag, expect, cfg->wait_cycles))
			return;
		if (__atomic_load_n(&s->flag, __ATOMIC_ACQUIRE) == PINGPONG_STOP)
			return;
		__atomic_store_n(&s->tb, smp_tsc(e, cpu), __ATOMIC_RELAXED);
		__atomic_store_n(&s->flag, expect + 1, __ATOMIC_RELEASE);
	}
}

static void pair_fn(unsigned cpu, void *arg)
{
	struct tsc_sync_result *r = arg;
	struct tsc_sync_shared *s = &r->shared;
	const struct smp_env *e = r->env;
	unsigned me = cpu == r->run_ref ? 0 : 1;
	struct tsc_sync_side *d = &s->side[me];

	if (rendezvous(e, cpu, s, 2, r->cfg.wait_cycles)) {
		d->met = true;
		warp_test(e, &r->cfg, cpu, me, s);
		if (rendezvous(e, cpu, s, 4, r->cfg.wait_cycles)) {
			if (me == 0)
				pingpong_ref(e, &r->cfg, cpu, s);
			else
				pingpong_other(e, &r->cfg, cpu, s);
		}
	}
	__atomic_store_n(&d->returned, true, __ATOMIC_RELEASE);
}

/* ---- one pair: the caller's side --------------------------------------- */

static void measure_pair(struct smp_env *e, struct tsc_sync_result *r, unsigned ref, unsigned cpu,
			 struct tsc_pair *p)
{
	const struct tsc_sync_config *cfg = &r->cfg;
	struct tsc_sync_shared *s = &r->shared;
	const struct tsc_sync_side *a = &s->side[0], *b = &s->side[1];
	unsigned list[2] = { ref, cpu };

	tp_memset(p, 0, sizeof *p);
	p->ref = (uint16_t)ref;
	p->cpu = (uint16_t)cpu;
	if (e->gone[ref] || e->gone[cpu])
		return;
	tp_memset(s, 0, sizeof *s);
	s->last_side = NOBODY;
	r->run_ref = ref;
	r->run_cpu = cpu;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	e->team->run(e->team->plat, list, 2, pair_fn, r, cfg->warp_cycles + 10 * cfg->wait_cycles);
	for (int i = 0; i < 2; i++)
		if (!__atomic_load_n(&s->side[i].returned, __ATOMIC_ACQUIRE))
			smp_mark_gone(e, list[i]);

	p->warps = a->warps + b->warps;
	p->max_warp = a->max_warp > b->max_warp ? a->max_warp : b->max_warp;
	p->handoffs = a->handoffs + b->handoffs;
	p->loops = a->loops + b->loops;
	p->warp_done = a->warp_done && b->warp_done && p->handoffs > 0;
	p->round_trips = a->round_trips;
	p->offset_done = a->round_trips > 0;
	if (p->offset_done) {
		/* Halving toward zero keeps |offset| <= uncertainty whenever
		 * |2*offset| <= round trip, the exact form of the bound. */
		p->offset = a->best_offset2 / 2;
		p->uncertainty = (a->best_round_trip + 1) / 2;
	}
}

static uint64_t magnitude(int64_t v) { return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v; }

/* TSC_SYNC_RULE and TSC_SYNC_LINUX_RULE, applied. */
static void conclude(struct tsc_sync_result *r)
{
	bool bad = false, unknown = r->pairs_skipped > 0 || r->n_pairs == 0;

	r->min_handoffs = r->n_pairs ? ~0ull : 0;
	for (unsigned i = 0; i < r->n_pairs; i++) {
		const struct tsc_pair *p = &r->pairs[i];
		r->warps += p->warps;
		if (p->max_warp > r->max_warp)
			r->max_warp = p->max_warp;
		if (p->handoffs < r->min_handoffs)
			r->min_handoffs = p->handoffs;
		if (p->warps) {
			bad = true;
			if (p->ref == 0)
				r->linux_would_mark_unstable = true;
		}
		if (p->offset_done && magnitude(p->offset) > p->uncertainty)
			bad = true;
		if (!p->warp_done || !p->offset_done) {
			unknown = true;
			r->n_incomplete++;
		}
	}
	r->verdict = bad ? TSC_VERDICT_NOT_SYNCHRONIZED : unknown ? TSC_VERDICT_UNKNOWN : TSC_VERDICT_SYNCHRONIZED;
}

void tsc_sync_measure(struct smp_env *e, const struct tsc_sync_config *cfg, struct tsc_pair *pairs,
		      unsigned cap, struct tsc_sync_result *r)
{
	unsigned cpus[TEAM_MAX_CPUS], n;

	tp_memset(r, 0, sizeof *r);
	r->env = e;
	tp_memcpy(&r->cfg, cfg, sizeof r->cfg);
	r->matrix = cfg->matrix;
	r->pairs = pairs;
	n = smp_cpus(e, cpus, TEAM_MAX_CPUS);
	r->n_cpus = n;
	if (n >= 2)
		read_adjustments(e, r, cpus, n);
	for (unsigned i = 0; i + 1 < n; i++) {
		for (unsigned j = i + 1; j < n; j++) {
			if (r->n_pairs == cap) {
				r->pairs_skipped++;
				continue;
			}
			measure_pair(e, r, cpus[i], cpus[j], &pairs[r->n_pairs++]);
		}
		if (!cfg->matrix)
			break;
	}
	conclude(r);
}
