/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe db import`: logs into the fleet store (docs/db.md). */
#ifndef TOOLS_LIB_DB_IMPORT_H
#define TOOLS_LIB_DB_IMPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "tools/lib/logahead.h"
#include "tools/lib/db_store.h"
#include "tools/lib/logset.h"

struct import_options {
	const char *machine;   /* every run belongs to this machine name; NULL: from its records */
	bool machine_from_dir; /* the machine name is the log's directory name */
	unsigned batch;        /* runs per transaction */
	bool quiet;            /* no per-file problem lines */
};

struct import_totals {
	uint64_t files, runs_seen, runs_new, duplicates, machines_new;
	uint64_t damaged_records; /* record lines left out, over the new runs */
	uint64_t skipped;         /* runs with nothing to identify their machine */
};

/* Imports one loaded log file's runs (logfile_load, or tools/lib/logahead.h);
 * made: what import_prepare made of it, or NULL (then made here).  Returns
 * the worst exit status seen (damage: EXIT_DAMAGED; a store error:
 * EXIT_UNREADABLE, with why). */
struct importer;
struct importer *importer_new(struct store *s, const struct import_options *o);
int importer_logfile(struct importer *im, const struct logfile *f, void *made, struct import_totals *t, char *why,
		     size_t cap);
/* The work of an import that needs no writing, for the thread that loads
 * the logs (tools/lib/logahead.h): each run's records deflated, unless the store
 * has the run already.  Its context is im, which must outlive the loading. */
struct ahead_work importer_work(struct importer *im);
/* The log read from fd (seekable, read from its start) in two passes, so
 * that the memory the import takes does not depend on the log's length:
 * the runs' identities first, then their records, each written as it is
 * read.  name: the log's name in messages and the runs' source (and, with
 * machine_from_dir, the machine's name from its directory).  f gets the
 * first pass's verdicts, with each run's first begin, machine, acpi, tsc
 * and end records (logfile_stream); the caller frees it.  What is pending
 * is committed first: the log's runs are a transaction of their own, which
 * a log that changes while it is read takes back (EXIT_UNREADABLE, its
 * why in f->why).  Returns the worst exit status, as importer_logfile, why
 * set only when the store failed. */
int importer_stream(struct importer *im, int fd, const char *name, struct logfile *f, struct import_totals *t,
		    char *why, size_t cap);
/* A log longer than this is imported streamed (importer_file); shorter
 * ones, the many logs of a fleet, are loaded whole on a thread of their
 * own (tools/lib/logahead.h), so that `db import`'s memory is bounded by this
 * bound times the files loaded ahead, whatever the logs' lengths. */
#define IMPORT_LOAD_MAX (256 * 1024)
/* true when path is a file longer than IMPORT_LOAD_MAX. */
bool importer_streams(const char *path);
/* path opened and imported by importer_stream; returns as it does (a file
 * that cannot be opened: EXIT_UNREADABLE, said unless quiet). */
int importer_file(struct importer *im, const char *path, struct import_totals *t, char *why, size_t cap);
/* Commits what is pending; false with why on a store error. */
bool importer_finish(struct importer *im, char *why, size_t cap);
void importer_free(struct importer *im);

/* The machine identity of a run (docs/db.md): "name:NAME" when given, else
 * "cpu:" and a hash of the CPU's identity in the machine record; NULL when
 * the run has no machine record. */
char *machine_key(const struct lrun *r, const char *name);

#endif
