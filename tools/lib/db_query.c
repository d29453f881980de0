/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE /* qsort_r */
/* Summary and paired comparison over the fleet store (db_query.h).  SQL picks
 * the rows; the statistics are done here, with the same ministat t table as
 * `tickprobe compare`, so a fleet verdict and a two-log verdict agree. */
#include "tools/lib/db_query.h"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "tools/lib/stats.h"
#include <zlib.h>
#include "tools/lib/exit_codes.h"
#include "tools/lib/xalloc.h"

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
 * and the raw reads that `tickprobe os` makes from user space with "user:"
 * in front ("user:hpet"), so that they are never pooled with the bare-metal
 * read of the same name. */
#define COUNTER_KEY "CASE WHEN r.kind='os' AND instr(c.name,'@')=0 THEN 'user:'||c.name ELSE c.name END"

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

		if (!first && (new_name || mid != cur_machine)) {
			dvec_push(&machines, median_of(&runs));
			runs.n = 0;
		}
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
	free(runs.v);
	free(machines.v);
	free(cur_group);
	free(cur_name);
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
	pm->na = a->n;
	pm->nb = b->n;
	pm->mean_a = sa.mean;
	pm->mean_b = sb.mean;
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
	bool have = false;
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
		if (!have || mid != pm.machine_id) {
			if (have)
				finish_machine(out, &pm, &va, &vb, conf_index);
			have = true;
			pm.machine_id = mid;
			pm.label = xstrdup((const char *)sqlite3_column_text(st, 1));
		}
		parse_numbers((const char *)sqlite3_column_text(st, 3), name && !strcmp(name, a) ? &va : &vb);
	}
	if (have)
		finish_machine(out, &pm, &va, &vb, conf_index);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		snprintf(why, cap, "%s: %s", s->path, sqlite3_errmsg(s->db));
		free(va.v);
		free(vb.v);
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
	free(va.v);
	free(vb.v);
	free(ratios.v);
	return 0;
}

void pair_result_free(struct pair_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->m[i].label);
	free(r->m);
	memset(r, 0, sizeof *r);
}

/* ---- the fleet as a table ---------------------------------------------------- */

static size_t counter_index(struct fleet_matrix *m, const char *name)
{
	for (size_t i = 0; i < m->ncounters; i++)
		if (!strcmp(m->counters[i], name))
			return i;
	m->counters = xrealloc(m->counters, (m->ncounters + 1) * sizeof *m->counters);
	m->machines_with = xrealloc(m->machines_with, (m->ncounters + 1) * sizeof *m->machines_with);
	m->counters[m->ncounters] = xstrdup(name);
	m->machines_with[m->ncounters] = 0;
	return m->ncounters++;
}

static int by_presence(const void *a, const void *b, void *ctx)
{
	const struct fleet_matrix *m = ctx;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	if (m->machines_with[i] != m->machines_with[j])
		return m->machines_with[i] > m->machines_with[j] ? -1 : 1;
	return strcmp(m->counters[i], m->counters[j]);
}

/* Sorts m's columns, the counters most machines have first (machines_with
 * counted): m->counters and m->machines_with in their new order.  Returns
 * rank, each counter's old index to its new one, for the caller to free. */
static size_t *order_columns(struct fleet_matrix *m)
{
	size_t *order = xrealloc(NULL, (m->ncounters + 1) * sizeof *order);
	size_t *rank = calloc(m->ncounters + 1, sizeof *rank);
	char **names;
	size_t *with;

	if (!rank)
		exit(EXIT_UNREADABLE);
	for (size_t i = 0; i < m->ncounters; i++)
		order[i] = i;
	qsort_r(order, m->ncounters, sizeof *order, by_presence, m);
	for (size_t i = 0; i < m->ncounters; i++)
		rank[order[i]] = i;
	names = xrealloc(NULL, (m->ncounters + 1) * sizeof *names);
	with = xrealloc(NULL, (m->ncounters + 1) * sizeof *with);
	for (size_t i = 0; i < m->ncounters; i++) {
		names[rank[i]] = m->counters[i];
		with[rank[i]] = m->machines_with[i];
	}
	free(m->counters);
	free(m->machines_with);
	m->counters = names;
	m->machines_with = with;
	free(order);
	return rank;
}

int fleet_matrix(struct store *s, struct fleet_matrix *m, char *why, size_t cap)
{
	struct cell { long long mid; size_t col; double p50; } *cells = NULL;
	size_t ncells = 0, capc = 0, *rank;
	sqlite3_stmt *st;
	int rc;

	memset(m, 0, sizeof *m);
	st = store_prepare(s, "SELECT m.id, COALESCE(m.name, m.cpu_brand, m.key), m.cpu_vendor, m.firmware, "
			      "group_concat(DISTINCT r.boot), COUNT(r.id), SUM(r.damaged_records) FROM machines m "
			      "JOIN runs r ON r.machine_id=m.id GROUP BY m.id ORDER BY m.id");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct fleet_row *row;
		m->rows = xrealloc(m->rows, (m->nrows + 1) * sizeof *m->rows);
		row = &m->rows[m->nrows++];
		memset(row, 0, sizeof *row);
		row->machine_id = sqlite3_column_int64(st, 0);
		row->label = xstrdup((const char *)sqlite3_column_text(st, 1));
		row->vendor = xstrdup((const char *)sqlite3_column_text(st, 2));
		row->firmware = xstrdup((const char *)sqlite3_column_text(st, 3));
		row->boots = xstrdup((const char *)sqlite3_column_text(st, 4));
		row->runs = sqlite3_column_int64(st, 5);
		row->damaged_records = sqlite3_column_int64(st, 6);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		goto db_error;
	st = store_prepare(s, "SELECT r.machine_id, " COUNTER_KEY ", c.p50_ns FROM counters c JOIN runs r ON "
			      "r.id=c.run_id WHERE c.healthy=1 AND c.p50_ns IS NOT NULL ORDER BY r.machine_id, 2");
	{
		struct dvec runs = { 0 };
		long long mid = -1;
		size_t col = 0;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			long long id = sqlite3_column_int64(st, 0);
			size_t c = counter_index(m, (const char *)sqlite3_column_text(st, 1));
			if (runs.n && (id != mid || c != col)) {
				if (ncells == capc) {
					capc = capc ? capc * 2 : 256;
					cells = xrealloc(cells, capc * sizeof *cells);
				}
				cells[ncells++] = (struct cell){ mid, col, median_of(&runs) };
				runs.n = 0;
			}
			mid = id;
			col = c;
			dvec_push(&runs, sqlite3_column_double(st, 2));
		}
		if (runs.n) {
			if (ncells == capc) {
				capc = capc ? capc * 2 : 256;
				cells = xrealloc(cells, capc * sizeof *cells);
			}
			cells[ncells++] = (struct cell){ mid, col, median_of(&runs) };
		}
		free(runs.v);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		goto db_error;
	/* Columns: the counters most machines have first. */
	for (size_t i = 0; i < ncells; i++)
		m->machines_with[cells[i].col]++;
	rank = order_columns(m);
	for (size_t r = 0, i = 0; r < m->nrows; r++) {
		m->rows[r].p50 = xrealloc(NULL, (m->ncounters + 1) * sizeof *m->rows[r].p50);
		for (size_t c = 0; c < m->ncounters; c++)
			m->rows[r].p50[c] = __builtin_nan("");
		/* cells and rows are both in machine order */
		for (; i < ncells && cells[i].mid <= m->rows[r].machine_id; i++)
			if (cells[i].mid == m->rows[r].machine_id)
				m->rows[r].p50[rank[cells[i].col]] = cells[i].p50;
	}
	free(rank);
	free(cells);
	return 0;
db_error:
	snprintf(why, cap, "%s: %s", s->path, sqlite3_errmsg(s->db));
	free(cells);
	fleet_matrix_free(m);
	return -1;
}

void fleet_matrix_free(struct fleet_matrix *m)
{
	for (size_t i = 0; i < m->ncounters; i++)
		free(m->counters[i]);
	for (size_t r = 0; r < m->nrows; r++) {
		free(m->rows[r].label);
		free(m->rows[r].vendor);
		free(m->rows[r].firmware);
		free(m->rows[r].boots);
		free(m->rows[r].p50);
	}
	free(m->counters);
	free(m->machines_with);
	free(m->rows);
	memset(m, 0, sizeof *m);
}

char *machine_log(struct store *s, long long machine_id, size_t *len)
{
	sqlite3_stmt *st = store_prepare(s, "SELECT log, log_bytes FROM runs WHERE machine_id=? AND log IS NOT "
					    "NULL ORDER BY id");
	char *out = NULL;
	size_t n = 0;

	sqlite3_bind_int64(st, 1, machine_id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const void *z = sqlite3_column_blob(st, 0);
		uLongf want = (uLongf)sqlite3_column_int64(st, 1);
		uLong zlen = (uLong)sqlite3_column_bytes(st, 0);
		out = xrealloc(out, n + want + 1);
		if (uncompress((Bytef *)out + n, &want, z, zlen) == Z_OK)
			n += want;
	}
	sqlite3_finalize(st);
	if (!n) {
		free(out);
		return NULL;
	}
	out[n] = 0;
	*len = n;
	return out;
}
