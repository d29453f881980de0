/* SPDX-License-Identifier: BSD-2-Clause */
/* Logs into the fleet store: every good record of every run, the typed
 * tables for what people query (machines, counters, the OS calls, the CPUs,
 * TSC sync, contention) and the rest kept whole in other_records, so nothing
 * a log said is lost.  The reader's rules decide what is good: a damaged
 * record never reaches the store, and is counted on its run. */
#include "tools/db/import.h"
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "probe/crc32.h"
#include "tools/commands.h"
#include "tools/db/text.h"

struct importer {
	struct store *s;
	struct import_options o;
	unsigned pending;   /* runs in the open transaction */
	bool open;
	char now[32];
	sqlite3_stmt *machine_ins, *machine_id, *machine_fw, *run_ins, *counter_ins, *rate_ins, *gaps_ins,
		*ctxsw_ins, *cpu_ins, *sync_ins, *pair_ins, *cont_ins, *other_ins;
};

struct importer *importer_new(struct store *s, const struct import_options *o)
{
	struct importer *im = calloc(1, sizeof *im);
	time_t t = time(NULL);
	struct tm tm;

	if (!im)
		return NULL;
	im->s = s;
	im->o = *o;
	if (!im->o.batch)
		im->o.batch = 500;
	gmtime_r(&t, &tm);
	strftime(im->now, sizeof im->now, "%Y-%m-%dT%H:%M:%SZ", &tm);
	im->machine_ins = store_prepare(s, "INSERT OR IGNORE INTO machines(key,name,cpu_vendor,cpu_brand,"
		"family,model,stepping,microcode,hypervisor,cores,memory_mib,firmware) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)");
	im->machine_id = store_prepare(s, "SELECT id FROM machines WHERE key=?");
	im->machine_fw = store_prepare(s, "UPDATE machines SET firmware=? WHERE id=? AND firmware IS NULL");
	im->run_ins = store_prepare(s, "INSERT OR IGNORE INTO runs(content_key,machine_id,source,kind,boot,"
		"version,log_schema,preset,status,complete,records,damaged_records,tsc_hz,clocksource,imported_at)"
		" VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	im->counter_ins = store_prepare(s, "INSERT OR REPLACE INTO counters(run_id,name,clocksource,call,present,"
		"healthy,reason,samples,p50_ns,min_ns,mean_ns,sd_ns,p99_ns,p999_ns,max_ns,p50_cycles,min_cycles,"
		"reads_per_s,freq_ppm,rounds_p50,rounds_mean,hist) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	im->rate_ins = store_prepare(s, "INSERT OR REPLACE INTO os_rates(run_id,name,clocksource,call,calls,"
		"median_calls_per_s,runs) VALUES(?,?,?,?,?,?,?)");
	im->gaps_ins = store_prepare(s, "INSERT OR REPLACE INTO os_gaps(run_id,name,clocksource,call,samples,"
		"p50_ns,backwards,modes,hist) VALUES(?,?,?,?,?,?,?,?,?)");
	im->ctxsw_ins = store_prepare(s, "INSERT OR REPLACE INTO os_ctxsw(run_id,name,clocksource,"
		"median_switches_per_s,runs) VALUES(?,?,?,?,?)");
	im->cpu_ins = store_prepare(s, "INSERT OR REPLACE INTO cpus(run_id,idx,apic_id,package,core,thread,"
		"core_type,state) VALUES(?,?,?,?,?,?,?,?)");
	im->sync_ins = store_prepare(s, "INSERT OR REPLACE INTO tsc_sync(run_id,synchronized,warps,"
		"max_warp_cycles) VALUES(?,?,?,?)");
	im->pair_ins = store_prepare(s, "INSERT OR REPLACE INTO tsc_sync_pairs(run_id,cpu,ref,offset_cycles,"
		"uncertainty_cycles) VALUES(?,?,?,?,?)");
	im->cont_ins = store_prepare(s, "INSERT OR REPLACE INTO contention(run_id,counter,readers,p50_ns,p99_ns,"
		"reads_per_s,backwards) VALUES(?,?,?,?,?,?,?)");
	im->other_ins = store_prepare(s, "INSERT OR REPLACE INTO other_records(run_id,seq,type,json) VALUES(?,?,?,?)");
	return im;
}

void importer_free(struct importer *im)
{
	sqlite3_stmt *all[] = { im->machine_ins, im->machine_id, im->machine_fw, im->run_ins, im->counter_ins,
				im->rate_ins, im->gaps_ins, im->ctxsw_ins, im->cpu_ins, im->sync_ins, im->pair_ins,
				im->cont_ins, im->other_ins };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		sqlite3_finalize(all[i]);
	free(im);
}

/* ---- binding values straight from the parsed records --------------------- */

static void bind_str(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_num(sqlite3_stmt *st, int i, const struct lr_node *n)
{
	double v;
	if (n && n->kind == LR_NUM && n->is_int && !n->neg)
		sqlite3_bind_int64(st, i, (sqlite3_int64)n->u);
	else if (lr_num(n, &v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static void bind_bool(sqlite3_stmt *st, int i, const struct lr_node *n)
{
	if (n && n->kind == LR_BOOL)
		sqlite3_bind_int(st, i, n->b);
	else
		sqlite3_bind_null(st, i);
}

static void bind_owned(sqlite3_stmt *st, int i, char *text)
{
	if (text)
		sqlite3_bind_text(st, i, text, -1, free);
	else
		sqlite3_bind_null(st, i);
}

static bool step(struct importer *im, sqlite3_stmt *st, char *why, size_t cap)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return true;
	snprintf(why, cap, "%s: %s", im->s->path, sqlite3_errmsg(im->s->db));
	return false;
}

/* ---- identities ------------------------------------------------------------ */

char *machine_key(const struct lrun *r, const char *name)
{
	static const char *const fields[] = { "cpu_vendor", "cpu_brand", "family", "model", "stepping",
					      "microcode", "hypervisor", "cores" };
	const struct lr_node *m = lrun_first(r, "machine");
	struct text t = { 0 };
	char b[64];
	uint32_t crc;

	if (name) {
		text_printf(&t, "name:%s", name);
		return t.s;
	}
	if (!m)
		return NULL;
	/* The CPU as CPUID tells it, the same in the image and under Linux on
	 * one machine; not the memory size, which the two paths count apart. */
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		const struct lr_node *n = lr_get(m, fields[i]);
		text_printf(&t, "%s=%s;", fields[i], n && n->kind == LR_STR ? n->str : fmt_num(b, sizeof b, n, -1));
	}
	crc = crc32_update(0, t.s, t.len);
	/* Two CRCs over the text and its reverse: 64 bits against collisions
	 * among a fleet's thousands of CPU identities. */
	for (size_t i = 0; i < t.len / 2; i++) {
		char c = t.s[i];
		t.s[i] = t.s[t.len - 1 - i];
		t.s[t.len - 1 - i] = c;
	}
	snprintf(b, sizeof b, "cpu:%08x%08x", crc, crc32_update(0, t.s, t.len));
	free(t.s);
	return strdup(b);
}

/* A complete run is known by its end record, which CRCs every record before
 * it; a run cut short, by a CRC over the good records it has. */
static char *content_key(const struct lrun *r, const char *mkey)
{
	const struct lr_node *end = lrun_first(r, "end");
	struct text t = { 0 };
	uint32_t crc = 0;

	if (r->info.has_end && r->info.end_ok && end) {
		text_printf(&t, "end:%08x:%llu:%s", r->info.end_crc32, (unsigned long long)r->info.end_records, mkey);
		return t.s;
	}
	for (size_t i = 0; i < r->nrecs; i++)
		crc = crc32_update(crc, r->recs[i].text, r->recs[i].len);
	text_printf(&t, "part:%08x:%zu:%s", crc, r->nrecs, mkey);
	return t.s;
}

/* ---- record decoders --------------------------------------------------------- */

char *hist_pairs_text(const struct lr_node *rec)
{
	const struct lr_node *h = lr_get(rec, "hist"), *p;
	struct text t = { 0 };
	char a[32], b[32];

	if (!h || h->kind != LR_ARR)
		return NULL;
	text_putc(&t, '[');
	for (p = h->child; p; p = p->next) {
		if (p->kind != LR_ARR || p->len != 2)
			continue;
		text_printf(&t, "%s[%s,%s]", t.len > 1 ? "," : "", fmt_num(a, sizeof a, lr_at(p, 0), -1),
			    fmt_num(b, sizeof b, lr_at(p, 1), -1));
	}
	text_putc(&t, ']');
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

static char *rounds_text(const struct lr_node *timer, const char *metric)
{
	double *v;
	size_t n = timer_rounds(timer, metric, &v);
	struct text t = { 0 };
	if (!n)
		return NULL;
	text_putc(&t, '[');
	for (size_t i = 0; i < n; i++)
		text_printf(&t, "%s%.17g", i ? "," : "", v[i]);
	text_putc(&t, ']');
	free(v);
	return t.s;
}

static bool put_timer(struct importer *im, sqlite3_int64 run, const struct lr_node *t, char *why, size_t cap)
{
	sqlite3_stmt *st = im->counter_ins;
	static const char *const ns[] = { "p50", "min", "mean", "sd", "p99", "p999", "max" };
	char path[32];

	if (!lr_str(lr_get(t, "name")))
		return true;
	sqlite3_bind_int64(st, 1, run);
	bind_str(st, 2, lr_str(lr_get(t, "name")));
	bind_str(st, 3, lr_str(lr_get(t, "clocksource")));
	bind_str(st, 4, lr_str(lr_get(t, "call")));
	bind_bool(st, 5, lr_get(t, "present"));
	bind_bool(st, 6, lr_get(t, "healthy"));
	bind_str(st, 7, lr_str(lr_get(t, "reason")));
	bind_num(st, 8, lr_get(t, "samples"));
	for (int i = 0; i < 7; i++) {
		snprintf(path, sizeof path, "cost_ns.%s", ns[i]);
		bind_num(st, 9 + i, lr_path(t, path));
	}
	bind_num(st, 16, lr_path(t, "cost_cycles.p50"));
	bind_num(st, 17, lr_path(t, "cost_cycles.min"));
	bind_num(st, 18, lr_path(t, "throughput.reads_per_s"));
	bind_num(st, 19, lr_path(t, "freq.ppm"));
	bind_owned(st, 20, rounds_text(t, "p50"));
	bind_owned(st, 21, rounds_text(t, "mean"));
	bind_owned(st, 22, hist_pairs_text(t));
	return step(im, st, why, cap);
}

static bool put_os(struct importer *im, sqlite3_int64 run, const char *type, const struct lr_node *n,
		   char *why, size_t cap)
{
	sqlite3_stmt *st;
	if (!strcmp(type, "rate")) {
		st = im->rate_ins;
		sqlite3_bind_int64(st, 1, run);
		bind_str(st, 2, lr_str(lr_get(n, "name")));
		bind_str(st, 3, lr_str(lr_get(n, "clocksource")));
		bind_str(st, 4, lr_str(lr_get(n, "call")));
		bind_num(st, 5, lr_get(n, "calls"));
		bind_num(st, 6, lr_path(n, "calls_per_s.median"));
		bind_owned(st, 7, json_text(lr_get(n, "runs")));
	} else if (!strcmp(type, "gaps")) {
		st = im->gaps_ins;
		sqlite3_bind_int64(st, 1, run);
		bind_str(st, 2, lr_str(lr_get(n, "name")));
		bind_str(st, 3, lr_str(lr_get(n, "clocksource")));
		bind_str(st, 4, lr_str(lr_get(n, "call")));
		bind_num(st, 5, lr_get(n, "samples"));
		bind_num(st, 6, lr_path(n, "gap_ns.p50"));
		bind_num(st, 7, lr_get(n, "backwards"));
		bind_owned(st, 8, json_text(lr_get(n, "modes")));
		bind_owned(st, 9, hist_pairs_text(n));
	} else {
		st = im->ctxsw_ins;
		sqlite3_bind_int64(st, 1, run);
		bind_str(st, 2, lr_str(lr_get(n, "name")));
		bind_str(st, 3, lr_str(lr_get(n, "clocksource")));
		bind_num(st, 4, lr_path(n, "switches_per_s.median"));
		bind_owned(st, 5, json_text(lr_get(n, "runs")));
	}
	if (!lr_str(lr_get(n, "name"))) {
		sqlite3_clear_bindings(st);
		return true;
	}
	return step(im, st, why, cap);
}

static bool put_cpus(struct importer *im, sqlite3_int64 run, const struct lr_node *n, char *why, size_t cap)
{
	const struct lr_node *c = lr_get(n, "list");
	int idx = 0;
	for (c = c && c->kind == LR_ARR ? c->child : NULL; c; c = c->next, idx++) {
		sqlite3_stmt *st = im->cpu_ins;
		sqlite3_bind_int64(st, 1, run);
		sqlite3_bind_int(st, 2, idx);
		bind_num(st, 3, lr_get(c, "apic_id"));
		bind_num(st, 4, lr_get(c, "package"));
		bind_num(st, 5, lr_get(c, "core"));
		bind_num(st, 6, lr_get(c, "thread"));
		bind_str(st, 7, lr_str(lr_get(c, "core_type")));
		bind_str(st, 8, lr_str(lr_get(c, "state")));
		if (!step(im, st, why, cap))
			return false;
	}
	return true;
}

static bool put_sync(struct importer *im, sqlite3_int64 run, const struct lr_node *n, char *why, size_t cap)
{
	const struct lr_node *p;
	sqlite3_bind_int64(im->sync_ins, 1, run);
	bind_bool(im->sync_ins, 2, lr_get(n, "synchronized"));
	bind_num(im->sync_ins, 3, lr_get(n, "warps"));
	bind_num(im->sync_ins, 4, lr_get(n, "max_warp_cycles"));
	if (!step(im, im->sync_ins, why, cap))
		return false;
	p = lr_get(n, "pairs");
	for (p = p && p->kind == LR_ARR ? p->child : NULL; p; p = p->next) {
		double ref = 0;
		sqlite3_bind_int64(im->pair_ins, 1, run);
		bind_num(im->pair_ins, 2, lr_get(p, "cpu"));
		if (!lr_num(lr_get(p, "ref"), &ref))
			ref = 0; /* against the boot CPU unless the pair names another */
		sqlite3_bind_int64(im->pair_ins, 3, (sqlite3_int64)ref);
		bind_num(im->pair_ins, 4, lr_get(p, "offset_cycles"));
		bind_num(im->pair_ins, 5, lr_get(p, "uncertainty_cycles"));
		if (!step(im, im->pair_ins, why, cap))
			return false;
	}
	return true;
}

static bool put_contention(struct importer *im, sqlite3_int64 run, const struct lr_node *n, char *why, size_t cap)
{
	const struct lr_node *r = lr_get(n, "readers");
	for (r = r && r->kind == LR_ARR ? r->child : NULL; r; r = r->next) {
		sqlite3_stmt *st = im->cont_ins;
		sqlite3_bind_int64(st, 1, run);
		bind_str(st, 2, lr_str(lr_get(n, "counter")));
		bind_num(st, 3, lr_get(r, "n"));
		bind_num(st, 4, lr_get(r, "p50_ns"));
		bind_num(st, 5, lr_get(r, "p99_ns"));
		bind_num(st, 6, lr_get(r, "reads_per_s"));
		bind_num(st, 7, lr_get(n, "backwards"));
		if (!lr_str(lr_get(n, "counter")) || !lr_get(r, "n")) {
			sqlite3_clear_bindings(st);
			continue;
		}
		if (!step(im, st, why, cap))
			return false;
	}
	return true;
}

/* ---- one run ------------------------------------------------------------------- */

static bool put_machine(struct importer *im, const struct lrun *r, const char *key, const char *name,
			sqlite3_int64 *id, bool *is_new, char *why, size_t cap)
{
	const struct lr_node *m = lrun_first(r, "machine");
	const char *fw = lr_str(lr_path(lrun_first(r, "acpi"), "fadt.oem_id"));
	sqlite3_stmt *st = im->machine_ins;

	bind_str(st, 1, key);
	bind_str(st, 2, name);
	bind_str(st, 3, lr_str(lr_get(m, "cpu_vendor")));
	bind_str(st, 4, lr_str(lr_get(m, "cpu_brand")));
	bind_num(st, 5, lr_get(m, "family"));
	bind_num(st, 6, lr_get(m, "model"));
	bind_num(st, 7, lr_get(m, "stepping"));
	bind_num(st, 8, lr_get(m, "microcode"));
	bind_str(st, 9, lr_str(lr_get(m, "hypervisor")));
	bind_num(st, 10, lr_get(m, "cores"));
	bind_num(st, 11, lr_get(m, "memory_mib"));
	bind_str(st, 12, fw);
	if (!step(im, st, why, cap))
		return false;
	*is_new = sqlite3_changes(im->s->db) > 0;
	bind_str(im->machine_id, 1, key);
	if (sqlite3_step(im->machine_id) != SQLITE_ROW) {
		snprintf(why, cap, "%s: machine %s vanished: %s", im->s->path, key, sqlite3_errmsg(im->s->db));
		sqlite3_reset(im->machine_id);
		return false;
	}
	*id = sqlite3_column_int64(im->machine_id, 0);
	sqlite3_reset(im->machine_id);
	sqlite3_clear_bindings(im->machine_id);
	if (fw && !*is_new) { /* an OS run came first: the bare-metal run names the firmware */
		bind_str(im->machine_fw, 1, fw);
		sqlite3_bind_int64(im->machine_fw, 2, *id);
		return step(im, im->machine_fw, why, cap);
	}
	return true;
}

static bool typed(struct importer *im, sqlite3_int64 run, const struct lrec *rec, char *why, size_t cap, bool *done)
{
	const char *type = rec->type;
	*done = true;
	if (!strcmp(type, "timer"))
		return put_timer(im, run, rec->root, why, cap);
	if (!strcmp(type, "rate") || !strcmp(type, "gaps") || !strcmp(type, "ctxsw"))
		return put_os(im, run, type, rec->root, why, cap);
	if (!strcmp(type, "cpus"))
		return put_cpus(im, run, rec->root, why, cap);
	if (!strcmp(type, "tsc_sync"))
		return put_sync(im, run, rec->root, why, cap);
	if (!strcmp(type, "contention"))
		return put_contention(im, run, rec->root, why, cap);
	*done = false;
	return true;
}

static int import_run(struct importer *im, const struct lrun *r, const char *dir_name,
		      struct import_totals *tot, char *why, size_t cap)
{
	const char *name = im->o.machine ? im->o.machine : dir_name;
	const struct lr_node *begin = lrun_first(r, "begin"), *tsc = lrun_first(r, "tsc");
	char *mkey = machine_key(r, name), *ckey;
	sqlite3_int64 mid, run;
	bool new_machine, ok = true;
	const char *boot = lrun_boot(r);

	tot->runs_seen++;
	if (!mkey) {
		tot->skipped++;
		if (!im->o.quiet)
			fprintf(stderr, "tickprobe db: %s: no machine record, not imported (use --machine NAME)\n", r->name);
		return EXIT_DAMAGED;
	}
	ckey = content_key(r, mkey);
	if (!put_machine(im, r, mkey, name, &mid, &new_machine, why, cap)) {
		free(mkey), free(ckey);
		return EXIT_UNREADABLE;
	}
	sqlite3_stmt *st = im->run_ins;
	bind_str(st, 1, ckey);
	sqlite3_bind_int64(st, 2, mid);
	bind_str(st, 3, r->name);
	bind_str(st, 4, boot && !strcmp(boot, "linux") ? "os" : "bare");
	bind_str(st, 5, boot);
	bind_str(st, 6, lr_str(lr_get(begin, "version")));
	sqlite3_bind_int64(st, 7, (sqlite3_int64)r->info.schema);
	bind_str(st, 8, lr_str(lr_path(begin, "options.preset")));
	bind_str(st, 9, r->info.has_end ? r->info.status : NULL);
	sqlite3_bind_int(st, 10, !lrun_damaged(r) && r->info.has_begin && r->info.has_end && r->info.end_ok);
	sqlite3_bind_int64(st, 11, (sqlite3_int64)r->nrecs);
	sqlite3_bind_int64(st, 12, (sqlite3_int64)r->info.excluded);
	bind_num(st, 13, lr_get(tsc, "hz"));
	bind_str(st, 14, lr_str(lr_get(begin, "current_clocksource")));
	bind_str(st, 15, im->now);
	free(mkey), free(ckey);
	if (!step(im, st, why, cap))
		return EXIT_UNREADABLE;
	if (sqlite3_changes(im->s->db) == 0) {
		tot->duplicates++;
		return EXIT_CLEAN;
	}
	run = sqlite3_last_insert_rowid(im->s->db);
	tot->runs_new++;
	tot->machines_new += new_machine;
	tot->damaged_records += r->info.excluded;
	for (size_t i = 0; ok && i < r->nrecs; i++) {
		const struct lrec *rec = &r->recs[i];
		bool done;
		if (!rec->type || !rec->root)
			continue;
		ok = typed(im, run, rec, why, cap, &done);
		if (ok && !done) {
			sqlite3_bind_int64(im->other_ins, 1, run);
			sqlite3_bind_int64(im->other_ins, 2, (sqlite3_int64)rec->seq);
			bind_str(im->other_ins, 3, rec->type);
			sqlite3_bind_text(im->other_ins, 4, rec->text, (int)rec->len, SQLITE_STATIC);
			ok = step(im, im->other_ins, why, cap);
		}
	}
	if (!ok)
		return EXIT_UNREADABLE;
	return lrun_damaged(r) ? EXIT_DAMAGED : EXIT_CLEAN;
}

int importer_file(struct importer *im, const char *path, struct import_totals *tot, char *why, size_t cap)
{
	struct logfile f;
	int status = logfile_load(&f, path), rc;
	char *dir = NULL;

	tot->files++;
	if (!im->o.quiet)
		logfile_report(&f, stderr, "tickprobe db");
	if (status == EXIT_UNREADABLE) {
		logfile_free(&f);
		return EXIT_UNREADABLE;
	}
	if (im->o.machine_from_dir) {
		char *copy = strdup(path);
		dir = strdup(basename(dirname(copy)));
		free(copy);
	}
	for (size_t i = 0; i < f.nruns; i++) {
		if (!im->open) {
			if (!store_begin(im->s, why, cap)) {
				status = EXIT_UNREADABLE;
				break;
			}
			im->open = true;
		}
		rc = import_run(im, &f.runs[i], dir, tot, why, cap);
		status = exit_worse(status, rc);
		if (rc == EXIT_UNREADABLE) {
			store_rollback(im->s);
			im->open = false;
			break;
		}
		if (++im->pending >= im->o.batch && !importer_finish(im, why, cap)) {
			status = EXIT_UNREADABLE;
			break;
		}
	}
	free(dir);
	logfile_free(&f);
	return status;
}

bool importer_finish(struct importer *im, char *why, size_t cap)
{
	im->pending = 0;
	if (!im->open)
		return true;
	im->open = false;
	if (store_commit(im->s, why, cap))
		return true;
	store_rollback(im->s);
	return false;
}
