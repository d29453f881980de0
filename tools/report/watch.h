/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: the watch of each log that has one (watch.c). */
#ifndef TOOLS_REPORT_WATCH_H
#define TOOLS_REPORT_WATCH_H

#include "tools/report/html.h"

/* Some log on the page has a watch. */
int rp_has_watch(const struct rp_ctx *c);
/* The page's section (id "watch"), nothing without a watch. */
void rp_watch_page(const struct rp_ctx *c);
/* The record types it shows (the "other records" leave them out). */
int rp_watch_type(const char *type);

#endif
