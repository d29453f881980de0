/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe doctor`'s conclusion from its stories: the kernel's (klog.h,
 * gather.h, kernel.h), the hardware's (tools/lib/verdict.h), which clock is
 * wrong (attribute.h: today the bare log's calibration, later a watch) and
 * the cost (gather.h).  conclude.c reads the stories; remedy.c turns each
 * cause into the parameters that kernel has, each with its reason. */
#ifndef TOOLS_DOCTOR_DOCTOR_H
#define TOOLS_DOCTOR_DOCTOR_H

#include "tools/doctor/attribute.h"
#include "tools/doctor/gather.h"
#include "tools/doctor/kernel.h"
#include "tools/doctor/klog.h"
#include "tools/lib/verdict.h"

#define DOCTOR_NOTHING 0    /* nothing to do */
#define DOCTOR_CHANGE 4     /* a change is recommended */
#define DOCTOR_HARDWARE 5   /* the hardware or its firmware is at fault */
#define DOCTOR_EVIDENCE_MAX 40
#define DOCTOR_PARAMS 6

struct doctor_inputs {
	const struct klog *k;
	const struct host_facts *h;
	const struct kernel_facts *kf;
	const struct bare_verdict *bare;        /* NULL: no bare-metal log */
	const char *bare_path;
	const struct clock_attribution *attr;   /* NULL: nothing weighed the clocks */
	const struct host_costs *costs;         /* n 0: not measured */
};

struct remedy {
	char param[64];
	char why[560];
};

struct conclusion {
	enum tsc_verdict verdict;
	bool tsc_wrongly_blamed;         /* the reference, not the TSC, is the clock that is off */
	char cause[40];                  /* "boot-parameter", "reference-drift", ... "none" */
	char clocksource[40];            /* the one to use */
	struct remedy add[DOCTOR_PARAMS], remove[DOCTOR_PARAMS], alt[DOCTOR_PARAMS];
	int nadd, nremove, nalt;         /* alt: other parameters that would also do, with their cost */
	char gain[320];                  /* "" when not measured */
	char summary[1000];
	char next_step[400];
	char evidence[DOCTOR_EVIDENCE_MAX][480];
	int nevidence;
	int exit_status;
};

/* What the kernel's log and command line say happened to the TSC; shared
 * by conclude.c, which reads it, and remedy.c, which answers it. */
struct story {
	bool using_tsc;
	const struct klog_event *mark;     /* a watchdog's mark of tsc or tsc-early (skew, read-back) */
	const struct klog_event *cpu_skew; /* 2026: "unstable due to inter CPU skew" */
	const struct klog_event *param;    /* "Marking TSC unstable due to boot parameter" */
	const struct klog_event *sync;     /* tsc_sync.c's failure */
	const struct klog_event *idle;     /* "TSC halts in idle" and its kin */
	const struct klog_event *other;    /* another "Marking TSC unstable due to ..." */
	const struct klog_event *adjust;   /* the last "TSC ADJUST" line */
	const struct klog_event *switched; /* the first switch after the cause, else the last */
	int later_switches;                /* switches after that one */
	int timeouts, remote_timeouts, skipped; /* reads too slow to judge by, no mark */
	bool param_on_cmdline;             /* tsc=unstable in /proc/cmdline */
	bool forced;                       /* clocksource= names another clocksource */
	bool reliable_on_cmdline, nowatchdog_on_cmdline;
	bool ref_wrong;                    /* the attribution names the mark's reference */
};

void doctor_conclude(const struct doctor_inputs *in, struct conclusion *c);

/* conclude.c's helpers for remedy.c. */
void doctor_say(struct conclusion *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void doctor_add(struct conclusion *c, const char *param, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void doctor_remove(struct conclusion *c, const char *param, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void doctor_alt(struct conclusion *c, const char *param, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool doctor_is_tsc(const char *cs);

/* remedy.c: one per verdict of the doctor. */
void remedy_reliable(const struct doctor_inputs *in, const struct story *s, struct conclusion *c);
void remedy_unreliable(const struct doctor_inputs *in, const struct story *s, struct conclusion *c);
void remedy_unknown(const struct doctor_inputs *in, const struct story *s, struct conclusion *c);

#endif
