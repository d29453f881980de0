/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: a run's section (machine.c), the `tickprobe os`
 * records' tables of it in machine_os.c, and the cells both print. */
#ifndef TOOLS_REPORT_MACHINE_H
#define TOOLS_REPORT_MACHINE_H

#include <stdio.h>
#include "tools/lib/logschema.h"
#include "tools/lib/logset.h"

/* A number cell (rp_num's). */
void rp_td(FILE *o, const struct lr_node *n, int decimals);
/* A timer's or ctxsw's health cell; present is NULL for a record without it. */
void rp_health(FILE *o, const struct ld_bool *healthy, const struct ld_bool *present, const struct ld_str *reason);
/* A timer's costs in ns (the sd when sd is not 0) and its reads a second. */
void rp_cost_cells(FILE *o, const struct ld_timer *t, int sd);
/* The `tickprobe os` records: clock calls, loop rates, gaps, context switches. */
void rp_os_records(FILE *o, const struct lrun *r);

#endif
