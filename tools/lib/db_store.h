/* SPDX-License-Identifier: BSD-2-Clause */
/* The fleet store: many machines' logs in one SQLite database (docs/db.md).
 *
 * The database is the product here: users query it with the sqlite3 shell,
 * pandas or Datasette, so its tables are plain and documented, and its
 * schema carries a version (PRAGMA user_version) that a newer tickprobe may
 * raise but an older one refuses to touch. */
#ifndef TOOLS_LIB_DB_STORE_H
#define TOOLS_LIB_DB_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <sqlite3.h>

/* 2: cpus gained cpu, startup_us and sipis (a version-1 store is brought up
 * to 2 when it is next imported into; its old rows have them null). */
#define STORE_SCHEMA 2

struct store {
	sqlite3 *db;
	const char *path;
	bool nofollow; /* opened by store_open_private: every connection to it refuses a link */
};

/* Opens DB (creating it and its tables when create is true and it is new).
 * Returns EXIT_CLEAN, or EXIT_UNREADABLE with the reason in why: not a
 * database, a schema newer than STORE_SCHEMA, no such file (create false). */
int store_open(struct store *s, const char *path, bool create, char *why, size_t cap);
/* The same for a program that may run as root (the collector): created
 * when new, refused when its directory is writable by another user or not
 * this user's, and never opened through a symbolic link (":memory:", which
 * has no directory, is SQLite's store in memory). */
int store_open_private(struct store *s, const char *path, char *why, size_t cap);
void store_close(struct store *s);

/* BEGIN IMMEDIATE / COMMIT, waiting while another process holds the write
 * lock: SQLite's busy handler first, then bounded retries.  false: gave up,
 * with the reason in why. */
bool store_begin(struct store *s, char *why, size_t cap);
bool store_commit(struct store *s, char *why, size_t cap);
void store_rollback(struct store *s);

/* A prepared statement, or exit with SQLite's message: a statement of ours
 * that does not compile is a bug, not an input problem. */
sqlite3_stmt *store_prepare(struct store *s, const char *sql);

#endif
