/* SPDX-License-Identifier: BSD-2-Clause */
/* Opening the fleet store, its schema, and transactions that survive other
 * importers working on the same file (db_store.h, docs/db.md). */
#include "tools/lib/db_store.h"
#include "tools/lib/private_dir.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tools/lib/exit_codes.h"

/* Another importer's transaction holds the write lock for one batch: at
 * 10,000 logs in 10 s, a batch of 500 takes about half a second.  A minute
 * of SQLite's own waiting covers many of those; the retries after it are for
 * a lock that SQLite reports busy without waiting (a WAL recovery). */
#define BUSY_TIMEOUT_MS 60000
#define BEGIN_RETRIES 20

static const char schema_sql[] =
	"CREATE TABLE machines("
	" id INTEGER PRIMARY KEY,"
	" key TEXT NOT NULL UNIQUE,"
	" name TEXT,"
	" cpu_vendor TEXT, cpu_brand TEXT, family INTEGER, model INTEGER, stepping INTEGER,"
	" microcode INTEGER, hypervisor TEXT, cores INTEGER, memory_mib INTEGER,"
	" firmware TEXT);"
	"CREATE TABLE runs("
	" id INTEGER PRIMARY KEY,"
	" content_key TEXT NOT NULL UNIQUE,"
	" machine_id INTEGER NOT NULL REFERENCES machines(id),"
	" source TEXT NOT NULL,"
	" kind TEXT NOT NULL,"
	" boot TEXT, version TEXT, log_schema INTEGER, preset TEXT,"
	" status TEXT, complete INTEGER NOT NULL,"
	" records INTEGER NOT NULL, damaged_records INTEGER NOT NULL,"
	" tsc_hz REAL, clocksource TEXT, imported_at TEXT NOT NULL,"
	" log BLOB, log_bytes INTEGER);"
	"CREATE INDEX runs_machine ON runs(machine_id);"
	"CREATE TABLE counters("
	" run_id INTEGER NOT NULL REFERENCES runs(id),"
	" name TEXT NOT NULL, clocksource TEXT, call TEXT,"
	" present INTEGER, healthy INTEGER, reason TEXT, samples INTEGER,"
	" p50_ns REAL, min_ns REAL, mean_ns REAL, sd_ns REAL, p99_ns REAL, p999_ns REAL, max_ns REAL,"
	" p50_cycles REAL, min_cycles REAL, reads_per_s REAL, freq_ppm REAL,"
	" rounds_p50 TEXT, rounds_mean TEXT, hist TEXT,"
	" PRIMARY KEY(run_id, name));"
	"CREATE INDEX counters_name ON counters(name);"
	"CREATE TABLE os_rates("
	" run_id INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL, clocksource TEXT,"
	" call TEXT, calls INTEGER, median_calls_per_s REAL, runs TEXT, PRIMARY KEY(run_id, name));"
	"CREATE TABLE os_gaps("
	" run_id INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL, clocksource TEXT,"
	" call TEXT, samples INTEGER, p50_ns REAL, backwards INTEGER, modes TEXT, hist TEXT,"
	" PRIMARY KEY(run_id, name));"
	"CREATE TABLE os_ctxsw("
	" run_id INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL, clocksource TEXT,"
	" median_switches_per_s REAL, runs TEXT, PRIMARY KEY(run_id, name));"
	"CREATE TABLE cpus("
	" run_id INTEGER NOT NULL REFERENCES runs(id), idx INTEGER NOT NULL, apic_id INTEGER,"
	" package INTEGER, core INTEGER, thread INTEGER, core_type TEXT, state TEXT,"
	" cpu INTEGER, startup_us REAL, sipis INTEGER,"
	" PRIMARY KEY(run_id, idx));"
	"CREATE TABLE tsc_sync("
	" run_id INTEGER PRIMARY KEY REFERENCES runs(id), synchronized INTEGER, warps INTEGER,"
	" max_warp_cycles INTEGER);"
	"CREATE TABLE tsc_sync_pairs("
	" run_id INTEGER NOT NULL REFERENCES runs(id), cpu INTEGER NOT NULL, ref INTEGER NOT NULL,"
	" offset_cycles REAL, uncertainty_cycles REAL, PRIMARY KEY(run_id, cpu, ref));"
	"CREATE TABLE contention("
	" run_id INTEGER NOT NULL REFERENCES runs(id), counter TEXT NOT NULL, readers INTEGER NOT NULL,"
	" p50_ns REAL, p99_ns REAL, reads_per_s REAL, backwards INTEGER,"
	" PRIMARY KEY(run_id, counter, readers));"
	"CREATE TABLE other_records("
	" run_id INTEGER NOT NULL REFERENCES runs(id), seq INTEGER NOT NULL, type TEXT NOT NULL,"
	" json TEXT NOT NULL, PRIMARY KEY(run_id, seq));";

static int fail(char *why, size_t cap, const char *fmt, const char *a, const char *b)
{
	snprintf(why, cap, fmt, a, b);
	return EXIT_UNREADABLE;
}

static int user_version(sqlite3 *db, int *v)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*v = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* The version and whether any table exists, from one snapshot: another
 * importer creates the tables and sets the version in one transaction, and
 * two unlocked reads could fall either side of it (no version, but tables). */
static int read_header(sqlite3 *db, int *v, bool *tables)
{
	sqlite3_stmt *st;
	int rc = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return rc;
	if ((rc = user_version(db, v)) == SQLITE_OK &&
	    (rc = sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master LIMIT 1", -1, &st, NULL)) == SQLITE_OK) {
		int step = sqlite3_step(st);
		*tables = step == SQLITE_ROW;
		rc = step == SQLITE_ROW || step == SQLITE_DONE ? SQLITE_OK : step;
		sqlite3_finalize(st);
	}
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	return rc;
}

/* From each older version to the next: what schema_sql now creates. */
static const char *const upgrade_sql[STORE_SCHEMA] = {
	[1] = "ALTER TABLE cpus ADD COLUMN cpu INTEGER;"
	      "ALTER TABLE cpus ADD COLUMN startup_us REAL;"
	      "ALTER TABLE cpus ADD COLUMN sipis INTEGER;",
};

/* Creates the tables, or brings an older store's up to STORE_SCHEMA, once,
 * under the write lock, so that two importers starting on the same file do
 * not both try: the second finds the version already raised. */
static int create_schema(struct store *s, char *why, size_t cap)
{
	char sql[64];
	int v = 0, rc;
	if (!store_begin(s, why, cap))
		return EXIT_UNREADABLE;
	if (user_version(s->db, &v) != SQLITE_OK) {
		store_rollback(s);
		return fail(why, cap, "%s: %s", s->path, sqlite3_errmsg(s->db));
	}
	if (v < STORE_SCHEMA) {
		rc = sqlite3_exec(s->db, v == 0 ? schema_sql : "", NULL, NULL, NULL);
		for (int k = v ? v : STORE_SCHEMA; k < STORE_SCHEMA && rc == SQLITE_OK; k++)
			rc = sqlite3_exec(s->db, upgrade_sql[k], NULL, NULL, NULL);
		snprintf(sql, sizeof sql, "PRAGMA user_version=%d", STORE_SCHEMA);
		if (rc != SQLITE_OK || sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
			snprintf(why, cap, "%s: cannot %s the tables: %s", s->path, v ? "upgrade" : "create",
				 sqlite3_errmsg(s->db));
			store_rollback(s);
			return EXIT_UNREADABLE;
		}
	}
	return store_commit(s, why, cap) ? EXIT_CLEAN : EXIT_UNREADABLE;
}

static int open_with(struct store *s, const char *path, bool create, int extra, char *why, size_t cap)
{
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | extra, v = 0, rc;
	bool tables = false;

	memset(s, 0, sizeof *s);
	s->path = path;
	s->nofollow = (extra & SQLITE_OPEN_NOFOLLOW) != 0;
	if (!create && access(path, F_OK) != 0)
		return fail(why, cap, "%s: %s", path, strerror(errno));
	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
		snprintf(why, cap, "%s: %s", path, s->db ? sqlite3_errmsg(s->db) : "cannot open");
		store_close(s);
		return EXIT_UNREADABLE;
	}
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	/* Not a database at all shows here, at the first read of the header. */
	if ((rc = read_header(s->db, &v, &tables)) != SQLITE_OK) {
		snprintf(why, cap, "%s: not a tickprobe store: %s", path, sqlite3_errstr(rc));
		store_close(s);
		return EXIT_UNREADABLE;
	}
	if (v > STORE_SCHEMA) {
		snprintf(why, cap, "%s: store schema version %d is newer than this tickprobe's (%d): "
			 "use a newer tickprobe", path, v, STORE_SCHEMA);
		store_close(s);
		return EXIT_UNREADABLE;
	}
	if (v == 0) {
		/* A database that has tables but no version is someone else's. */
		if (tables) {
			snprintf(why, cap, "%s: a database, but not a tickprobe store (no schema version)", path);
			store_close(s);
			return EXIT_UNREADABLE;
		}
		if (!create) {
			snprintf(why, cap, "%s: an empty database: nothing imported yet", path);
			store_close(s);
			return EXIT_UNREADABLE;
		}
		/* WAL: readers (summary, report) never block an importer. */
		sqlite3_exec(s->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
	}
	/* A new store gets its tables; an older one, opened to import into,
	 * its new columns.  Readers take an older store as it is: what they
	 * query is in every version. */
	if ((v == 0 || (v < STORE_SCHEMA && create)) && (rc = create_schema(s, why, cap)) != EXIT_CLEAN) {
		store_close(s);
		return rc;
	}
	sqlite3_exec(s->db, "PRAGMA foreign_keys=ON", NULL, NULL, NULL);
	/* In WAL mode NORMAL loses at most the last transactions on a power
	 * cut, never the store's consistency; FULL costs an fsync per batch. */
	sqlite3_exec(s->db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
	return EXIT_CLEAN;
}

int store_open(struct store *s, const char *path, bool create, char *why, size_t cap)
{
	return open_with(s, path, create, 0, why, cap);
}

int store_open_private(struct store *s, const char *path, char *why, size_t cap)
{
	char what[600];

	snprintf(what, sizeof what, "the directory of --db %s", path);
	memset(s, 0, sizeof *s);
	/* SQLite's store in memory has no directory to hold to the rule. */
	if (strcmp(path, ":memory:") && !private_dir_of(path, what, why, cap))
		return EXIT_UNREADABLE;
	return open_with(s, path, true, SQLITE_OPEN_NOFOLLOW, why, cap);
}

void store_close(struct store *s)
{
	if (s->db)
		sqlite3_close_v2(s->db);
	s->db = NULL;
}

static bool exec_retry(struct store *s, const char *sql, char *why, size_t cap)
{
	for (int i = 0; i < BEGIN_RETRIES; i++) {
		int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			return true;
		if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
			break;
		/* 50 ms, 100 ms, … capped at 1 s: bounded, about 15 s in all. */
		struct timespec t = { 0, 0 };
		long ms = 50L << (i < 4 ? i : 4);
		t.tv_sec = ms / 1000;
		t.tv_nsec = (ms % 1000) * 1000000L;
		nanosleep(&t, NULL);
	}
	snprintf(why, cap, "%s: %s: %s", s->path, sql, sqlite3_errmsg(s->db));
	return false;
}

bool store_begin(struct store *s, char *why, size_t cap) { return exec_retry(s, "BEGIN IMMEDIATE", why, cap); }
bool store_commit(struct store *s, char *why, size_t cap) { return exec_retry(s, "COMMIT", why, cap); }
void store_rollback(struct store *s) { sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL); }

sqlite3_stmt *store_prepare(struct store *s, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "tickprobe db: %s: %s\n  in: %s\n", s->path, sqlite3_errmsg(s->db), sql);
		exit(EXIT_UNREADABLE);
	}
	return st;
}
