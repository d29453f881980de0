/* SPDX-License-Identifier: BSD-2-Clause */
/* Following a boot's serial log while QEMU runs, for the progress line: the
 * plan record's estimates say what the main table will measure and for how
 * long; each timer record is one counter done; the multi-CPU records name
 * the phase after it. */
#ifndef TOOLS_QEMU_WATCH_H
#define TOOLS_QEMU_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include "tools/lib/progress.h"
#include "tools/lib/json_parse.h"

#define WATCH_COUNTERS 32
#define WATCH_LINE 16384 /* the plan record is 1-2 KB; a timer record up to LOG_RECORD_MAX is skipped past */

struct boot_watch {
	struct progress prog;
	const char *path;
	long offset;
	char line[WATCH_LINE];
	size_t len;
	bool overlong;          /* the line being read did not fit: it is only skipped */
	struct lr_node nodes[512];
	char strs[WATCH_LINE];
	char names[WATCH_COUNTERS][32];
	double est[WATCH_COUNTERS], total_s, done_est, plan_at;
	unsigned ncounters, done;
	char phase[64];
};

/* what: the boot named on the line ("booting", "the Linux guest"). */
void boot_watch_init(struct boot_watch *w, const char *path, const char *who, bool quiet);
/* Reads what the log gained and redraws the line: spawn_watch's tick. */
void boot_watch_tick(void *ctx);
void boot_watch_end(struct boot_watch *w);

#endif
