/* SPDX-License-Identifier: BSD-2-Clause */
/* Summary and paired comparison over the fleet store (query.h).  SQL picks
 * the rows; the statistics are done here, with the same ministat t table as
 * `tickprobe compare`, so a fleet verdict and a two-log verdict agree. */
#include "tools/db/query.h"
#include <stdlib.h>
#include <string.h>
#include "probe/stats.h"
#include "tools/commands.h"

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "tickprobe: out of memory\n");
		exit(EXIT_UNREADABLE);
	}
	return q;
}

static char *xstrdup(const char *s) { return s ? strcpy(xrealloc(NULL, strlen(s) + 1), s) : NULL; }

double quantile_sorted(const double *v, size_t n, double q)
{
	double h, lo;
	size_t i;
	if (!n)
		return 0;
	h = (double)(n - 1) * q;
	i = (size_t)h;
	lo = v[i];
	return i + 1 < n ? lo + (h - (double)i) * (v[i + 1] - lo) : lo;
}

struct dvec {
	double *v;
	size_t n, cap;
};

static void dvec_push(struct dvec *d, double x)
{
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 16;
		d->v = xrealloc(d->v, d->cap * sizeof *d->v);
	}
	d->v[d->n++] = x;
}

static double median_of(struct dvec *d)
{
	stats_sort(d->v, d->n);
	return quantile_sorted(d->v, d->n, 0.5);
}

static const char *group_column(const char *by)
{
	if (!by)
		return "''";
	if (!strcmp(by, "cpu"))
		return "m.cpu_brand";
	if (!strcmp(by, "vendor"))
		return "m.cpu_vendor";
	if (!strcmp(by, "firmware"))
		return "m.firmware";
	if (!strcmp(by, "boot"))
		return "r.boot";
	return NULL;
}

/* A counter's name across the store: a hardware read as the log names it
 * ("hpet"), a clock call with its clocksource ("clock_gettime(MONOTONIC)@hpet"),
 * and the raw reads that `tickprobe os` makes from user space with "os:" in
 * front ("os:hpet"), so that they are never pooled with the bare-metal read. */
#define COUNTER_KEY "CASE WHEN r.kind='os' AND instr(c.name,'@')=0 THEN 'os:'||c.name ELSE c.name END"

static bool same(const char *a, const char *b) { return (!a && !b) || (a && b && !strcmp(a, b)); }

/* Closes one counter of one group: the per-machine p50s into its summary. */
static void close_counter(struct fleet_group *g, const char *name, struct dvec *machine_p50)
{
	struct fleet_counter *c;
	if (!machine_p50->n)
		return;
	g->counters = xrealloc(g->counters, (g->ncounters + 1) * sizeof *g->counters);
	c = &g->counters[g->ncounters++];
	stats_sort(machine_p50->v, machine_p50->n);
	c->name = xstrdup(name);
	c->machines = machine_p50->n;
	c->median = quantile_sorted(machine_p50->v, machine_p50->n, 0.5);
	c->q1 = quantile_sorted(machine_p50->v, machine_p50->n, 0.25);
	c->q3 = quantile_sorted(machine_p50->v, machine_p50->n, 0.75);
	c->min = machine_p50->v[0];
	c->max = machine_p50->v[machine_p50->n - 1];
	machine_p50->n = 0;
}

static void group_totals(struct store *s, const char *col, struct fleet_group *g)
{
	char sql[512];
	sqlite3_stmt *st;
	snprintf(sql, sizeof sql,
		 "SELECT COUNT(*), COUNT(DISTINCT r.machine_id), COALESCE(SUM(r.damaged_records),0) FROM runs r "
		 "JOIN machines m ON m.id=r.machine_id WHERE %s IS ?1", col);
	st = store_prepare(s, sql);
	if (g->group)
		sqlite3_bind_text(st, 1, g->group, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		g->runs = sqlite3_column_int64(st, 0);
		g->machines = sqlite3_column_int64(st, 1);
		g->damaged_records = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
}

int fleet_summary(struct store *s, const char *by, struct fleet_group **groups, char *why, size_t cap)
{
	const char *col = group_column(by);
	char sql[768], *cur_group = NULL, *cur_name = NULL;
	struct dvec runs = { 0 }, machines = { 0 };
	long long cur_machine = -1;
	struct fleet_group *g = NULL;
	sqlite3_stmt *st;
	int n = 0, rc;
	bool first = true;

	*groups = NULL;
	if (!col) {
		snprintf(why, cap, "--by is cpu, vendor, firmware or boot, not '%s'", by);
		return -1;
	}
	/* One row per counter result; ordered so that each group, counter and
	 * machine arrives in one stretch. */
	snprintf(sql, sizeof sql,
		 "SELECT %s, " COUNTER_KEY ", r.machine_id, c.p50_ns FROM counters c JOIN runs r ON r.id=c.run_id "
		 "JOIN machines m ON m.id=r.machine_id WHERE c.healthy=1 AND c.p50_ns IS NOT NULL "
		 "ORDER BY 1, 2, r.machine_id", col);
	st = store_prepare(s, sql);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *grp = (const char *)sqlite3_column_text(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		long long mid = sqlite3_column_int64(st, 2);
		double p50 = sqlite3_column_double(st, 3);
		bool new_group = first || !same(grp, cur_group), new_name = new_group || !same(name, cur_name);

		if (!first && (new_name || mid != cur_machine))
			dvec_push(&machines, median_of(&runs)), runs.n = 0;
		if (!first && new_name)
			close_counter(&g[n - 1], cur_name, &machines);
		if (new_group) {
			g = xrealloc(g, (size_t)(n + 1) * sizeof *g);
			memset(&g[n], 0, sizeof *g);
			g[n].group = by ? xstrdup(grp) : NULL;
			n++;
			free(cur_group);
			cur_group = xstrdup(grp);
		}
		if (new_name) {
			free(cur_name);
			cur_name = xstrdup(name);
		}
		cur_machine = mid;
		dvec_push(&runs, p50);
		first = false;
	}
	if (!first) {
		dvec_push(&machines, median_of(&runs));
		close_counter(&g[n - 1], cur_name, &machines);
	}
	sqlite3_finalize(st);
	free(runs.v), free(machines.v), free(cur_group), free(cur_name);
	if (rc != SQLITE_DONE) {
		snprintf(why, cap, "%s: %s", s->path, sqlite3_errmsg(s->db));
		fleet_groups_free(g, n);
		return -1;
	}
	if (!n) { /* no counter results at all: still say how many runs */
		g = xrealloc(NULL, sizeof *g);
		memset(g, 0, sizeof *g);
		n = 1;
	}
	/* Without a grouping, "NULL IS NULL" holds for every run. */
	for (int i = 0; i < n; i++)
		group_totals(s, by ? col : "NULL", &g[i]);
	*groups = g;
	return n;
}

void fleet_groups_free(struct fleet_group *g, int n)
{
	for (int i = 0; i < n; i++) {
		for (size_t k = 0; k < g[i].ncounters; k++)
			free(g[i].counters[k].name);
		free(g[i].counters);
		free(g[i].group);
	}
	free(g);
}

/* ---- paired comparison --------------------------------------------------------- */

/* "[1.5,2,3]" (a rounds column) appended to d. */
static void parse_numbers(const char *s, struct dvec *d)
{
	char *end;
	if (!s)
		return;
	while (*s && *s != ']') {
		if (*s == '[' || *s == ',' || *s == ' ') {
			s++;
			continue;
		}
		double v = strtod(s, &end);
		if (end == s)
			return;
		dvec_push(d, v);
		s = end;
	}
}

static void finish_machine(struct pair_result *out, struct pair_machine *pm, struct dvec *a, struct dvec *b,
			   int conf_index)
{
	struct stats sa, sb;
	struct stats_diff d;

	if (!a->n || !b->n) /* the machine has only one of the two */
		goto done;
	if (a->n < 2 || b->n < 2) {
		out->too_few++;
		goto done;
	}
	stats_compute(a->v, a->n, &sa);
	stats_compute(b->v, b->n, &sb);
	stats_compare(&sb, &sa, conf_index, &d); /* diff = mean A - mean B */
	pm->na = a->n, pm->nb = b->n;
	pm->mean_a = sa.mean, pm->mean_b = sb.mean;
	pm->ratio = sb.mean > 0 ? sa.mean / sb.mean : 0;
	pm->verdict = !d.significant ? 0 : d.diff < 0 ? -1 : 1;
	out->a_faster += pm->verdict < 0;
	out->b_faster += pm->verdict > 0;
	out->no_difference += pm->verdict == 0;
	out->m = xrealloc(out->m, (out->n + 1) * sizeof *out->m);
	out->m[out->n++] = *pm;
	pm->label = NULL; /* now owned by out */
done:
	free(pm->label);
	pm->label = NULL;
	a->n = b->n = 0;
}

int fleet_pair(struct store *s, const char *a, const char *b, const char *metric, int conf_index,
	       struct pair_result *out, char *why, size_t cap)
{
	struct dvec va = { 0 }, vb = { 0 }, ratios = { 0 };
	struct pair_machine pm = { .machine_id = -1 };
	sqlite3_stmt *st;
	int rc;

	memset(out, 0, sizeof *out);
	st = store_prepare(s, strcmp(metric, "mean")
		? "SELECT r.machine_id, COALESCE(m.name, m.cpu_brand, m.key), " COUNTER_KEY ", c.rounds_p50 FROM counters c "
		  "JOIN runs r ON r.id=c.run_id JOIN machines m ON m.id=r.machine_id "
		  "WHERE c.healthy=1 AND " COUNTER_KEY " IN (?1,?2) ORDER BY r.machine_id"
		: "SELECT r.machine_id, COALESCE(m.name, m.cpu_brand, m.key), " COUNTER_KEY ", c.rounds_mean FROM counters c "
		  "JOIN runs r ON r.id=c.run_id JOIN machines m ON m.id=r.machine_id "
		  "WHERE c.healthy=1 AND " COUNTER_KEY " IN (?1,?2) ORDER BY r.machine_id");
	sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long mid = sqlite3_column_int64(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 2);
		if (mid != pm.machine_id) {
			if (pm.machine_id >= 0)
				finish_machine(out, &pm, &va, &vb, conf_index);
			pm.machine_id = mid;
			pm.label = xstrdup((const char *)sqlite3_column_text(st, 1));
		}
		parse_numbers((const char *)sqlite3_column_text(st, 3), name && !strcmp(name, a) ? &va : &vb);
	}
	if (pm.machine_id >= 0)
		finish_machine(out, &pm, &va, &vb, conf_index);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		snprintf(why, cap, "%s: %s", s->path, sqlite3_errmsg(s->db));
		free(va.v), free(vb.v);
		return -1;
	}
	for (size_t i = 0; i < out->n; i++)
		dvec_push(&ratios, out->m[i].ratio);
	if (ratios.n) {
		stats_sort(ratios.v, ratios.n);
		out->ratio_min = ratios.v[0];
		out->ratio_max = ratios.v[ratios.n - 1];
		out->ratio_median = quantile_sorted(ratios.v, ratios.n, 0.5);
		out->ratio_q1 = quantile_sorted(ratios.v, ratios.n, 0.25);
		out->ratio_q3 = quantile_sorted(ratios.v, ratios.n, 0.75);
	}
	free(va.v), free(vb.v), free(ratios.v);
	return 0;
}

void pair_result_free(struct pair_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->m[i].label);
	free(r->m);
	memset(r, 0, sizeof *r);
}
