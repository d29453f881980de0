/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe os --prometheus FILE`: the run's figures (tools/lib/metrics.h)
 * in the text format node_exporter's textfile collector reads, written
 * whole or not at all: a FILE.tmp beside it, synced, then renamed over it,
 * so a scrape never sees half a file. */
#ifndef TOOLS_OS_PROMETHEUS_H
#define TOOLS_OS_PROMETHEUS_H

#include <stddef.h>

/* log: the run's records as written (n bytes).  0, or -1 with why. */
int os_prometheus_write(const char *path, const char *log, size_t n, char *why, size_t cap);

#endif
