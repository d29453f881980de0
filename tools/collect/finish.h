/* SPDX-License-Identifier: BSD-2-Clause */
/* A finished boot's log (its end record written): read back and checked by
 * the log reader, as every command reads a log (tools/log/logset.h), then
 * imported into --db by `tickprobe db import`'s own importer
 * (tools/db/import.h) with the machine named by its directory, as
 * `tickprobe db import --machine-from-dir DB DIR` would: a second import of
 * the same bytes adds nothing.  The main thread's alone. */
#ifndef TOOLS_COLLECT_FINISH_H
#define TOOLS_COLLECT_FINISH_H

#include <stdbool.h>
#include <stddef.h>
#include "tools/collect/boots.h"

struct finisher;

/* db NULL: no store, logs are checked only.  NULL with why when the store
 * cannot be opened. */
struct finisher *finisher_open(const char *db, char *why, size_t cap);
/* The event's line as the collector prints it ("52-54-00-12-34-56
 * 0003.log: complete, 97 records, imported") into line; for an
 * EVENT_ENDED boot, true when the log is complete. */
bool finisher_take(struct finisher *f, const struct boot_event *ev, double incomplete_after, char *line, size_t cap);
void finisher_close(struct finisher *f);

#endif
