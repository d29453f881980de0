/* SPDX-License-Identifier: BSD-2-Clause */
/* Logs into the fleet store: every good record of every run, the typed
 * tables for what people query (machines, counters, the OS calls, the CPUs,
 * TSC sync, contention) and the rest kept whole in other_records, so nothing
 * a log said is lost.  The reader's rules decide what is good: a damaged
 * record never reaches the store, and is counted on its run. */
#include "tools/lib/db_import.h"
#include "tools/lib/db_import_run.h"
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#include "lib/crc32.h"
#include "tools/lib/exit_codes.h"
#include "tools/lib/db_decode.h"
#include "tools/lib/logschema.h"
#include "tools/lib/textbuf.h"


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
	im->run_known = store_prepare(s, "SELECT 1 FROM runs WHERE content_key=?");
	im->run_ins = store_prepare(s, "INSERT OR IGNORE INTO runs(content_key,machine_id,source,kind,boot,"
		"version,log_schema,preset,status,complete,records,damaged_records,tsc_hz,clocksource,imported_at,log,"
		"log_bytes) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	record_statements_prepare(&im->records, s);
	if (s->path[0] && strcmp(s->path, ":memory:") &&
	    sqlite3_open_v2(s->path, &im->peek.db, SQLITE_OPEN_READONLY | (s->nofollow ? SQLITE_OPEN_NOFOLLOW : 0),
			    NULL) == SQLITE_OK)
		sqlite3_prepare_v2(im->peek.db, "SELECT 1 FROM runs WHERE content_key=?", -1, &im->peek.known, NULL);
	return im;
}

void importer_free(struct importer *im)
{
	sqlite3_stmt *all[] = { im->machine_ins, im->machine_id, im->machine_fw, im->run_ins, im->run_known };
	record_statements_finalize(&im->records);
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		sqlite3_finalize(all[i]);
	sqlite3_finalize(im->peek.known);
	sqlite3_close_v2(im->peek.db);
	free(im);
}

/* ---- identities ------------------------------------------------------------ */

char *machine_key(const struct lrun *r, const char *name)
{
	struct ld_machine m;
	struct text t = { 0 };
	char b[64];
	uint32_t crc;

	if (name) {
		text_printf(&t, "name:%s", name);
		return t.s;
	}
	if (!lrun_first(r, "machine"))
		return NULL;
	ld_decode_machine(lrun_first(r, "machine"), &m);
	/* The CPU as CPUID tells it, the same in the image and under Linux on
	 * one machine; not the memory size, which the two paths count apart. */
	const struct {
		const char *name;
		const struct lr_node *node;
	} fields[] = {
		{ "cpu_vendor", m.cpu_vendor.node }, { "cpu_brand", m.cpu_brand.node },
		{ "family", m.family.node },         { "model", m.model.node },
		{ "stepping", m.stepping.node },     { "microcode", m.microcode.node },
		{ "hypervisor", m.hypervisor.node }, { "cores", m.cores.node },
	};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		const struct lr_node *n = fields[i].node;
		text_printf(&t, "%s=%s;", fields[i].name,
			    n && n->kind == LR_STR ? n->str : fmt_num(b, sizeof b, n, -1));
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

uint32_t import_records_crc(const struct lrun *r)
{
	uint32_t crc = 0;

	for (size_t i = 0; i < r->nrecs; i++)
		crc = crc32_update(crc, r->recs[i].text, r->recs[i].len);
	return crc;
}

/* A complete run is known by its end record, which CRCs every record before
 * it; a run cut short, by a CRC over the good records it has (part_crc, of
 * r->seen records). */
static char *content_key(const struct lrun *r, const char *mkey, uint32_t part_crc)
{
	const struct lr_node *end = lrun_first(r, "end");
	struct text t = { 0 };

	if (r->info.has_end && r->info.end_ok && end) {
		text_printf(&t, "end:%08x:%llu:%s", r->info.end_crc32, (unsigned long long)r->info.end_records, mkey);
		return t.s;
	}
	text_printf(&t, "part:%08x:%llu:%s", part_crc, (unsigned long long)r->seen, mkey);
	return t.s;
}

static void deflate_run(const struct lrun *r, struct run_blob *b)
{
	size_t k = 0;
	char *text;

	b->n = 0;
	for (size_t j = 0; j < r->nrecs; j++)
		b->n += r->recs[j].len + 1;
	text = malloc(b->n ? b->n : 1);
	if (!text) {
		fprintf(stderr, "tickprobe: out of memory\n");
		exit(EXIT_UNREADABLE);
	}
	for (size_t j = 0; j < r->nrecs; j++) {
		memcpy(text + k, r->recs[j].text, r->recs[j].len);
		k += r->recs[j].len;
		text[k++] = '\n';
	}
	b->zlen = compressBound((uLong)b->n);
	b->z = malloc(b->zlen);
	/* Level 1: 2 to 3 times as fast as the default 6 on these logs, for a
	 * store a few per cent larger.  Without z (out of memory) the run is
	 * stored without its text. */
	if (b->z && compress2(b->z, &b->zlen, (const Bytef *)text, (uLong)b->n, 1) != Z_OK) {
		free(b->z);
		b->z = NULL;
	}
	free(text);
}

struct run_blobs {
	size_t n;
	struct run_blob run[]; /* one a run, in the file's order */
};

char *import_dir_name(const char *path)
{
	char *copy = strdup(path), *dir = copy ? strdup(basename(dirname(copy))) : NULL;
	free(copy);
	return dir;
}

/* In the store already, as far as the loading thread's connection sees:
 * false when it cannot tell. */
static bool stored_already(sqlite3_stmt *known, const struct lrun *r, const char *name)
{
	char *mkey = machine_key(r, name), *ckey = mkey ? content_key(r, mkey, import_records_crc(r)) : NULL;
	bool found = false;

	if (ckey) {
		sqlite3_bind_text(known, 1, ckey, -1, SQLITE_STATIC);
		found = sqlite3_step(known) == SQLITE_ROW;
		sqlite3_reset(known);
		sqlite3_clear_bindings(known);
	}
	free(mkey);
	free(ckey);
	return found;
}

static void *import_prepare(void *ctx, const struct logfile *f)
{
	struct importer *im = ctx;
	struct run_blobs *b = calloc(1, sizeof *b + (f->nruns ? f->nruns : 1) * sizeof b->run[0]);
	char *dir = NULL;

	if (!b || f->status == EXIT_UNREADABLE)
		return b;
	if (im && im->o.machine_from_dir)
		dir = import_dir_name(f->path);
	b->n = f->nruns;
	for (size_t i = 0; i < b->n; i++) {
		const struct lrun *r = &f->runs[i];
		if (im && im->peek.known && stored_already(im->peek.known, r, im->o.machine ? im->o.machine : dir))
			b->run[i].known = true;
		else
			deflate_run(r, &b->run[i]);
	}
	free(dir);
	return b;
}

static void import_release(void *made)
{
	struct run_blobs *b = made;
	for (size_t i = 0; b && i < b->n; i++)
		free(b->run[i].z); /* a run not imported: known already, or an error */
	free(b);
}

struct ahead_work importer_work(struct importer *im)
{
	return (struct ahead_work){ import_prepare, import_release, im };
}

/* Binds the run's deflated text, which the store then owns. */
static void bind_log(sqlite3_stmt *st, int i, struct run_blob *b)
{
	if (b && b->z) {
		sqlite3_bind_blob(st, i, b->z, (int)b->zlen, free);
		sqlite3_bind_int64(st, i + 1, (sqlite3_int64)b->n);
		b->z = NULL;
	} else {
		sqlite3_bind_null(st, i);
	}
}

/* ---- one run ------------------------------------------------------------------- */

static bool put_machine(struct importer *im, const struct lrun *r, const char *key, const char *name,
			sqlite3_int64 *id, bool *is_new, char *why, size_t cap)
{
	struct ld_machine m;
	struct ld_acpi acpi;
	sqlite3_stmt *st = im->machine_ins;

	ld_decode_machine(lrun_first(r, "machine"), &m);
	ld_decode_acpi(lrun_first(r, "acpi"), &acpi);
	const char *fw = ld_str_or(acpi.fadt.oem_id, NULL);
	db_bind_str(st, 1, key);
	db_bind_str(st, 2, name);
	db_bind_str(st, 3, ld_str_or(m.cpu_vendor, NULL));
	db_bind_str(st, 4, ld_str_or(m.cpu_brand, NULL));
	db_bind_num(st, 5, m.family.node);
	db_bind_num(st, 6, m.model.node);
	db_bind_num(st, 7, m.stepping.node);
	db_bind_num(st, 8, m.microcode.node);
	db_bind_str(st, 9, ld_str_or(m.hypervisor, NULL));
	db_bind_num(st, 10, m.cores.node);
	db_bind_num(st, 11, m.memory_mib.node);
	db_bind_str(st, 12, fw);
	if (!db_step(im->s, st, why, cap))
		return false;
	*is_new = sqlite3_changes(im->s->db) > 0;
	db_bind_str(im->machine_id, 1, key);
	if (sqlite3_step(im->machine_id) != SQLITE_ROW) {
		snprintf(why, cap, "%s: machine %s vanished: %s", im->s->path, key, sqlite3_errmsg(im->s->db));
		sqlite3_reset(im->machine_id);
		return false;
	}
	*id = sqlite3_column_int64(im->machine_id, 0);
	sqlite3_reset(im->machine_id);
	sqlite3_clear_bindings(im->machine_id);
	if (fw && !*is_new) { /* an OS run came first: the bare-metal run names the firmware */
		db_bind_str(im->machine_fw, 1, fw);
		sqlite3_bind_int64(im->machine_fw, 2, *id);
		return db_step(im->s, im->machine_fw, why, cap);
	}
	return true;
}

int import_run_row(struct importer *im, const struct lrun *r, const char *name, uint32_t part_crc,
		   struct run_blob *blob, sqlite3_int64 *run, struct import_totals *tot, char *why, size_t cap)
{
	struct ld_begin begin;
	struct ld_tsc tsc;
	char *mkey = machine_key(r, name), *ckey;
	sqlite3_int64 mid;
	bool new_machine, known;
	const char *boot = lrun_boot(r);
	sqlite3_stmt *st = im->run_ins;

	*run = 0;
	tot->runs_seen++;
	if (!mkey) {
		tot->skipped++;
		if (!im->o.quiet)
			fprintf(stderr, "tickprobe db: %s: no machine record, not imported (use --machine NAME)\n", r->name);
		return EXIT_DAMAGED;
	}
	ckey = content_key(r, mkey, part_crc);
	/* Known already: nothing to decode, deflate or write (a second import of
	 * 10,000 runs is then a read of the logs and one lookup each). */
	db_bind_str(im->run_known, 1, ckey);
	known = sqlite3_step(im->run_known) == SQLITE_ROW;
	sqlite3_reset(im->run_known);
	sqlite3_clear_bindings(im->run_known);
	if (known) {
		free(mkey);
		free(ckey);
		tot->duplicates++;
		return EXIT_CLEAN;
	}
	if (!put_machine(im, r, mkey, name, &mid, &new_machine, why, cap)) {
		free(mkey);
		free(ckey);
		return EXIT_UNREADABLE;
	}
	ld_decode_begin(lrun_first(r, "begin"), &begin);
	ld_decode_tsc(lrun_first(r, "tsc"), &tsc);
	db_bind_str(st, 1, ckey);
	sqlite3_bind_int64(st, 2, mid);
	db_bind_str(st, 3, r->name);
	db_bind_str(st, 4, boot && !strcmp(boot, "linux") ? "os" : "bare");
	db_bind_str(st, 5, boot);
	db_bind_str(st, 6, ld_str_or(begin.version, NULL));
	sqlite3_bind_int64(st, 7, (sqlite3_int64)r->info.schema);
	db_bind_str(st, 8, ld_str_or(begin.options.preset, NULL));
	db_bind_str(st, 9, r->info.has_end ? r->info.status : NULL);
	sqlite3_bind_int(st, 10, !lrun_damaged(r) && r->info.has_begin && r->info.has_end && r->info.end_ok);
	sqlite3_bind_int64(st, 11, (sqlite3_int64)r->seen);
	sqlite3_bind_int64(st, 12, (sqlite3_int64)r->info.excluded);
	db_bind_num(st, 13, tsc.hz.node);
	db_bind_str(st, 14, ld_str_or(begin.current_clocksource, NULL));
	db_bind_str(st, 15, im->now);
	bind_log(st, 16, blob);
	free(mkey);
	free(ckey);
	if (!db_step(im->s, st, why, cap))
		return EXIT_UNREADABLE;
	if (sqlite3_changes(im->s->db) == 0) {
		tot->duplicates++;
		return EXIT_CLEAN;
	}
	*run = sqlite3_last_insert_rowid(im->s->db);
	tot->runs_new++;
	tot->machines_new += new_machine;
	tot->damaged_records += r->info.excluded;
	return EXIT_CLEAN;
}

static int import_run(struct importer *im, const struct lrun *r, struct run_blob *blob, const char *dir_name,
		      struct import_totals *tot, char *why, size_t cap)
{
	sqlite3_int64 run;
	int rc;

	/* The loading thread saw it stored, and now it is not: rows deleted. */
	if (blob && blob->known) {
		deflate_run(r, blob);
		blob->known = false;
	}
	rc = import_run_row(im, r, im->o.machine ? im->o.machine : dir_name, import_records_crc(r), blob, &run, tot,
			    why, cap);
	if (rc != EXIT_CLEAN || !run)
		return rc;
	for (size_t i = 0; i < r->nrecs; i++)
		if (!record_put(&im->records, run, &r->recs[i], why, cap))
			return EXIT_UNREADABLE;
	return lrun_damaged(r) ? EXIT_DAMAGED : EXIT_CLEAN;
}

int importer_logfile(struct importer *im, const struct logfile *f, void *made, struct import_totals *tot, char *why,
		     size_t cap)
{
	struct run_blobs *blobs = made, *own = NULL;
	int status = f->status, rc;
	char *dir = NULL;

	tot->files++;
	if (!im->o.quiet)
		logfile_report(f, stderr, "tickprobe db");
	if (status == EXIT_UNREADABLE)
		return EXIT_UNREADABLE;
	if (!blobs)
		blobs = own = import_prepare(NULL, f);
	if (im->o.machine_from_dir)
		dir = import_dir_name(f->path);
	for (size_t i = 0; i < f->nruns; i++) {
		if (!import_open(im, why, cap)) {
			status = EXIT_UNREADABLE;
			break;
		}
		rc = import_run(im, &f->runs[i], blobs && i < blobs->n ? &blobs->run[i] : NULL, dir, tot, why, cap);
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
	import_release(own);
	return status;
}

bool import_open(struct importer *im, char *why, size_t cap)
{
	if (im->open)
		return true;
	im->open = store_begin(im->s, why, cap);
	return im->open;
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
