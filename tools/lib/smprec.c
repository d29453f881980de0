/* SPDX-License-Identifier: BSD-2-Clause */
/* The multi-CPU records of one run, gathered (tools/lib/smprec.h). */
#include "tools/lib/smprec.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/logschema.h"

static const char *const kind_names[SMP_KINDS + 1] = {
	"cpus", "team_check", "tsc_sync", "tsc_sync_pairs", "percpu", "timer (another core type)",
	"contention", "latency", "end",
};

/* SMP_KINDS stands for the end record in a left-out line's set. */
#define SMP_END SMP_KINDS
#define BIT(k) (1u << (k))
/* Kinds that come more than once a run. */
#define REPEATED (BIT(SMP_SYNC_PAIRS) | BIT(SMP_TIMER_ON) | BIT(SMP_CONTENTION))
/* Position of records outside the multi-CPU part: everything before cpus
 * (begin … the boot CPU's timers) is -1, the end record SMP_END. */
#define BEFORE (-1)

const char *smp_kind_name(enum smp_kind kind)
{
	return kind <= SMP_KINDS ? kind_names[kind] : "?";
}

/* Where a record stands in the probe's order. */
static int kind_of(const struct lrec *rec)
{
	const char *t = rec->type;
	if (!t)
		return BEFORE;
	if (!strcmp(t, "timer")) {
		struct ld_timer timer;
		ld_decode_timer(rec->root, &timer);
		return timer.cpu.node ? SMP_TIMER_ON : BEFORE;
	}
	for (int k = 0; k <= SMP_END; k++)
		if (k != SMP_TIMER_ON && !strcmp(t, kind_names[k]))
			return k;
	return BEFORE;
}

/* latency= with a value other than 0 among the words given at boot: the
 * latency record belongs in the run.  Without a begin record, it may. */
static bool latency_asked(const struct lrun *r)
{
	struct ld_begin begin;
	bool asked = false;

	ld_decode_begin(lrun_first(r, "begin"), &begin);
	const char *s = ld_str_or(begin.cmdline, NULL);
	if (!s)
		return true;
	for (const char *w = s; (w = strstr(w, "latency=")); w += 8)
		if (w == s || w[-1] == ' ')
			asked = !(w[8] == '0' && (w[9] == ' ' || !w[9])) && w[8] && w[8] != ' ';
	return asked;
}

/* Two CPUs or more with different, known core types. */
static bool hybrid(const struct smp_view *v)
{
	struct ld_cpus cpus;
	const char *first = NULL;

	ld_decode_cpus(v->cpus, &cpus);
	for (size_t i = 0; cpus.list.state == LD_SET && cpus.list.node->kind == LR_ARR && i < cpus.list.n; i++) {
		struct ld_cpu_entry e;
		ld_cpus_list_at(&cpus, i, &e);
		if (e.core_type.state != LD_SET)
			continue;
		if (!first)
			first = e.core_type.s;
		else if (strcmp(first, e.core_type.s))
			return true;
	}
	return false;
}

/* The pairs of tsc_sync (r 0) or of the r-th tsc_sync_pairs record. */
static struct ld_list pair_list(const struct smp_view *v, size_t r)
{
	struct ld_tsc_sync sync;
	struct ld_tsc_sync_pairs more;

	if (!r) {
		ld_decode_tsc_sync(v->sync, &sync);
		return sync.pairs;
	}
	ld_decode_tsc_sync_pairs(v->pair_recs[r - 1], &more);
	return more.pairs;
}

/* How many pairs a list holds, as rows. */
static size_t pair_rows(const struct ld_list *pairs)
{
	return pairs->state == LD_SET && pairs->node->kind == LR_ARR ? pairs->n : 0;
}

static size_t pairs_read(const struct smp_view *v)
{
	size_t n = 0;

	for (size_t r = 0; r <= v->npair_recs; r++) {
		struct ld_list pairs = pair_list(v, r);
		n += pair_rows(&pairs);
	}
	return n;
}

/* Which records a damaged line between a record at position p and one at n
 * may have been: every kind between them that is absent (or comes more
 * than once), narrowed by what the records present say is possible. */
static unsigned candidates(const struct smp_view *v, const struct lrun *r, int p, int n, const bool *present)
{
	unsigned set = 0;
	struct ld_tsc_sync sync;

	ld_decode_tsc_sync(v->sync, &sync);
	for (int k = SMP_CPUS; k < SMP_KINDS; k++) {
		bool rep = (REPEATED & BIT(k)) != 0;
		if (k < p || k > n || ((k == p || k == n) && !rep) || (!rep && present[k]))
			continue;
		if (k == SMP_SYNC_PAIRS &&
		    !(v->sync && sync.pairs_total.state == LD_SET && sync.pairs_total.v > pairs_read(v)))
			continue;
		if (k == SMP_TIMER_ON && !hybrid(v) && !v->ntimers_on)
			continue;
		if (k == SMP_LATENCY && !latency_asked(r))
			continue;
		set |= BIT(k);
	}
	/* One CPU: only the cpus record belongs in the run. */
	if (v->cpus && !smp_multi(v))
		set &= BIT(SMP_CPUS);
	if (set && !r->info.has_end && n == SMP_END)
		set |= BIT(SMP_END);
	return set;
}

static void find_left_out(struct smp_view *v, const struct lrun *r)
{
	bool present[SMP_KINDS] = { false };
	bool cpus_taken = false;

	for (size_t i = 0; i < r->nrecs; i++) {
		int k = kind_of(&r->recs[i]);
		if (k >= 0 && k < SMP_KINDS)
			present[k] = true;
	}
	for (size_t q = 0; q < r->nprobs && v->nleft_out < SMP_MAX_LEFT_OUT; q++) {
		const struct lprob *pb = &r->probs[q];
		int p = BEFORE, n = SMP_END;
		unsigned set;
		if (pb->severity != LR_DAMAGE || !pb->line || !strstr(pb->msg, "excluded"))
			continue;
		for (size_t i = 0; i < r->nrecs; i++) {
			if (r->recs[i].line < pb->line)
				p = kind_of(&r->recs[i]);
			else if (r->recs[i].line > pb->line) {
				n = kind_of(&r->recs[i]);
				break;
			}
		}
		if (p == SMP_END)
			continue; /* after the run's end: not a record of it */
		set = candidates(v, r, p, n, present);
		/* The cpus record comes first of them all: the first damaged line
		 * where it may stand is it. */
		if (set & BIT(SMP_CPUS)) {
			if (cpus_taken) {
				set &= ~BIT(SMP_CPUS);
			} else {
				set = BIT(SMP_CPUS);
				cpus_taken = true;
			}
		}
		if (!set)
			continue;
		v->left_out[v->nleft_out].line = pb->line;
		v->left_out[v->nleft_out++].kinds = set;
	}
}

bool smp_view_load(struct smp_view *v, const struct lrun *r)
{
	struct ld_cpus cpus;

	memset(v, 0, sizeof *v);
	v->started = v->count = -1;
	for (size_t i = 0; i < r->nrecs; i++) {
		const struct lrec *rec = &r->recs[i];
		switch (kind_of(rec)) {
		case SMP_CPUS: v->cpus = v->cpus ? v->cpus : rec->root; break;
		case SMP_TEAM: v->team = v->team ? v->team : rec->root; break;
		case SMP_SYNC: v->sync = v->sync ? v->sync : rec->root; break;
		case SMP_PERCPU: v->percpu = v->percpu ? v->percpu : rec->root; break;
		case SMP_LATENCY: v->latency = v->latency ? v->latency : rec->root; break;
		case SMP_SYNC_PAIRS:
			if (v->npair_recs < SMP_MAX_PAIR_RECS)
				v->pair_recs[v->npair_recs++] = rec->root;
			break;
		case SMP_TIMER_ON:
			if (v->ntimers_on < SMP_MAX_TIMERS_ON)
				v->timers_on[v->ntimers_on++] = rec->root;
			break;
		case SMP_CONTENTION:
			if (v->ncontention < SMP_MAX_CONTENTION)
				v->contention[v->ncontention++] = rec->root;
			break;
		default: break;
		}
	}
	ld_decode_cpus(v->cpus, &cpus);
	if (cpus.started.state == LD_SET)
		v->started = (long)cpus.started.v;
	if (cpus.count.state == LD_SET)
		v->count = (long)cpus.count.v;
	find_left_out(v, r);
	return v->cpus || v->nleft_out || v->sync || v->ncontention;
}

bool smp_multi(const struct smp_view *v)
{
	/* Without the cpus record, the records that only many CPUs write say so. */
	if (!v->cpus)
		return v->team || v->sync || v->percpu || v->ncontention || v->latency;
	return v->started > 1;
}

const char *smp_kinds_text(unsigned kinds, char *buf, size_t cap)
{
	size_t used = 0, n = 0, total = 0;
	for (int k = 0; k <= SMP_END; k++)
		total += (kinds & BIT(k)) != 0;
	buf[0] = 0;
	for (int k = 0; k <= SMP_END && used < cap; k++) {
		if (!(kinds & BIT(k)))
			continue;
		n++;
		used += (size_t)snprintf(buf + used, cap - used, "%s%s", n == 1 ? "" : n == total ? " or " : ", ",
					 kind_names[k]);
	}
	return buf;
}

const char *smp_left_out_what(const struct smp_left_out *lo, char *buf, size_t cap)
{
	char kinds[120];
	/* "the" only for one record that comes once a run. */
	bool one = !(lo->kinds & (lo->kinds - 1)) && !(lo->kinds & REPEATED);
	snprintf(buf, cap, "%s %s record", one ? "the" : "a", smp_kinds_text(lo->kinds, kinds, sizeof kinds));
	return buf;
}

size_t smp_left_out_lines(const struct smp_view *v, enum smp_kind kind, char *buf, size_t cap)
{
	size_t n = 0, used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < v->nleft_out; i++)
		if (v->left_out[i].kinds & BIT(kind))
			n++;
	for (size_t i = 0, k = 0; i < v->nleft_out && used < cap; i++) {
		if (!(v->left_out[i].kinds & BIT(kind)))
			continue;
		used += (size_t)snprintf(buf + used, cap - used, "%s%u", k++ ? ", " : n > 1 ? "lines " : "line ",
					 (unsigned)v->left_out[i].line);
	}
	return n;
}

/* ---- tsc_sync ------------------------------------------------------------ */

const struct lr_node *smp_pair_at(const struct smp_view *v, size_t k)
{
	for (size_t r = 0; r <= v->npair_recs; r++) {
		struct ld_list pairs = pair_list(v, r);
		size_t n = pair_rows(&pairs);
		if (k < n)
			return lr_at(pairs.node, k);
		k -= n;
	}
	return NULL;
}

static bool pair_offset(const struct ld_tsc_pair *p, int64_t *offset, uint64_t *uncertainty)
{
	if (p->offset_cycles.state != LD_SET || p->uncertainty_cycles.state != LD_SET)
		return false;
	*offset = p->offset_cycles.v;
	*uncertainty = p->uncertainty_cycles.v;
	return true;
}

bool smp_pair_offset(const struct lr_node *pair, int64_t *offset, uint64_t *uncertainty)
{
	struct ld_tsc_pair p;

	ld_decode_tsc_pair(pair, &p);
	return pair_offset(&p, offset, uncertainty);
}

static uint64_t mag(int64_t x)
{
	return x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
}

/* One pair into the summary's counts. */
static void count_pair(struct smp_sync_summary *s, const struct ld_tsc_pair *p, uint64_t *best, uint64_t *best_out)
{
	const struct lr_node *a = p->tsc_adjust.node;
	int64_t off;
	uint64_t u;

	s->pairs++;
	if (p->complete.node && !ld_true(p->complete))
		s->incomplete++;
	if (p->warps.state == LD_SET && p->warps.v)
		s->warped++;
	if (a && a->kind == LR_NUM && a->is_int && (a->neg || a->u))
		s->adjusted++;
	if (!pair_offset(p, &off, &u))
		return;
	s->measured++;
	if (!s->largest || mag(off) > *best) {
		*best = mag(off);
		s->largest = p->ld.node;
	}
	if (mag(off) > u) {
		s->outside++;
		if (!s->worst_out || mag(off) - u > *best_out) {
			*best_out = mag(off) - u;
			s->worst_out = p->ld.node;
		}
	}
}

void smp_sync_summary(const struct smp_view *v, struct smp_sync_summary *s)
{
	struct ld_tsc_sync sync;
	uint64_t best = 0, best_out = 0;

	memset(s, 0, sizeof *s);
	ld_decode_tsc_sync(v->sync, &sync);
	/* Walked array by array: smp_pair_at from 0 each time is quadratic. */
	for (size_t r = 0; r <= v->npair_recs; r++) {
		struct ld_list pairs = pair_list(v, r);
		size_t n = pair_rows(&pairs);
		for (const struct lr_node *e = n ? pairs.node->child : NULL; e; e = e->next) {
			struct ld_tsc_pair p;
			ld_decode_tsc_pair(e, &p);
			count_pair(s, &p, &best, &best_out);
		}
	}
	s->pairs_short = sync.pairs_total.state == LD_SET && sync.pairs_total.v > s->pairs;
	/* The rule (tsc_sync.rule): synchronized iff every pair was measured, none
	 * warped, and every |offset| is within its uncertainty; null when a pair
	 * could not be measured and none failed. */
	if (s->outside || s->warped)
		s->consistent = sync.synchronized.state == LD_SET && !sync.synchronized.v;
	else if (s->pairs_short)
		s->consistent = sync.synchronized.state == LD_NULL || sync.synchronized.state == LD_SET;
	else if (s->incomplete || s->measured < s->pairs)
		s->consistent = sync.synchronized.state == LD_NULL;
	else
		s->consistent = ld_true(sync.synchronized);
}

const char *smp_sync_word(const struct smp_view *v)
{
	struct ld_tsc_sync sync;

	if (!v->sync)
		return "no record";
	ld_decode_tsc_sync(v->sync, &sync);
	if (sync.synchronized.state == LD_SET)
		return sync.synchronized.v ? "synchronized" : "NOT synchronized";
	return "not known";
}

/* ---- percpu -------------------------------------------------------------- */

bool smp_percpu_ns(const struct smp_view *v, const char *counter, size_t cpu, double *out)
{
	struct ld_percpu p;
	struct ld_num x;

	ld_decode_percpu(v->percpu, &p);
	x = ld_percpu_p50_ns_at(&p, counter, cpu);
	*out = x.v;
	return x.state == LD_SET;
}

size_t smp_percpu_counters(const struct smp_view *v, char names[][32], size_t cap)
{
	static const char suffix[] = "_p50_cycles";
	size_t n = 0, k, s = sizeof suffix - 1;

	for (const struct lr_node *m = v->percpu ? v->percpu->child : NULL; m && n < cap; m = m->next)
		if (m->key && (k = strlen(m->key)) > s && k - s < 32 && !strcmp(m->key + k - s, suffix))
			snprintf(names[n++], 32, "%.*s", (int)(k - s), m->key);
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

bool smp_percpu_spread(const struct smp_view *v, const char *prefix, struct smp_spread *s)
{
	struct ld_percpu p;
	struct ld_list arr;
	const struct lr_node *e;
	double *vals, x;
	size_t cpu = 0;

	memset(s, 0, sizeof *s);
	ld_decode_percpu(v->percpu, &p);
	arr = ld_percpu_p50_ns(&p, prefix);
	s->ns = true;
	for (e = arr.state == LD_SET ? arr.node->child : NULL; e; e = e->next)
		s->n += e->kind == LR_NUM;
	if (!s->n) { /* no TSC rate: cycles */
		arr = ld_percpu_p50_cycles(&p, prefix);
		s->ns = false;
		for (e = arr.state == LD_SET ? arr.node->child : NULL; e; e = e->next)
			s->n += e->kind == LR_NUM;
	}
	if (!s->n || !arr.node || !(vals = malloc(s->n * sizeof *vals)))
		return false;
	s->n = 0;
	for (e = arr.node->child; e; e = e->next, cpu++) {
		if (!lr_num(e, &x))
			continue;
		if (!s->n || x < s->min) {
			s->min = x;
			s->min_cpu = cpu;
		}
		if (!s->n || x > s->max) {
			s->max = x;
			s->max_cpu = cpu;
		}
		vals[s->n++] = x;
	}
	qsort(vals, s->n, sizeof *vals, cmp_double);
	s->median = s->n % 2 ? vals[s->n / 2] : (vals[s->n / 2 - 1] + vals[s->n / 2]) / 2;
	free(vals);
	return true;
}

/* ---- cpus ---------------------------------------------------------------- */

const struct lr_node *smp_cpu_entry(const struct smp_view *v, long cpu)
{
	struct ld_cpus cpus;

	ld_decode_cpus(v->cpus, &cpus);
	for (size_t i = 0; cpus.list.state == LD_SET && cpus.list.node->kind == LR_ARR && i < cpus.list.n; i++) {
		struct ld_cpu_entry e;
		ld_cpus_list_at(&cpus, i, &e);
		if (e.cpu.state == LD_SET && (long)e.cpu.v == cpu)
			return e.ld.node;
	}
	return NULL;
}

/* ---- contention ---------------------------------------------------------- */

const struct lr_node *smp_contention(const struct smp_view *v, const char *counter)
{
	for (size_t i = 0; i < v->ncontention; i++) {
		struct ld_contention con;
		ld_decode_contention(v->contention[i], &con);
		const char *c = ld_str_or(con.counter, NULL);
		if (c && !strcmp(c, counter))
			return v->contention[i];
	}
	return NULL;
}

const struct lr_node *smp_level(const struct lr_node *contention, uint64_t n)
{
	struct ld_contention c;

	ld_decode_contention(contention, &c);
	for (size_t i = 0; c.readers.state == LD_SET && i < c.readers.n; i++) {
		struct ld_contention_level e;
		ld_contention_readers_at(&c, i, &e);
		if (e.n.state == LD_SET && e.n.v == n && !ld_true(e.siblings))
			return e.ld.node;
	}
	return NULL;
}

bool smp_level_siblings(const struct lr_node *level)
{
	struct ld_contention_level e;

	ld_decode_contention_level(level, &e);
	return ld_true(e.siblings);
}

int smp_level_concurrent(const struct lr_node *level)
{
	struct ld_contention_level e;

	ld_decode_contention_level(level, &e);
	if (e.overlap.state != LD_SET)
		return -1;
	return e.overlap.v >= SMP_CONCURRENT;
}

bool smp_has_overlap(const struct lr_node *contention)
{
	struct ld_contention c;

	ld_decode_contention(contention, &c);
	for (size_t i = 0; c.readers.state == LD_SET && i < c.readers.n; i++) {
		struct ld_contention_level e;
		ld_contention_readers_at(&c, i, &e);
		if (e.overlap.node)
			return true;
	}
	return false;
}
