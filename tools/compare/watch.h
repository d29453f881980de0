/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe compare`: the watches of the logs side by side (docs/watch.md):
 * each clock's rate with its uncertainty in each log, marked where it
 * differs from the first log's by more than WATCH_AGREE_SIGMAS times the
 * two uncertainties together, each clock's drift, each watch's verdict and
 * what its VM events moved. */
#ifndef TOOLS_COMPARE_WATCH_H
#define TOOLS_COMPARE_WATCH_H

#include <stddef.h>
#include "tools/lib/logset.h"

/* Prints nothing when no log has a watch. */
void compare_watches(const struct lrun *const *logs, size_t nlogs);

#endif
