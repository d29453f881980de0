/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe compare`, bare metal against Linux on the same machine:
 *
 *   split_print       per clocksource, clock_gettime(MONOTONIC) beside the
 *                     counter it reads: the hardware read (the probe), the
 *                     same read from user space (the OS log's raw timer),
 *                     the call through the kernel, and the kernel's share
 *                     (the call minus the hardware read, Student's t on the
 *                     per-round values) with its confidence interval;
 *   contention_print  the OS log's `os_contention` curves (n threads calling
 *                     at once) beside the probe's `contention` record of the
 *                     same counter (n CPUs reading it at once). */
#ifndef TOOLS_COMPARE_SPLIT_H
#define TOOLS_COMPARE_SPLIT_H

#include <stdio.h>
#include "tools/lib/lineup.h"
#include "tools/lib/seeds.h"

void split_print(FILE *o, const struct lineup *lu, const char *metric, double conf);

void contention_print(FILE *o, const struct lrun *const *runs, size_t nruns, const struct seeds *s);

#endif
