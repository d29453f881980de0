/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe schedule --after-boot`, what the package's unit
 * (tickprobe-after-boot.service) runs once at every boot: when the ESP holds
 * logs it has not taken yet, it copies each into STATE/logs (for users
 * other than root) and imports it into STATE/fleet.db, runs `tickprobe os`
 * once on this boot's kernel (STATE/logs/os-NNNN.log), and writes
 * `tickprobe compare` of the newest bare log against it to STATE/latest.txt.
 * A log is taken (listed in STATE/collected, by name and size) once it is in
 * the store, or found to be no log the store can take; one whose import
 * failed because of the store is tried again at the next run.  With nothing
 * new it does nothing and says nothing.  STATE is held open and must be
 * root's alone; every file in it, and every log on the ESP, is opened
 * relative to its directory and never through a link. */
#ifndef TOOLS_SCHEDULE_AFTERBOOT_H
#define TOOLS_SCHEDULE_AFTERBOOT_H

#include <stdbool.h>
#include <stddef.h>
#include "tools/lib/logdir.h"
#include "tools/schedule/schedule.h"

struct after_boot {
	const char *os_options; /* "--quick" */
	double os_timeout;      /* seconds for tickprobe os */
};

int schedule_after_boot(const struct schedule *s, const struct after_boot *a);

/* (afterboot_logs.c) The ESP's logs not yet taken, by name in name order,
 * into out; *odd counts the *.log files of other names, passed by.
 * state_fd: the state directory, or -1 when there is none yet. */
size_t ab_new_logs(int esp_fd, int state_fd, struct loglist *out, size_t *odd);
/* Where --after-boot's files are: the ESP's logs directory and the state
 * directory and its logs/, each held open, and the store. */
struct ab_dirs {
	const char *esp_logs; /* the ESP's logs directory, for messages and the runs' source */
	int esp_fd, state_fd, logs_fd;
	const char *db;       /* the store, for messages: STATE/fleet.db */
	const char *db_open;  /* the same, reached with no link on the way: SQLite opens it
			       * refusing any (SQLITE_OPEN_NOFOLLOW), and STATE may be one */
};

/* Each of logs (names in the ESP's logs directory) copied into STATE/logs
 * and imported into the store, and listed as taken when it is done with.
 * Says how many were imported; 0, or EXIT_UNREADABLE when some are left
 * for the next run. */
/* The rest of in, from where it is, appended to out; false on an error. */
bool ab_copy(int in, int out);
int ab_take_logs(const struct ab_dirs *d, const struct loglist *logs);

#endif
