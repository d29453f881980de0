/* SPDX-License-Identifier: BSD-2-Clause */
/* The kernel's story of its clocksources, read from its log: the lines that
 * kernel/time/clocksource.c, arch/x86/kernel/tsc.c and tsc_sync.c print
 * (Linux 4.19, 5.x and 6.x wordings), from `dmesg`, /dev/kmsg records or
 * `journalctl -k` output alike. */
#ifndef TOOLS_DOCTOR_KLOG_H
#define TOOLS_DOCTOR_KLOG_H

#include <stdbool.h>
#include <stddef.h>

enum klog_kind {
	KE_WATCHDOG_UNSTABLE, /* "Marking clocksource 'X' as unstable because the skew is too large" */
	KE_READBACK_DELAY,    /* 5.14+: the watchdog's own read was slow, "marking X unstable" */
	KE_TSC_UNSTABLE,      /* tsc: "Marking TSC unstable due to REASON" */
	KE_BOOT_PARAMETER,    /* the same, REASON "boot parameter" (tsc=unstable) */
	KE_SYNC_FAILED,       /* tsc_sync.c: a warp between CPUs, or check_tsc_sync_source failed */
	KE_SWITCHED,          /* "Switched to clocksource X" */
	KE_CALIBRATION,       /* "Detected … MHz", "Refined TSC clocksource calibration", … */
	KE_BIOS_HINT,         /* "TSC found unstable after boot, most likely due to broken BIOS" */
	KE_KINDS
};

struct klog_event {
	enum klog_kind kind;
	double ts;            /* the kernel's timestamp in s, < 0 when the line has none */
	char cs[40];          /* the clocksource concerned (marked, switched to); "" */
	char ref[40];         /* a watchdog mark's reference clocksource; "" until its line */
	int cpu;              /* the watchdog's CPU, or the sync check's other CPU; -1 */
	char detail[160];     /* the reason, the skew, the MHz: in the kernel's words */
	char line[320];       /* the line, without its timestamp prefix */
};

struct klog {
	struct klog_event *ev;
	size_t n, cap;
	size_t lines;          /* lines read */
	double first_ts;       /* the first timestamp seen, < 0 none */
	bool cut_line;         /* the last line had no end: the log was cut */
	char source[200];      /* where it came from, in words */
	char release[80];      /* from "Linux version X …", "" when the log lacks it */
};

const char *klog_kind_name(enum klog_kind k); /* "watchdog-unstable", … */

/* One line of any of the three formats; returns true when it was an event. */
bool klog_line(struct klog *k, const char *line);
/* A whole text (lines separated by '\n'). */
void klog_text(struct klog *k, const char *text, size_t n);
/* A file, or (path NULL) this system's: /dev/kmsg, else the syslog buffer.
 * Returns 0, or -1 with *why set. */
int klog_load(struct klog *k, const char *path, char *why, size_t cap);
void klog_free(struct klog *k);

/* The last event of a kind (NULL none), and whether the log starts after the
 * boot's first messages (they were overwritten: earlier events are unknown). */
const struct klog_event *klog_last(const struct klog *k, enum klog_kind kind);
bool klog_starts_late(const struct klog *k);

#endif
