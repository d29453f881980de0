/* SPDX-License-Identifier: BSD-2-Clause */
/* The kernel's story of its clocksources, read from its log: the lines that
 * kernel/time/clocksource.c, arch/x86/kernel/tsc.c, tsc_sync.c and the idle
 * drivers print, in the wordings of Linux 4.19 to 7.0 and of the watchdog
 * rewritten in 2026 (Linux 7.1), from `dmesg`, /dev/kmsg records, syslog or
 * `journalctl -k` output alike.  docs/doctor.md lists every wording. */
#ifndef TOOLS_DOCTOR_KLOG_H
#define TOOLS_DOCTOR_KLOG_H

#include <stdbool.h>
#include <stddef.h>

/* Memory is bounded by design: of a longer file the last 64 MiB are read
 * (the latest boot is at its end), and of more events the latest 4096 are
 * kept (the oldest half let go at a time). */
#define KLOG_MAX_BYTES (64ULL << 20)
#define KLOG_MAX_EVENTS 4096

enum klog_kind {
	KE_WATCHDOG_UNSTABLE, /* 4.19-7.0: "Marking clocksource 'X' as unstable because the skew is too large" */
	KE_FREQ_SKEW,         /* 2026: "Marking clocksource X unstable due to frequency skew" */
	KE_CPU_SKEW,          /* 2026: "Marking clocksource X unstable due to inter CPU skew" */
	KE_READBACK_DELAY,    /* 5.14-7.0: the watchdog's own read was slow, "marking ... unstable" */
	KE_READ_TIMEOUT,      /* 2026: "Watchdog X read timed out. Readout sequence took: Nns" */
	KE_REMOTE_TIMEOUT,    /* 2026: "Watchdog remote CPU N read timed out" */
	KE_READBACK_SKIP,     /* 5.15-7.0: a slow read made the watchdog skip its test, no mark */
	KE_LONG_READOUT,      /* 6.x: "Long readout interval, skipping watchdog check" */
	KE_CPU_CHECK,         /* 5.10-7.0: "Checking clocksource X synchronization ...", "CPUs ... ahead of" */
	KE_TSC_UNSTABLE,      /* tsc: "Marking TSC unstable due to REASON" */
	KE_BOOT_PARAMETER,    /* the same, REASON "boot parameter" (tsc=unstable) */
	KE_SYNC_FAILED,       /* tsc_sync.c: a warp between CPUs at boot or hotplug */
	KE_TSC_ADJUST,        /* tsc_sync.c: "[Firmware Bug]: TSC ADJUST differs: ...", "... force to 0" */
	KE_SWITCHED,          /* "Switched to clocksource X" */
	KE_CALIBRATION,       /* "Detected ... MHz", "Refined TSC clocksource calibration", ... */
	KE_BIOS_HINT,         /* "TSC found unstable after boot, most likely due to broken BIOS" */
	KE_KINDS
};

struct klog_event {
	enum klog_kind kind;
	double ts;            /* the kernel's timestamp in s, < 0 when the line has none */
	char cs[40];          /* the clocksource concerned (marked, switched to); "" */
	char ref[40];         /* a watchdog mark's reference clocksource; "" until its line */
	int cpu, cpu2;        /* the CPU(s) the line names; -1 */
	double cs_ns, wd_ns;  /* the two intervals the watchdog compared, in ns; < 0 not given */
	double value;         /* a readout or delay in ns, a TSC_ADJUST value; < 0 or unset: none */
	bool has_value;
	unsigned long long cycles[2]; /* an inter-CPU skew's two TSC readings, cpu's then cpu2's */
	char detail[160];     /* the reason, the skew, the MHz: in the kernel's words */
	char line[320];       /* the line, without its timestamp prefix */
};

struct klog {
	struct klog_event *ev;
	size_t n, cap;
	size_t lines;          /* lines read */
	size_t last_event_line; /* the line number of the last event, for its detail lines */
	double first_ts;       /* the first timestamp seen, < 0 none */
	bool cut_line;         /* the last line had no end: the log was cut */
	size_t dropped;        /* the oldest events let go to keep KLOG_MAX_EVENTS */
	unsigned long long skipped_bytes; /* the start of a file longer than KLOG_MAX_BYTES, not read */
	char source[200];      /* where it came from, in words */
	char release[80];      /* from "Linux version X ...", "" when the log lacks it */
};

const char *klog_kind_name(enum klog_kind k); /* "watchdog-unstable", ... */

/* One line of any of the formats; returns true when it was an event. */
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
/* Whether any line is in the wording of the watchdog rewritten in 2026 (1),
 * of the one before it (0), or neither (-1). */
int klog_watchdog_2026(const struct klog *k);

/* The kernel's own skew of a watchdog mark in ppm, (cs - wd) / wd, and
 * whether both intervals were given. */
bool klog_skew_ppm(const struct klog_event *e, double *ppm);

/* The word of s up to any of stops, and the text up to the line's end, into
 * out (cap bytes, always terminated). */
void klog_copy_word(char *out, size_t cap, const char *s, const char *stops);
void klog_copy_text(char *out, size_t cap, const char *s);

/* klog_match.c: the wordings.  Each returns true when the message was one
 * of its lines (an event, or the detail of the event just before). */
struct klog_event *klog_push(struct klog *k, enum klog_kind kind, double ts, const char *msg);
bool klog_match_watchdog(struct klog *k, const char *msg, double ts);
bool klog_match_tsc(struct klog *k, const char *msg, double ts);

#endif
