/* SPDX-License-Identifier: BSD-2-Clause */
/* struct team (probe/team.h) on Linux: one thread pinned to each CPU the
 * process may use, asleep between runs, so that the image's multi-CPU
 * measurements (the TSC ping-pong of probe/tsc_sync.h) run unchanged in
 * `tickprobe os --watch`.  CPU index 0 is the calling thread's own CPU
 * (it is pinned there first). */
#ifndef TOOLS_OS_TEAM_H
#define TOOLS_OS_TEAM_H

#include <stdbool.h>
#include <stddef.h>
#include "probe/team.h"
#include "tools/os/threads.h"

struct os_team;

/* The team on cpus (the calling thread's CPU, self_cpu, becomes index 0);
 * NULL with why when a thread cannot be started or pinned. */
struct os_team *os_team_start(const struct os_cpus *cpus, int self_cpu, char *why, size_t cap);
const struct team *os_team_get(const struct os_team *t);
/* The Linux CPU number of team index i. */
int os_team_cpu(const struct os_team *t, unsigned i);
/* Every thread told to end and joined. */
void os_team_stop(struct os_team *t);

#endif
