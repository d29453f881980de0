/* SPDX-License-Identifier: BSD-2-Clause */
/* Members a schema-2 log leaves out because they follow from others
 * (docs/log-format.md, "Derived members"), put back into a record's parse as
 * it is loaded, so that every reader sees one shape whatever the writer
 * saved: a measured timer's present and healthy, its cost_ns and
 * throughput.reads_per_s, a percpu record's *_ns columns; and the per-CPU
 * lists (cpus.list, tsc_sync.pairs) written as columns become lists of
 * objects again.  The record's text stays as written. */
#ifndef TOOLS_LIB_LOGDERIVED_H
#define TOOLS_LIB_LOGDERIVED_H

#include "tools/lib/json_parse.h"

struct derived_rows {          /* a per-CPU list written as columns, as rows */
	char *text;
	struct lr_node *nodes;
	char *strs;
	struct derived_rows *next;
};

struct derived {
	struct derived_rows *rows;
	char *text;            /* the members put back, as JSON */
	struct lr_node *nodes; /* their parse, spliced into the record's */
	char *strs;
};

/* Adds what follows from `root` and the run's TSC rate (hz <= 0: unknown,
 * nothing is added).  Members already present are left alone (a schema-1
 * log has them all).  The parse's nodes must be the caller's own. */
void derived_add(struct derived *d, struct lr_node *root, double hz);
void derived_free(struct derived *d);

#endif
