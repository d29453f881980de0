/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe report`: the section of per-clocksource figures from
 * `tickprobe os` logs (seeds.c).  rp_lineup (lineup.c) puts it just before
 * the kernel-path section; it is there whenever some log is an OS log. */
#ifndef TOOLS_REPORT_SEEDS_H
#define TOOLS_REPORT_SEEDS_H

#include "tools/report/html.h"

void rp_seeds(const struct rp_ctx *c);

#endif
