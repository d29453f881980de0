/* SPDX-License-Identifier: BSD-2-Clause */
/* The importer's parts shared by its two ways in (tools/lib/db_import.h): a
 * loaded log (db_import.c) and a log streamed from a descriptor
 * (db_import_stream.c).  Private to those two. */
#ifndef TOOLS_LIB_DB_IMPORT_RUN_H
#define TOOLS_LIB_DB_IMPORT_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <zlib.h>
#include "tools/lib/db_decode.h"
#include "tools/lib/db_import.h"

struct importer {
	struct store *s;
	struct import_options o;
	unsigned pending;   /* runs in the open transaction */
	bool open;
	char now[32];
	sqlite3_stmt *machine_ins, *machine_id, *machine_fw, *run_ins, *run_known;
	struct record_statements records;
	/* The loading thread's own read-only look at the store (a file store
	 * only): a run stored already is not deflated again, so a second
	 * import of 10,000 logs is a read of them and a lookup each. */
	struct {
		sqlite3 *db;
		sqlite3_stmt *known;
	} peek;
};

/* The run's good records, one line each as logged, deflated: the whole run
 * can be read back (store_run_log) and shown by every reader, and costs
 * about a fifth of its text.  Deflating is a fifth of an import's time, so
 * `db import` does it on the thread that loads the logs (import_prepare). */
struct run_blob {
	Bytef *z;   /* NULL: it did not deflate */
	uLongf zlen;
	size_t n;   /* the text's length */
	bool known; /* stored already when the loading thread looked: not deflated */
};

/* The run's row (and its machine's): *run its id, or 0 when the store has
 * it already (counted as a duplicate) or it has no machine record (counted
 * as skipped; EXIT_DAMAGED).  name: the machine's name, or NULL; part_crc:
 * the CRC of the run's records when it has no good end (import_records_crc
 * for a loaded run); blob: its deflated text, or NULL to store none. */
int import_run_row(struct importer *im, const struct lrun *r, const char *name, uint32_t part_crc,
		   struct run_blob *blob, sqlite3_int64 *run, struct import_totals *tot, char *why, size_t cap);
uint32_t import_records_crc(const struct lrun *r);
/* The directory a log is in, as the machine's name (--machine-from-dir). */
char *import_dir_name(const char *path);
/* The transaction import_run_row writes in, opened when none is. */
bool import_open(struct importer *im, char *why, size_t cap);

#endif
