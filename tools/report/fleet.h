/* SPDX-License-Identifier: BSD-2-Clause */
/* The fleet page: every machine of a store on one page (fleet.c). */
#ifndef TOOLS_REPORT_FLEET_H
#define TOOLS_REPORT_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "tools/lib/db_store.h"

struct rp_fleet_options {
	const char *title;
	double conf;            /* confidence in percent */
	int ci;                 /* its stats_conf_index */
	const char *pages_href; /* machine pages as HREFmachine-ID.html; NULL: no links */
};

/* Writes the page; -1 with why on a store error. */
int rp_fleet(struct store *s, FILE *out, const struct rp_fleet_options *opt, char *why, size_t cap);

/* `tickprobe report` for a fleet: from the store db, or (db NULL) from the
 * logs, imported into a private temporary store that is removed at the end
 * (2,000 logs: 11 MB of memory, against 60 MB for a store in memory); the
 * page to out, and with pages
 * each machine's own page (the ordinary report of its runs) into
 * OUT-machines/ beside it.  Returns the exit status. */
int rp_fleet_report(const char *db, char **logs, size_t nlogs, const char *out, bool pages,
		    const struct rp_fleet_options *opt);

#endif
