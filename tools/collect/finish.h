/* SPDX-License-Identifier: BSD-2-Clause */
/* A finished boot's log (its end record written, or cut at the size
 * limit): read back from the descriptor the table hands over and checked by
 * the log reader, as every command reads a log (tools/lib/logset.h), and
 * imported into --db by `tickprobe db import`'s own importer
 * (tools/lib/db_import.h) with the machine named by its directory, as
 * `tickprobe db import --machine-from-dir DB DIR` would: a second import of
 * the same bytes adds nothing.  Both stream the log, so the memory they take
 * does not depend on its length.  The main thread's alone. */
#ifndef TOOLS_COLLECT_FINISH_H
#define TOOLS_COLLECT_FINISH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tools/collect/boots.h"

struct finisher;

/* dir: --dir, for the logs' names; db NULL: no store, logs are checked
 * only; log_bytes: the per-boot limit, for the lines.  NULL with why when
 * the store cannot be opened. */
struct finisher *finisher_open(const char *dir, const char *db, uint64_t log_bytes, char *why, size_t cap);
/* The table's next event (boots_next_event: now, stopping) taken, the
 * table told what became of an ended boot (boots_settle), the event's
 * descriptor closed: true with its line as the collector prints it
 * ("52-54-00-12-34-56 0003.log: complete, 97 records, imported"), false
 * when there is none.  The main thread's loop, and the fuzz harness's
 * (tests/fuzz/fuzz_collect.c). */
bool finisher_next(struct finisher *f, struct boots *b, double now, bool stopping, double incomplete_after,
		   char *line, size_t cap);
void finisher_close(struct finisher *f);

#endif
