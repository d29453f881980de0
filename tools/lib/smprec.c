/* SPDX-License-Identifier: BSD-2-Clause */
/* The multi-CPU records of one run, gathered (tools/lib/smprec.h). */
#include "tools/lib/smprec.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	if (!strcmp(t, "timer"))
		return lr_get(rec->root, "cpu") ? SMP_TIMER_ON : BEFORE;
	for (int k = 0; k <= SMP_END; k++)
		if (k != SMP_TIMER_ON && !strcmp(t, kind_names[k]))
			return k;
	return BEFORE;
}

/* latency= with a value other than 0 among the words given at boot: the
 * latency record belongs in the run.  Without a begin record, it may. */
static bool latency_asked(const struct lrun *r)
{
	const char *s = lr_str(lr_get(lrun_first(r, "begin"), "cmdline"));
	bool asked = false;
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
	const struct lr_node *e, *first = NULL;
	const struct lr_node *list = lr_get(v->cpus, "list");
	for (e = list && list->kind == LR_ARR ? list->child : NULL; e; e = e->next) {
		const struct lr_node *t = lr_get(e, "core_type");
		if (!lr_str(t))
			continue;
		if (!first)
			first = t;
		else if (strcmp(lr_str(first), lr_str(t)))
			return true;
	}
	return false;
}

static size_t pairs_read(const struct smp_view *v)
{
	size_t n = 0;
	const struct lr_node *p = lr_get(v->sync, "pairs");
	n += p && p->kind == LR_ARR ? p->len : 0;
	for (size_t i = 0; i < v->npair_recs; i++) {
		p = lr_get(v->pair_recs[i], "pairs");
		n += p && p->kind == LR_ARR ? p->len : 0;
	}
	return n;
}

/* Which records a damaged line between a record at position p and one at n
 * may have been: every kind between them that is absent (or comes more
 * than once), narrowed by what the records present say is possible. */
static unsigned candidates(const struct smp_view *v, const struct lrun *r, int p, int n, const bool *present)
{
	unsigned set = 0;
	uint64_t total;
	for (int k = SMP_CPUS; k < SMP_KINDS; k++) {
		bool rep = (REPEATED & BIT(k)) != 0;
		if (k < p || k > n || ((k == p || k == n) && !rep) || (!rep && present[k]))
			continue;
		if (k == SMP_SYNC_PAIRS && !(v->sync && lr_uint(lr_get(v->sync, "pairs_total"), &total) &&
					     total > pairs_read(v)))
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
	uint64_t u;

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
	if (lr_uint(lr_get(v->cpus, "started"), &u))
		v->started = (long)u;
	if (lr_uint(lr_get(v->cpus, "count"), &u))
		v->count = (long)u;
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
	const struct lr_node *p = lr_get(v->sync, "pairs");
	size_t n = p && p->kind == LR_ARR ? p->len : 0;
	if (k < n)
		return lr_at(p, k);
	k -= n;
	for (size_t i = 0; i < v->npair_recs; i++) {
		p = lr_get(v->pair_recs[i], "pairs");
		n = p && p->kind == LR_ARR ? p->len : 0;
		if (k < n)
			return lr_at(p, k);
		k -= n;
	}
	return NULL;
}

bool smp_pair_offset(const struct lr_node *pair, int64_t *offset, uint64_t *uncertainty)
{
	const struct lr_node *o = lr_get(pair, "offset_cycles");
	if (!o || o->kind != LR_NUM || !o->is_int || !lr_uint(lr_get(pair, "uncertainty_cycles"), uncertainty))
		return false;
	if (!o->neg && o->u > (uint64_t)INT64_MAX)
		return false;
	*offset = o->neg ? o->i : (int64_t)o->u;
	return true;
}

static uint64_t mag(int64_t x)
{
	return x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
}

void smp_sync_summary(const struct smp_view *v, struct smp_sync_summary *s)
{
	const struct lr_node *p, *sy = lr_get(v->sync, "synchronized");
	uint64_t best = 0, best_out = 0, total, u, w;
	int64_t off;
	const struct lr_node *a;

	memset(s, 0, sizeof *s);
	/* Walked array by array: smp_pair_at from 0 each time is quadratic. */
	for (size_t r = 0; r <= v->npair_recs; r++) {
		const struct lr_node *arr = lr_get(r ? v->pair_recs[r - 1] : v->sync, "pairs");
		for (p = arr && arr->kind == LR_ARR ? arr->child : NULL; p; p = p->next) {
			s->pairs++;
			if (lr_get(p, "complete") && !lr_true(lr_get(p, "complete")))
				s->incomplete++;
			if (lr_uint(lr_get(p, "warps"), &w) && w)
				s->warped++;
			a = lr_get(p, "tsc_adjust");
			if (a && a->kind == LR_NUM && a->is_int && (a->neg || a->u))
				s->adjusted++;
			if (!smp_pair_offset(p, &off, &u))
				continue;
			s->measured++;
			if (!s->largest || mag(off) > best) {
				best = mag(off);
				s->largest = p;
			}
			if (mag(off) > u) {
				s->outside++;
				if (!s->worst_out || mag(off) - u > best_out) {
					best_out = mag(off) - u;
					s->worst_out = p;
				}
			}
		}
	}
	s->pairs_short = lr_uint(lr_get(v->sync, "pairs_total"), &total) && total > s->pairs;
	/* The rule (tsc_sync.rule): synchronized iff every pair was measured, none
	 * warped, and every |offset| is within its uncertainty; null when a pair
	 * could not be measured and none failed. */
	if (s->outside || s->warped)
		s->consistent = sy && sy->kind == LR_BOOL && !sy->b;
	else if (s->pairs_short)
		s->consistent = sy && (sy->kind == LR_NULL || sy->kind == LR_BOOL);
	else if (s->incomplete || s->measured < s->pairs)
		s->consistent = sy && sy->kind == LR_NULL;
	else
		s->consistent = lr_true(sy);
}

const char *smp_sync_word(const struct smp_view *v)
{
	const struct lr_node *sy = lr_get(v->sync, "synchronized");
	if (!v->sync)
		return "no record";
	if (sy && sy->kind == LR_BOOL)
		return sy->b ? "synchronized" : "NOT synchronized";
	return "not known";
}

/* ---- percpu -------------------------------------------------------------- */

bool smp_percpu_value(const struct smp_view *v, const char *key, size_t cpu, double *out)
{
	return lr_num(lr_at(lr_get(v->percpu, key), cpu), out);
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
	char key[64];
	const struct lr_node *arr, *e;
	double *vals, x;
	size_t cpu = 0;

	memset(s, 0, sizeof *s);
	snprintf(key, sizeof key, "%s_p50_ns", prefix);
	arr = lr_get(v->percpu, key);
	s->ns = true;
	for (e = arr && arr->kind == LR_ARR ? arr->child : NULL; e; e = e->next)
		s->n += e->kind == LR_NUM;
	if (!s->n) { /* no TSC rate: cycles */
		snprintf(key, sizeof key, "%s_p50_cycles", prefix);
		arr = lr_get(v->percpu, key);
		s->ns = false;
		for (e = arr && arr->kind == LR_ARR ? arr->child : NULL; e; e = e->next)
			s->n += e->kind == LR_NUM;
	}
	if (!s->n || !arr || !(vals = malloc(s->n * sizeof *vals)))
		return false;
	s->n = 0;
	for (e = arr->child; e; e = e->next, cpu++) {
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
	const struct lr_node *list = lr_get(v->cpus, "list"), *e;
	uint64_t c;
	for (e = list && list->kind == LR_ARR ? list->child : NULL; e; e = e->next)
		if (lr_uint(lr_get(e, "cpu"), &c) && (long)c == cpu)
			return e;
	return NULL;
}

/* ---- contention ---------------------------------------------------------- */

const struct lr_node *smp_contention(const struct smp_view *v, const char *counter)
{
	for (size_t i = 0; i < v->ncontention; i++) {
		const char *c = lr_str(lr_get(v->contention[i], "counter"));
		if (c && !strcmp(c, counter))
			return v->contention[i];
	}
	return NULL;
}

const struct lr_node *smp_level(const struct lr_node *contention, uint64_t n)
{
	const struct lr_node *lv = lr_get(contention, "readers"), *e;
	uint64_t k;
	for (e = lv && lv->kind == LR_ARR ? lv->child : NULL; e; e = e->next)
		if (lr_uint(lr_get(e, "n"), &k) && k == n && !smp_level_siblings(e))
			return e;
	return NULL;
}

bool smp_level_siblings(const struct lr_node *level)
{
	return lr_true(lr_get(level, "siblings"));
}

int smp_level_concurrent(const struct lr_node *level)
{
	double o;
	if (!lr_num(lr_get(level, "overlap"), &o))
		return -1;
	return o >= SMP_CONCURRENT;
}

bool smp_has_overlap(const struct lr_node *contention)
{
	const struct lr_node *lv = lr_get(contention, "readers"), *e;
	for (e = lv && lv->kind == LR_ARR ? lv->child : NULL; e; e = e->next)
		if (lr_get(e, "overlap"))
			return true;
	return false;
}
