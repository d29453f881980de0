/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe doctor`'s conclusion from its three stories: the kernel's
 * (klog.h, gather.h), the hardware's (tools/log/verdict.h) and the cost (gather.h). */
#ifndef TOOLS_DOCTOR_DOCTOR_H
#define TOOLS_DOCTOR_DOCTOR_H

#include "tools/doctor/gather.h"
#include "tools/doctor/klog.h"
#include "tools/log/verdict.h"

#define DOCTOR_NOTHING 0    /* nothing to do */
#define DOCTOR_CHANGE 4     /* a change is recommended */
#define DOCTOR_HARDWARE 5   /* the hardware is at fault */
#define DOCTOR_EVIDENCE_MAX 32

struct doctor_inputs {
	const struct klog *k;
	const struct host_facts *h;
	const struct bare_verdict *bare; /* NULL: no bare-metal log */
	const char *bare_path;
	const struct host_costs *costs;  /* n 0: not measured */
};

struct conclusion {
	enum tsc_verdict verdict;
	char cause[40];                  /* "boot-parameter", "watchdog", "sync-failed", … "none" */
	char clocksource[40];            /* the one to use */
	char add[4][64], remove[4][64];  /* kernel parameters */
	int nadd, nremove;
	char gain[320];                  /* "" when not measured */
	char summary[800];               /* one sentence */
	char next_step[400];
	char evidence[DOCTOR_EVIDENCE_MAX][400];
	int nevidence;
	int exit_status;
};

void doctor_conclude(const struct doctor_inputs *in, struct conclusion *c);

#endif
