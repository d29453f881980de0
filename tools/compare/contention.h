/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe compare`: the multi-CPU records across logs.  Each log's TSC
 * sync verdict and per-CPU cost on a line, then, per contended counter and
 * reader count, each log's p50 and reads/s side by side.
 *
 * A contention level is one p50 (the median over its readers) and one
 * reads/s figure: no rounds, so no Student's t.  The table says so rather
 * than mark differences it cannot test. */
#ifndef TOOLS_COMPARE_CONTENTION_H
#define TOOLS_COMPARE_CONTENTION_H

#include <stddef.h>
#include "tools/lib/logset.h"

/* Prints nothing when no log has more than one CPU.  width: the terminal's
 * columns; wider tables list the logs as rows. */
void compare_cpus(const struct lrun *const *logs, size_t nlogs, int width);

#endif
