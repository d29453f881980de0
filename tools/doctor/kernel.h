/* SPDX-License-Identifier: BSD-2-Clause */
/* What the running kernel has, so that the doctor offers only what it
 * knows: its version (from the log's "Linux version" line, the fake tree's
 * proc/sys/kernel/osrelease, or uname), which clocksource watchdog it runs
 * (the one of Linux 4.19 to 7.0, or the one rewritten in 2026 and first
 * released in 7.1), and what tsc=watchdog and tsc=recalibrate mean there.
 * The evidence for each boundary is in docs/doctor.md. */
#ifndef TOOLS_DOCTOR_KERNEL_H
#define TOOLS_DOCTOR_KERNEL_H

#include <stdbool.h>
#include "tools/doctor/gather.h"
#include "tools/doctor/klog.h"

enum watchdog_gen { WD_GEN_UNKNOWN, WD_GEN_OLD, WD_GEN_2026 };

enum tsc_watchdog_meaning {
	TSCWD_UNKNOWN,         /* the version is not known */
	TSCWD_ABSENT,          /* before 6.3: no such parameter */
	TSCWD_TSC_AS_WATCHDOG, /* 6.3-7.0: the TSC checks the HPET and PM timer */
	TSCWD_ENFORCE,         /* 7.1: the watchdog checks the TSC, whatever else says */
};

struct kernel_facts {
	char release[80];
	char release_from[560];  /* where the release came from, in words */
	bool version_known;
	int major, minor;
	enum watchdog_gen wd;
	char wd_why[400];        /* how the doctor knows which watchdog it is */
	enum tsc_watchdog_meaning tsc_watchdog;
	bool recalibrate;        /* tsc=recalibrate exists (6.3 on) */
	bool early_covered;      /* tsc=reliable and tsc=nowatchdog also hold tsc-early (5.4 on) */
};

void kernel_facts_read(struct kernel_facts *f, const struct klog *k, const struct host_facts *h);
const char *watchdog_gen_name(enum watchdog_gen g); /* "2026", "4.19-7.0", "unknown" */
/* The version is at least major.minor (false when it is not known). */
bool kernel_at_least(const struct kernel_facts *f, int major, int minor);

#endif
