/* SPDX-License-Identifier: BSD-2-Clause */
/* The record tables of the fleet store: each record type that people query
 * decoded into its own table (docs/db.md), the rest kept whole. */
#include "tools/lib/db_decode.h"
#include <stdlib.h>
#include <string.h>
#include "tools/lib/hist_decode.h"
#include "tools/lib/textbuf.h"

/* ---- binding values straight from the parsed records --------------------- */

void db_bind_str(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

void db_bind_num(sqlite3_stmt *st, int i, const struct lr_node *n)
{
	double v;
	if (n && n->kind == LR_NUM && n->is_int && !n->neg)
		sqlite3_bind_int64(st, i, (sqlite3_int64)n->u);
	else if (lr_num(n, &v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

void db_bind_bool(sqlite3_stmt *st, int i, const struct lr_node *n)
{
	if (n && n->kind == LR_BOOL)
		sqlite3_bind_int(st, i, n->b);
	else
		sqlite3_bind_null(st, i);
}

void db_bind_owned(sqlite3_stmt *st, int i, char *text)
{
	if (text)
		sqlite3_bind_text(st, i, text, -1, free);
	else
		sqlite3_bind_null(st, i);
}

bool db_step(struct store *s, sqlite3_stmt *st, char *why, size_t cap)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return true;
	snprintf(why, cap, "%s: %s", s->path, sqlite3_errmsg(s->db));
	return false;
}

/* ---- record decoders --------------------------------------------------------- */

/* The histogram of a record as [[cycles,count],…] text, whichever form the
 * log wrote it in (probe/hist_codec.h); NULL when it has none or it does
 * not decode (the record passed its CRC, so that is a writer's bug). */
static char *hist_pairs_text(const struct lr_node *rec)
{
	struct hist_dec d;
	struct text t = { 0 };
	uint64_t v, n;
	int rc;

	if (hist_dec_init(&d, lr_get(rec, "hist")) < 0)
		return NULL;
	text_putc(&t, '[');
	while ((rc = hist_dec_next(&d, &v, &n)) > 0) {
		text_put(&t, t.len > 1 ? ",[" : "[", t.len > 1 ? 2 : 1);
		text_u64(&t, v);
		text_putc(&t, ',');
		text_u64(&t, n);
		text_putc(&t, ']');
	}
	text_putc(&t, ']');
	if (rc < 0) {
		free(t.s);
		return NULL;
	}
	return t.s;
}

/* A member that is already JSON (an array of numbers), as text. */
static char *json_text(const struct lr_node *n)
{
	struct text t = { 0 };
	if (!n)
		return NULL;
	text_json(&t, n);
	return t.s;
}

/* The per-round values exactly as the log wrote them ("10.22", not
 * 10.220000000000001), from either schema's form of `rounds`. */
static char *rounds_text(const struct lr_node *timer, const char *metric)
{
	const struct lr_node *v;
	struct lr_rounds it;
	struct text t = { 0 };
	char b[64];

	if (!lr_rounds_count(lr_get(timer, "rounds"), metric))
		return NULL;
	text_putc(&t, '[');
	lr_rounds_init(&it, lr_get(timer, "rounds"), metric);
	while (lr_rounds_next(&it, &v))
		if (v && v->kind == LR_NUM) {
			const char *num = fmt_num(b, sizeof b, v, -1);
			if (t.len > 1)
				text_putc(&t, ',');
			text_put(&t, num, strlen(num));
		}
	text_putc(&t, ']');
	return t.s;
}

static bool put_timer(struct record_statements *rs, sqlite3_int64 run, const struct lr_node *t, char *why, size_t cap)
{
	sqlite3_stmt *st = rs->counter;
	static const char *const ns[] = { "p50", "min", "mean", "sd", "p99", "p999", "max" };
	char path[32];

	if (!lr_str(lr_get(t, "name")))
		return true;
	sqlite3_bind_int64(st, 1, run);
	db_bind_str(st, 2, lr_str(lr_get(t, "name")));
	db_bind_str(st, 3, lr_str(lr_get(t, "clocksource")));
	db_bind_str(st, 4, lr_str(lr_get(t, "call")));
	db_bind_bool(st, 5, lr_get(t, "present"));
	db_bind_bool(st, 6, lr_get(t, "healthy"));
	db_bind_str(st, 7, lr_str(lr_get(t, "reason")));
	db_bind_num(st, 8, lr_get(t, "samples"));
	for (int i = 0; i < 7; i++) {
		snprintf(path, sizeof path, "cost_ns.%s", ns[i]);
		db_bind_num(st, 9 + i, lr_path(t, path));
	}
	db_bind_num(st, 16, lr_path(t, "cost_cycles.p50"));
	db_bind_num(st, 17, lr_path(t, "cost_cycles.min"));
	db_bind_num(st, 18, lr_path(t, "throughput.reads_per_s"));
	db_bind_num(st, 19, lr_path(t, "freq.ppm"));
	db_bind_owned(st, 20, rounds_text(t, "p50"));
	db_bind_owned(st, 21, rounds_text(t, "mean"));
	db_bind_owned(st, 22, hist_pairs_text(t));
	return db_step(rs->s, st, why, cap);
}

/* Schema 2: a counter absent by design has no timer record unless counters=
 * named it, only its reason in plan.absent: a counters row each, absent,
 * as its timer record would have given (the plan itself is kept whole too). */
static bool put_absent(struct record_statements *rs, sqlite3_int64 run, const struct lr_node *plan, char *why,
		       size_t cap)
{
	const struct lr_node *a = lr_get(plan, "absent");

	for (a = a && a->kind == LR_OBJ ? a->child : NULL; a; a = a->next) {
		if (!a->key)
			continue;
		sqlite3_bind_int64(rs->counter, 1, run);
		db_bind_str(rs->counter, 2, a->key);
		sqlite3_bind_int(rs->counter, 5, 0);
		sqlite3_bind_int(rs->counter, 6, 0);
		db_bind_str(rs->counter, 7, lr_str(a));
		sqlite3_bind_int(rs->counter, 8, 0);
		if (!db_step(rs->s, rs->counter, why, cap))
			return false;
	}
	return true;
}

static bool put_os(struct record_statements *rs, sqlite3_int64 run, const char *type, const struct lr_node *n,
		   char *why, size_t cap)
{
	sqlite3_stmt *st;
	if (!strcmp(type, "rate")) {
		st = rs->rate;
		sqlite3_bind_int64(st, 1, run);
		db_bind_str(st, 2, lr_str(lr_get(n, "name")));
		db_bind_str(st, 3, lr_str(lr_get(n, "clocksource")));
		db_bind_str(st, 4, lr_str(lr_get(n, "call")));
		db_bind_num(st, 5, lr_get(n, "calls"));
		db_bind_num(st, 6, lr_path(n, "calls_per_s.median"));
		db_bind_owned(st, 7, json_text(lr_get(n, "runs")));
	} else if (!strcmp(type, "gaps")) {
		st = rs->gaps;
		sqlite3_bind_int64(st, 1, run);
		db_bind_str(st, 2, lr_str(lr_get(n, "name")));
		db_bind_str(st, 3, lr_str(lr_get(n, "clocksource")));
		db_bind_str(st, 4, lr_str(lr_get(n, "call")));
		db_bind_num(st, 5, lr_get(n, "samples"));
		db_bind_num(st, 6, lr_path(n, "gap_ns.p50"));
		db_bind_num(st, 7, lr_get(n, "backwards"));
		db_bind_owned(st, 8, json_text(lr_get(n, "modes")));
		db_bind_owned(st, 9, hist_pairs_text(n));
	} else {
		st = rs->ctxsw;
		sqlite3_bind_int64(st, 1, run);
		db_bind_str(st, 2, lr_str(lr_get(n, "name")));
		db_bind_str(st, 3, lr_str(lr_get(n, "clocksource")));
		db_bind_num(st, 4, lr_path(n, "switches_per_s.median"));
		db_bind_owned(st, 5, json_text(lr_get(n, "runs")));
	}
	if (!lr_str(lr_get(n, "name"))) {
		sqlite3_clear_bindings(st);
		return true;
	}
	return db_step(rs->s, st, why, cap);
}

static bool put_cpus(struct record_statements *rs, sqlite3_int64 run, const struct lr_node *n, char *why, size_t cap)
{
	const struct lr_node *c = lr_get(n, "list");
	int idx = 0;
	for (c = c && c->kind == LR_ARR ? c->child : NULL; c; c = c->next, idx++) {
		sqlite3_stmt *st = rs->cpu;
		sqlite3_bind_int64(st, 1, run);
		sqlite3_bind_int(st, 2, idx);
		db_bind_num(st, 3, lr_get(c, "apic_id"));
		db_bind_num(st, 4, lr_get(c, "package"));
		db_bind_num(st, 5, lr_get(c, "core"));
		db_bind_num(st, 6, lr_get(c, "thread"));
		db_bind_str(st, 7, lr_str(lr_get(c, "core_type")));
		db_bind_str(st, 8, lr_str(lr_get(c, "state")));
		db_bind_num(st, 9, lr_get(c, "cpu"));
		db_bind_num(st, 10, lr_get(c, "startup_us"));
		db_bind_num(st, 11, lr_get(c, "sipis"));
		if (!db_step(rs->s, st, why, cap))
			return false;
	}
	return true;
}

/* The pairs of a tsc_sync record, or of a tsc_sync_pairs record: the
 * probe writes the first 512 pairs in the one and the rest, 512 a record, in
 * the others (a matrix of 33 CPUs has 528), and all go in one table. */
static bool put_pairs(struct record_statements *rs, sqlite3_int64 run, const struct lr_node *n, char *why, size_t cap)
{
	const struct lr_node *p = lr_get(n, "pairs");
	for (p = p && p->kind == LR_ARR ? p->child : NULL; p; p = p->next) {
		double ref = 0;
		sqlite3_bind_int64(rs->pair, 1, run);
		db_bind_num(rs->pair, 2, lr_get(p, "cpu"));
		if (!lr_num(lr_get(p, "ref"), &ref))
			ref = 0; /* against the boot CPU unless the pair names another */
		sqlite3_bind_int64(rs->pair, 3, (sqlite3_int64)ref);
		db_bind_num(rs->pair, 4, lr_get(p, "offset_cycles"));
		db_bind_num(rs->pair, 5, lr_get(p, "uncertainty_cycles"));
		if (!db_step(rs->s, rs->pair, why, cap))
			return false;
	}
	return true;
}

static bool put_sync(struct record_statements *rs, sqlite3_int64 run, const struct lr_node *n, char *why, size_t cap)
{
	sqlite3_bind_int64(rs->sync, 1, run);
	db_bind_bool(rs->sync, 2, lr_get(n, "synchronized"));
	db_bind_num(rs->sync, 3, lr_get(n, "warps"));
	db_bind_num(rs->sync, 4, lr_get(n, "max_warp_cycles"));
	if (!db_step(rs->s, rs->sync, why, cap))
		return false;
	return put_pairs(rs, run, n, why, cap);
}

static bool put_contention(struct record_statements *rs, sqlite3_int64 run, const struct lr_node *n, char *why, size_t cap)
{
	const struct lr_node *r = lr_get(n, "readers");
	for (r = r && r->kind == LR_ARR ? r->child : NULL; r; r = r->next) {
		sqlite3_stmt *st = rs->cont;
		sqlite3_bind_int64(st, 1, run);
		db_bind_str(st, 2, lr_str(lr_get(n, "counter")));
		db_bind_num(st, 3, lr_get(r, "n"));
		db_bind_num(st, 4, lr_get(r, "p50_ns"));
		db_bind_num(st, 5, lr_get(r, "p99_ns"));
		db_bind_num(st, 6, lr_get(r, "reads_per_s"));
		/* The level's own count: the record's is the sum over its levels,
		 * and repeated on every row it would be counted once a level. */
		db_bind_num(st, 7, lr_get(r, "backwards"));
		/* A row per reader count (the table's key), so the spread level
		 * of 2 and not the siblings' second level of 2: that one stays
		 * in the run's stored log text, as do each level's cpus and
		 * overlap, which the table has no column for. */
		if (!lr_str(lr_get(n, "counter")) || !lr_get(r, "n") || lr_true(lr_get(r, "siblings"))) {
			sqlite3_clear_bindings(st);
			continue;
		}
		if (!db_step(rs->s, st, why, cap))
			return false;
	}
	return true;
}

static bool typed(struct record_statements *rs, sqlite3_int64 run, const struct lrec *rec, char *why, size_t cap, bool *done)
{
	const char *type = rec->type;
	*done = true;
	if (!strcmp(type, "timer"))
		return put_timer(rs, run, rec->root, why, cap);
	if (!strcmp(type, "rate") || !strcmp(type, "gaps") || !strcmp(type, "ctxsw"))
		return put_os(rs, run, type, rec->root, why, cap);
	if (!strcmp(type, "cpus"))
		return put_cpus(rs, run, rec->root, why, cap);
	if (!strcmp(type, "tsc_sync"))
		return put_sync(rs, run, rec->root, why, cap);
	if (!strcmp(type, "tsc_sync_pairs"))
		return put_pairs(rs, run, rec->root, why, cap);
	if (!strcmp(type, "contention"))
		return put_contention(rs, run, rec->root, why, cap);
	*done = false;
	if (!strcmp(type, "plan"))
		return put_absent(rs, run, rec->root, why, cap);
	return true;
}

bool record_put(struct record_statements *rs, sqlite3_int64 run, const struct lrec *rec, char *why, size_t cap)
{
	bool done;
	if (!rec->type || !rec->root)
		return true;
	if (!typed(rs, run, rec, why, cap, &done))
		return false;
	if (done)
		return true;
	sqlite3_bind_int64(rs->other, 1, run);
	sqlite3_bind_int64(rs->other, 2, (sqlite3_int64)rec->seq);
	db_bind_str(rs->other, 3, rec->type);
	sqlite3_bind_text(rs->other, 4, rec->text, (int)rec->len, SQLITE_STATIC);
	return db_step(rs->s, rs->other, why, cap);
}

void record_statements_prepare(struct record_statements *rs, struct store *s)
{
	rs->s = s;
	rs->counter = store_prepare(s, "INSERT OR REPLACE INTO counters(run_id,name,clocksource,call,present,"
		"healthy,reason,samples,p50_ns,min_ns,mean_ns,sd_ns,p99_ns,p999_ns,max_ns,p50_cycles,min_cycles,"
		"reads_per_s,freq_ppm,rounds_p50,rounds_mean,hist) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	rs->rate = store_prepare(s, "INSERT OR REPLACE INTO os_rates(run_id,name,clocksource,call,calls,"
		"median_calls_per_s,runs) VALUES(?,?,?,?,?,?,?)");
	rs->gaps = store_prepare(s, "INSERT OR REPLACE INTO os_gaps(run_id,name,clocksource,call,samples,"
		"p50_ns,backwards,modes,hist) VALUES(?,?,?,?,?,?,?,?,?)");
	rs->ctxsw = store_prepare(s, "INSERT OR REPLACE INTO os_ctxsw(run_id,name,clocksource,"
		"median_switches_per_s,runs) VALUES(?,?,?,?,?)");
	rs->cpu = store_prepare(s, "INSERT OR REPLACE INTO cpus(run_id,idx,apic_id,package,core,thread,"
		"core_type,state,cpu,startup_us,sipis) VALUES(?,?,?,?,?,?,?,?,?,?,?)");
	rs->sync = store_prepare(s, "INSERT OR REPLACE INTO tsc_sync(run_id,synchronized,warps,"
		"max_warp_cycles) VALUES(?,?,?,?)");
	rs->pair = store_prepare(s, "INSERT OR REPLACE INTO tsc_sync_pairs(run_id,cpu,ref,offset_cycles,"
		"uncertainty_cycles) VALUES(?,?,?,?,?)");
	rs->cont = store_prepare(s, "INSERT OR REPLACE INTO contention(run_id,counter,readers,p50_ns,p99_ns,"
		"reads_per_s,backwards) VALUES(?,?,?,?,?,?,?)");
	rs->other = store_prepare(s, "INSERT OR REPLACE INTO other_records(run_id,seq,type,json) VALUES(?,?,?,?)");
}

void record_statements_finalize(struct record_statements *rs)
{
	sqlite3_stmt *all[] = { rs->counter, rs->rate, rs->gaps, rs->ctxsw, rs->cpu, rs->sync, rs->pair, rs->cont,
				rs->other };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		sqlite3_finalize(all[i]);
}
