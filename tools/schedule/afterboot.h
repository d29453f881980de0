/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe schedule --after-boot`, what the package's unit
 * (tickprobe-collect.service) runs once at every boot: when the ESP holds
 * logs it has not seen, it imports them into STATE/fleet.db, runs `tickprobe
 * os` once on this boot's kernel (STATE/logs/os-NNNN.log, beside a copy of
 * each new log that users other than root can read), and writes
 * `tickprobe compare` of the newest bare log against it to STATE/latest.txt.
 * With nothing new it does nothing and says nothing. */
#ifndef TOOLS_SCHEDULE_AFTERBOOT_H
#define TOOLS_SCHEDULE_AFTERBOOT_H

#include "tools/schedule/schedule.h"

struct after_boot {
	const char *os_options; /* "--quick" */
	double os_timeout;      /* seconds for tickprobe os */
	double import_timeout;  /* seconds for the import */
};

int schedule_after_boot(const struct schedule *s, const struct after_boot *a);

#endif
