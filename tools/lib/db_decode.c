/* SPDX-License-Identifier: BSD-2-Clause */
/* The record tables of the fleet store: each record type that people query
 * decoded into its own table (docs/db.md), the rest kept whole. */
#include "tools/lib/db_decode.h"
#include <stdlib.h>
#include <string.h>
#include "tools/lib/hist_decode.h"
#include "tools/lib/logschema.h"
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
static char *hist_pairs_text(const struct lr_node *hist)
{
	struct hist_dec d;
	struct text t = { 0 };
	uint64_t v, n;
	int rc;

	if (hist_dec_init(&d, hist) < 0)
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
static char *rounds_text(const struct lr_node *rounds, const char *metric)
{
	const struct lr_node *v;
	struct lr_rounds it;
	struct text t = { 0 };
	char b[64];

	if (!lr_rounds_count(rounds, metric))
		return NULL;
	text_putc(&t, '[');
	lr_rounds_init(&it, rounds, metric);
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

static bool put_timer(struct record_statements *rs, sqlite3_int64 run, const struct lr_node *n, char *why, size_t cap)
{
	sqlite3_stmt *st = rs->counter;
	struct ld_timer t;

	ld_decode_timer(n, &t);
	const struct lr_node *ns[] = { t.cost_ns.p50.node, t.cost_ns.min.node,  t.cost_ns.mean.node, t.cost_ns.sd.node,
				       t.cost_ns.p99.node, t.cost_ns.p999.node, t.cost_ns.max.node };
	if (t.name.state != LD_SET)
		return true;
	sqlite3_bind_int64(st, 1, run);
	db_bind_str(st, 2, t.name.s);
	db_bind_str(st, 3, ld_str_or(t.clocksource, NULL));
	db_bind_str(st, 4, ld_str_or(t.call, NULL));
	db_bind_bool(st, 5, t.present.node);
	db_bind_bool(st, 6, t.healthy.node);
	db_bind_str(st, 7, ld_str_or(t.reason, NULL));
	db_bind_num(st, 8, t.samples.node);
	for (int i = 0; i < 7; i++)
		db_bind_num(st, 9 + i, ns[i]);
	db_bind_num(st, 16, t.cost_cycles.p50.node);
	db_bind_num(st, 17, t.cost_cycles.min.node);
	db_bind_num(st, 18, t.throughput.reads_per_s.node);
	db_bind_num(st, 19, t.freq.ppm.node);
	db_bind_owned(st, 20, rounds_text(t.rounds.node, "p50"));
	db_bind_owned(st, 21, rounds_text(t.rounds.node, "mean"));
	db_bind_owned(st, 22, hist_pairs_text(t.hist.node));
	return db_step(rs->s, st, why, cap);
}

/* Schema 2: a counter absent by design has no timer record unless counters=
 * named it, only its reason in plan.absent: a counters row each, absent,
 * as its timer record would have given (the plan itself is kept whole too). */
static bool put_absent(struct record_statements *rs, sqlite3_int64 run, const struct lr_node *plan, char *why,
		       size_t cap)
{
	struct ld_plan p;

	ld_decode_plan(plan, &p);
	for (size_t i = 0; p.absent.state == LD_SET && i < p.absent.n; i++) {
		sqlite3_bind_int64(rs->counter, 1, run);
		db_bind_str(rs->counter, 2, ld_plan_absent_name(&p, i));
		sqlite3_bind_int(rs->counter, 5, 0);
		sqlite3_bind_int(rs->counter, 6, 0);
		db_bind_str(rs->counter, 7, ld_str_or(ld_plan_absent_at(&p, i), NULL));
		sqlite3_bind_int(rs->counter, 8, 0);
		if (!db_step(rs->s, rs->counter, why, cap))
			return false;
	}
	return true;
}

/* The OS runs' records: their statement bound; false when the record has no name. */
static bool bind_os(struct record_statements *rs, sqlite3_int64 run, const char *type, const struct lr_node *n,
		    sqlite3_stmt **st)
{
	struct ld_rate r;
	struct ld_gaps g;
	struct ld_ctxsw c;

	if (!strcmp(type, "rate")) {
		ld_decode_rate(n, &r);
		*st = rs->rate;
		sqlite3_bind_int64(*st, 1, run);
		db_bind_str(*st, 2, ld_str_or(r.name, NULL));
		db_bind_str(*st, 3, ld_str_or(r.clocksource, NULL));
		db_bind_str(*st, 4, ld_str_or(r.call, NULL));
		db_bind_num(*st, 5, r.calls.node);
		db_bind_num(*st, 6, r.calls_per_s.median.node);
		db_bind_owned(*st, 7, json_text(r.runs.node));
		return r.name.state == LD_SET;
	}
	if (!strcmp(type, "gaps")) {
		ld_decode_gaps(n, &g);
		*st = rs->gaps;
		sqlite3_bind_int64(*st, 1, run);
		db_bind_str(*st, 2, ld_str_or(g.name, NULL));
		db_bind_str(*st, 3, ld_str_or(g.clocksource, NULL));
		db_bind_str(*st, 4, ld_str_or(g.call, NULL));
		db_bind_num(*st, 5, g.samples.node);
		db_bind_num(*st, 6, g.gap_ns.p50.node);
		db_bind_num(*st, 7, g.backwards.node);
		db_bind_owned(*st, 8, json_text(g.modes.node));
		db_bind_owned(*st, 9, hist_pairs_text(g.hist.node));
		return g.name.state == LD_SET;
	}
	ld_decode_ctxsw(n, &c);
	*st = rs->ctxsw;
	sqlite3_bind_int64(*st, 1, run);
	db_bind_str(*st, 2, ld_str_or(c.name, NULL));
	db_bind_str(*st, 3, ld_str_or(c.clocksource, NULL));
	db_bind_num(*st, 4, c.switches_per_s.median.node);
	db_bind_owned(*st, 5, json_text(c.runs.node));
	return c.name.state == LD_SET;
}

static bool put_os(struct record_statements *rs, sqlite3_int64 run, const char *type, const struct lr_node *n,
		   char *why, size_t cap)
{
	sqlite3_stmt *st;

	if (!bind_os(rs, run, type, n, &st)) {
		sqlite3_clear_bindings(st);
		return true;
	}
	return db_step(rs->s, st, why, cap);
}

static bool put_cpus(struct record_statements *rs, sqlite3_int64 run, const struct lr_node *n, char *why, size_t cap)
{
	struct ld_cpus cpus;
	size_t rows;

	ld_decode_cpus(n, &cpus);
	rows = cpus.list.state == LD_SET && cpus.list.node->kind == LR_ARR ? cpus.list.n : 0;
	for (size_t idx = 0; idx < rows; idx++) {
		sqlite3_stmt *st = rs->cpu;
		struct ld_cpu_entry c;
		ld_cpus_list_at(&cpus, idx, &c);
		sqlite3_bind_int64(st, 1, run);
		sqlite3_bind_int(st, 2, (int)idx);
		db_bind_num(st, 3, c.apic_id.node);
		db_bind_num(st, 4, c.package.node);
		db_bind_num(st, 5, c.core.node);
		db_bind_num(st, 6, c.thread.node);
		db_bind_str(st, 7, ld_str_or(c.core_type, NULL));
		db_bind_str(st, 8, ld_str_or(c.state, NULL));
		db_bind_num(st, 9, c.cpu.node);
		db_bind_num(st, 10, c.startup_us.node);
		db_bind_num(st, 11, c.sipis.node);
		if (!db_step(rs->s, st, why, cap))
			return false;
	}
	return true;
}

/* The pairs of a tsc_sync record, or of a tsc_sync_pairs record: the
 * probe writes the first 512 pairs in the one and the rest, 512 a record, in
 * the others (a matrix of 33 CPUs has 528), and all go in one table. */
static bool put_pairs(struct record_statements *rs, sqlite3_int64 run, const struct ld_list *pairs, char *why,
		      size_t cap)
{
	size_t rows = pairs->state == LD_SET && pairs->node->kind == LR_ARR ? pairs->n : 0;

	for (size_t i = 0; i < rows; i++) {
		struct ld_tsc_pair p;
		double ref = 0;
		ld_row(pairs, i, &ld_shape_tsc_pair, &p);
		sqlite3_bind_int64(rs->pair, 1, run);
		db_bind_num(rs->pair, 2, p.cpu.node);
		if (!lr_num(p.ref.node, &ref))
			ref = 0; /* against the boot CPU unless the pair names another */
		sqlite3_bind_int64(rs->pair, 3, (sqlite3_int64)ref);
		db_bind_num(rs->pair, 4, p.offset_cycles.node);
		db_bind_num(rs->pair, 5, p.uncertainty_cycles.node);
		if (!db_step(rs->s, rs->pair, why, cap))
			return false;
	}
	return true;
}

static bool put_sync(struct record_statements *rs, sqlite3_int64 run, const struct lr_node *n, char *why, size_t cap)
{
	struct ld_tsc_sync sync;

	ld_decode_tsc_sync(n, &sync);
	sqlite3_bind_int64(rs->sync, 1, run);
	db_bind_bool(rs->sync, 2, sync.synchronized.node);
	db_bind_num(rs->sync, 3, sync.warps.node);
	db_bind_num(rs->sync, 4, sync.max_warp_cycles.node);
	if (!db_step(rs->s, rs->sync, why, cap))
		return false;
	return put_pairs(rs, run, &sync.pairs, why, cap);
}

static bool put_contention(struct record_statements *rs, sqlite3_int64 run, const struct lr_node *n, char *why, size_t cap)
{
	struct ld_contention c;

	ld_decode_contention(n, &c);
	for (size_t i = 0; c.readers.state == LD_SET && i < c.readers.n; i++) {
		sqlite3_stmt *st = rs->cont;
		struct ld_contention_level r;
		ld_contention_readers_at(&c, i, &r);
		sqlite3_bind_int64(st, 1, run);
		db_bind_str(st, 2, ld_str_or(c.counter, NULL));
		db_bind_num(st, 3, r.n.node);
		db_bind_num(st, 4, r.p50_ns.node);
		db_bind_num(st, 5, r.p99_ns.node);
		db_bind_num(st, 6, r.reads_per_s.node);
		/* The level's own count: the record's is the sum over its levels,
		 * and repeated on every row it would be counted once a level. */
		db_bind_num(st, 7, r.backwards.node);
		/* A row per reader count (the table's key), so the spread level
		 * of 2 and not the siblings' second level of 2: that one stays
		 * in the run's stored log text, as do each level's cpus and
		 * overlap, which the table has no column for. */
		if (c.counter.state != LD_SET || !r.n.node || ld_true(r.siblings)) {
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
	if (!strcmp(type, "tsc_sync_pairs")) {
		struct ld_tsc_sync_pairs more;
		ld_decode_tsc_sync_pairs(rec->root, &more);
		return put_pairs(rs, run, &more.pairs, why, cap);
	}
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
