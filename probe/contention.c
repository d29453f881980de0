/* SPDX-License-Identifier: BSD-2-Clause */
/* Counter reads under contention, and backward steps across CPUs
 * (probe/contention.h). */
#include "probe/contention.h"
#include "lib/util.h"

#define BUSY (~0ull)        /* a slot's stamp while its reader writes it */
#define NOBODY 0xffffu      /* the CPU in the word before the first publish */
#define OVERHEAD_TRIES 64

static uint64_t word_of(uint64_t seq, unsigned cpu) { return seq << 16 | cpu; }

/* ---- each reader's ring of values ------------------------------------------- */

/* One writer per ring (its reader), seqlock-style: the stamp is BUSY while
 * the value changes, so a reader of the slot sees a value with its stamp or
 * knows it did not. */
static void slot_write(struct contention_slot *sl, uint64_t q, uint64_t v)
{
	__atomic_store_n(&sl->stamp, BUSY, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&sl->value, v, __ATOMIC_RELAXED);
	__atomic_store_n(&sl->stamp, q, __ATOMIC_RELEASE);
}

static bool slot_read(const struct contention_slot *sl, uint64_t q, uint64_t *v)
{
	if (__atomic_load_n(&sl->stamp, __ATOMIC_ACQUIRE) != q)
		return false;
	*v = __atomic_load_n(&sl->value, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&sl->stamp, __ATOMIC_RELAXED) == q;
}

/* This CPU's swap from (seq, from) succeeded: compare v with from's value
 * for seq. */
static void compare(struct contention_result *r, unsigned cpu, struct contention_reader *me, uint64_t seq,
		    unsigned from, uint64_t v)
{
	uint64_t mask = r->c->mask, prev;

	if (from == NOBODY)
		return;
	if (from >= TEAM_MAX_CPUS || !slot_read(&r->shared.reader[from].ring[seq % CONTENTION_RING], seq, &prev)) {
		me->lost++;
		return;
	}
	me->ordered++;
	if (from != cpu)
		me->cross++;
	if (((v - prev) & mask) > mask / 2) {
		uint64_t behind = (prev - v) & mask;
		if (from == cpu) {
			me->same_cpu_backwards++;
		} else {
			me->backwards++;
			if (behind > me->max_backward)
				me->max_backward = behind;
		}
	}
}

/* ---- one reader ---------------------------------------------------------- */

static void reader_fn(unsigned cpu, void *arg)
{
	struct contention_result *r = arg;
	const struct smp_env *e = r->env;
	const struct counter *c = r->c;
	struct contention_shared *s = &r->shared;
	struct contention_reader *me = &s->reader[cpu];
	struct hist *h = &r->hists[r->hist_of[cpu]];
	/* tsc_skew= reaches the TSC read as a counter too: its values are this CPU's TSC */
	uint64_t skew = c->desc->tsc_based && e->skew_set && cpu == e->skew_cpu ? (uint64_t)e->skew_cycles : 0;
	uint64_t overhead = ~0ull, first = 0, last = 0;

	hist_init(h);
	for (int i = 0; i < OVERHEAD_TRIES; i++) {
		uint64_t t0 = smp_tsc(e, cpu), t1 = smp_tsc(e, cpu);
		if (t1 - t0 < overhead)
			overhead = t1 - t0;
	}
	__atomic_add_fetch(&s->arrive, 1, __ATOMIC_ACQ_REL);
	if (smp_wait_at_least(e, cpu, &s->arrive, r->level_n, r->wait_cycles)) {
		for (uint32_t k = 0; k < r->reads_per_reader; k++) {
			uint64_t w = __atomic_load_n(&s->word, __ATOMIC_ACQUIRE);
			uint64_t seq = w >> 16;
			uint64_t t0 = smp_tsc(e, cpu);
			uint64_t v = (c->read(c) + skew) & c->mask;
			uint64_t t1 = smp_tsc(e, cpu);
			uint64_t cost = t1 - t0;

			if (k == 0)
				first = t0;
			last = t1;
			hist_add(h, cost > overhead ? cost - overhead : 0);
			slot_write(&me->ring[(seq + 1) % CONTENTION_RING], seq + 1, v);
			if (__atomic_compare_exchange_n(&s->word, &w, word_of(seq + 1, cpu), false, __ATOMIC_ACQ_REL,
							__ATOMIC_RELAXED))
				compare(r, cpu, me, seq, (unsigned)(w & 0xffff), v);
		}
		me->reads = r->reads_per_reader;
		me->wall = last - first;
		me->first = first;
		me->last = last;
		me->p50 = hist_quantile(h, 500000);
		me->p99 = hist_quantile(h, 990000);
		me->overhead = overhead;
		me->done = true;
	}
	__atomic_store_n(&me->returned, true, __ATOMIC_RELEASE);
}

/* ---- the levels ------------------------------------------------------------ */

static void sort_u64(uint64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

static void run_level(struct smp_env *e, struct contention_result *r, const unsigned *cpus, unsigned n,
		      struct contention_level *lv)
{
	struct contention_shared *s = &r->shared;
	uint64_t *p50 = r->scratch[0], *p99 = r->scratch[1], *first = r->scratch[2], *last = r->scratch[3];
	/* every read at 50 us, ten times a PIT read, twice over: a bound, not a plan */
	uint64_t timeout = 4 * r->wait_cycles + smp_cycles(e, 2.0 * r->reads_per_reader * n * 50e-6);
	unsigned m = 0;

	tp_memset(lv, 0, sizeof *lv);
	lv->n = n;
	for (unsigned i = 0; i < n; i++)
		lv->cpus[i] = (uint16_t)cpus[i];
	tp_memset(s, 0, sizeof *s);
	s->word = word_of(0, NOBODY);
	r->level_n = n;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	e->team->run(e->team->plat, cpus, n, reader_fn, r, timeout);

	for (unsigned i = 0; i < n; i++) {
		const struct contention_reader *rd = &s->reader[cpus[i]];
		if (!__atomic_load_n(&rd->returned, __ATOMIC_ACQUIRE)) {
			smp_mark_gone(e, cpus[i]);
			continue;
		}
		if (!rd->done)
			continue;
		p50[m] = rd->p50;
		p99[m] = rd->p99;
		first[m] = rd->first;
		last[m] = rd->last;
		m++;
		lv->reads += rd->reads;
		if (rd->wall > lv->wall_cycles)
			lv->wall_cycles = rd->wall;
		lv->ordered += rd->ordered;
		lv->backwards += rd->backwards;
		lv->same_cpu_backwards += rd->same_cpu_backwards;
		lv->lost += rd->lost;
		if (rd->max_backward > lv->max_backward)
			lv->max_backward = rd->max_backward;
		r->cpu_backwards[cpus[i]] += rd->backwards;
		r->cpu_cross[cpus[i]] += rd->cross;
	}
	lv->returned = m;
	/* a reader that made no reads read at no time with the others */
	lv->overlap = !m ? __builtin_nan("") : m < n ? 0.0 : contention_overlap(first, last, m);
	if (m) {
		sort_u64(p50, m);
		sort_u64(p99, m);
		lv->p50_median = p50[(m - 1) / 2];
		lv->p99_median = p99[(m - 1) / 2];
		lv->p50_worst = p50[m - 1];
		lv->p99_worst = p99[m - 1];
	}
	r->ordered += lv->ordered;
	r->backwards += lv->backwards;
	r->same_cpu_backwards += lv->same_cpu_backwards;
	if (lv->max_backward > r->max_backward)
		r->max_backward = lv->max_backward;
}

void contention_measure(struct smp_env *e, const struct counter *c, uint32_t reads_per_reader,
			struct hist *hists, unsigned n_hists, uint64_t wait_cycles, struct contention_result *r)
{
	unsigned running[TEAM_MAX_CPUS], readers[TEAM_MAX_CPUS], n, level;
	unsigned cap = n_hists < TEAM_MAX_CPUS ? n_hists : TEAM_MAX_CPUS;

	tp_memset(r, 0, sizeof *r);
	r->counter = c->desc->name;
	r->reads_per_reader = reads_per_reader;
	r->env = e;
	r->c = c;
	r->hists = hists;
	r->wait_cycles = wait_cycles;
	if (!c->desc->is_counter || !c->mask) {
		r->refused = "not a counter: no values to order";
		return;
	}
	if (!n_hists || !reads_per_reader) {
		r->refused = "no reader";
		return;
	}
	/* The readers of each level are the first running CPUs in topology
	 * order: one that did not return is left out of the levels after it. */
	for (level = 1; r->n_levels < CONTENTION_MAX_LEVELS - 1; level *= 2) {
		n = smp_cpus(e, running, TEAM_MAX_CPUS);
		contention_order(e->team->place, running, n, readers);
		if (n > cap)
			n = cap;
		if (level > n)
			level = n;
		for (unsigned i = 0; i < level; i++)
			r->hist_of[readers[i]] = (uint16_t)i;
		run_level(e, r, readers, level, &r->level[r->n_levels++]);
		if (level >= n)
			break;
	}
	n = smp_cpus(e, running, TEAM_MAX_CPUS);
	if (cap >= 2 && contention_siblings(e->team->place, running, n, readers)) {
		struct contention_level *lv = &r->level[r->n_levels++];
		r->hist_of[readers[0]] = 0;
		r->hist_of[readers[1]] = 1;
		run_level(e, r, readers, 2, lv);
		lv->siblings = true;
	}
}

/* ---- placement and overlap ------------------------------------------------ */

static bool same_core(const struct team_place *a, const struct team_place *b)
{
	return a->known && b->known && a->package == b->package && a->core == b->core;
}

void contention_order(const struct team_place *place, const unsigned *cpus, unsigned n, unsigned *out)
{
	uint32_t key[TEAM_MAX_CPUS];
	unsigned pkg_rank[TEAM_MAX_CPUS], core_rank[TEAM_MAX_CPUS], thread_rank[TEAM_MAX_CPUS], packages = 0;

	if (n > TEAM_MAX_CPUS)
		n = TEAM_MAX_CPUS;
	if (!place) { /* nothing known: every CPU a package of its own, in order */
		for (unsigned i = 0; i < n; i++)
			out[i] = cpus[i];
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct team_place *pi = &place[cpus[i]];
		unsigned same_pkg = TEAM_MAX_CPUS, cores = 0;
		thread_rank[i] = 0;
		core_rank[i] = TEAM_MAX_CPUS;
		for (unsigned j = 0; j < i && pi->known; j++) {
			const struct team_place *pj = &place[cpus[j]];
			if (!pj->known || pj->package != pi->package)
				continue;
			if (same_pkg == TEAM_MAX_CPUS)
				same_pkg = j;
			if (pj->core == pi->core) {
				thread_rank[i]++;
				core_rank[i] = core_rank[j];
			}
			cores += thread_rank[j] == 0;
		}
		pkg_rank[i] = same_pkg == TEAM_MAX_CPUS ? packages++ : pkg_rank[same_pkg];
		if (core_rank[i] == TEAM_MAX_CPUS)
			core_rank[i] = cores;
		key[i] = (uint32_t)thread_rank[i] << 18 | (uint32_t)core_rank[i] << 9 | pkg_rank[i];
		out[i] = cpus[i];
	}
	for (unsigned i = 1; i < n; i++) /* stable: equal keys keep cpus[] order */
		for (unsigned j = i; j > 0 && key[j - 1] > key[j]; j--) {
			uint32_t k = key[j];
			unsigned c = out[j];
			key[j] = key[j - 1];
			key[j - 1] = k;
			out[j] = out[j - 1];
			out[j - 1] = c;
		}
}

bool contention_siblings(const struct team_place *place, const unsigned *cpus, unsigned n, unsigned *out)
{
	if (!place)
		return false;
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < i; j++)
			if (same_core(&place[cpus[j]], &place[cpus[i]])) {
				out[0] = cpus[j];
				out[1] = cpus[i];
				return true;
			}
	return false;
}

double contention_overlap(const uint64_t *first, const uint64_t *last, unsigned n)
{
	uint64_t lo_first = ~0ull, hi_first = 0, lo_last = ~0ull, hi_last = 0;

	if (!n)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		lo_first = first[i] < lo_first ? first[i] : lo_first;
		hi_first = first[i] > hi_first ? first[i] : hi_first;
		lo_last = last[i] < lo_last ? last[i] : lo_last;
		hi_last = last[i] > hi_last ? last[i] : hi_last;
	}
	if (hi_last <= lo_first)
		return 1; /* a window of no length: one read, or one reader */
	if (lo_last <= hi_first)
		return 0;
	return (double)(lo_last - hi_first) / (double)(hi_last - lo_first);
}
