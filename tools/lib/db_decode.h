/* SPDX-License-Identifier: BSD-2-Clause */
/* Records into the fleet store's record tables (db_decode.c, docs/db.md). */
#ifndef TOOLS_LIB_DB_DECODE_H
#define TOOLS_LIB_DB_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include "tools/lib/db_store.h"
#include "tools/lib/logset.h"

struct record_statements {
	struct store *s;
	sqlite3_stmt *counter, *rate, *gaps, *ctxsw, *cpu, *sync, *pair, *cont, *other;
};

void record_statements_prepare(struct record_statements *rs, struct store *s);
void record_statements_finalize(struct record_statements *rs);
/* One good record of run `run`: into its table, or whole into other_records. */
bool record_put(struct record_statements *rs, sqlite3_int64 run, const struct lrec *rec, char *why, size_t cap);

/* Values from the parsed records bound as they were written: integers as
 * integers, other numbers as reals, anything else as NULL. */
void db_bind_str(sqlite3_stmt *st, int i, const char *s);
void db_bind_num(sqlite3_stmt *st, int i, const struct lr_node *n);
void db_bind_bool(sqlite3_stmt *st, int i, const struct lr_node *n);
void db_bind_owned(sqlite3_stmt *st, int i, char *text); /* frees text */
/* Steps and resets st; false with SQLite's message in why. */
bool db_step(struct store *s, sqlite3_stmt *st, char *why, size_t cap);

#endif
