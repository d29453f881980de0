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
#include "tools/log/logdir.h"
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
/* Each of logs (names in esp_fd, esp_dir's logs directory) copied into
 * logs_fd and imported into db, and listed as taken when it is done with.
 * Says how many were imported; 0, or EXIT_UNREADABLE when some are left
 * for the next run. */
/* The rest of in, from where it is, appended to out; false on an error. */
bool ab_copy(int in, int out);
int ab_take_logs(const char *esp_dir, int esp_fd, int state_fd, int logs_fd, const char *db,
		 const struct loglist *logs);

#endif
