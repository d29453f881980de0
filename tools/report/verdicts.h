/* SPDX-License-Identifier: BSD-2-Clause */
/* The report's Verdicts sections (verdicts.c). */
#ifndef TOOLS_REPORT_VERDICTS_H
#define TOOLS_REPORT_VERDICTS_H

#include <stdio.h>
#include "tools/lib/db_store.h"
#include "tools/lib/logset.h"

void rp_verdicts(FILE *o, const struct lrun *r);       /* one bare-metal run's */
int rp_fleet_verdicts(FILE *o, struct store *s);       /* machines per TSC verdict; -1 on a store error */

#endif
