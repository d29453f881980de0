/* SPDX-License-Identifier: BSD-2-Clause */
/* The wordings the kernel log reader knows (klog.h), matched on the words
 * that each kernel prints, never on its spacing: kernel/time/clocksource.c
 * (pr_fmt "clocksource: ") of Linux 4.19 to 7.0 and of 7.1's rewritten
 * watchdog, arch/x86/kernel/tsc.c ("tsc: "), tsc_sync.c, the idle drivers'
 * "TSC halts in idle" and kernel/sched/clock.c.  Every wording is quoted, with
 * the kernel that prints it, in docs/doctor.md and in the test corpus
 * tests/data/klog/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/doctor/klog.h"

/* A detail line belongs to the event just before it: the kernel prints
 * them together, within a few lines (6.x prints five after its mark). */
#define DETAIL_LINES 6

/* The event just read, when it is of this kind and the line is its detail. */
static struct klog_event *open_event(struct klog *k, enum klog_kind kind)
{
	struct klog_event *e = k->n ? &k->ev[k->n - 1] : NULL;

	if (!e || e->kind != kind || k->lines > k->last_event_line + DETAIL_LINES)
		return NULL;
	return e;
}

/* The number after a word ("wd_nsec: 511993325" -> 511993325), and where
 * it ends; NULL when the word or the number is not there. */
static const char *number_at(const char *msg, const char *word, double *out)
{
	const char *p = strstr(msg, word);
	char *end;

	if (!p)
		return NULL;
	p += strlen(word);
	while (*p == ' ')
		p++;
	*out = strtod(p, &end);
	return end != p ? end : NULL;
}

static bool number_after(const char *msg, const char *word, double *out)
{
	return number_at(msg, word, out) != NULL;
}

/* The same for a time the kernel prints as "%lldns": the number counts
 * only when "ns" follows it, so that a line cut inside it gives none. */
static bool ns_after(const char *msg, const char *word, double *out)
{
	const char *end = number_at(msg, word, out);

	return end && !strncmp(end, "ns", 2);
}

static int watchdog_cpu(const char *msg)
{
	const char *p = strstr(msg, "watchdog on CPU");
	return p ? (int)strtol(p + 15, NULL, 10) : -1;
}

/* The word after "watchdog on CPU%d: ", the clocksource the watchdog read. */
static void after_watchdog_cpu(const char *msg, char *out, size_t cap)
{
	const char *p = strstr(msg, "watchdog on CPU");

	out[0] = 0;
	if (p && (p = strstr(p, ": ")))
		klog_copy_word(out, cap, p + 2, " ");
}

/* 4.19-7.0's mark: "timekeeping watchdog on CPU%d: Marking clocksource '%s'
 * as unstable because the skew is too large:" (4.4 and older kernels print
 * "timekeeping watchdog: Marking ..." without the CPU). */
static bool old_mark(struct klog *k, const char *msg, double ts)
{
	const char *p = strstr(msg, "Marking clocksource '");
	struct klog_event *e;

	if (!p || !strstr(msg, "as unstable"))
		return false;
	if (!(e = klog_push(k, KE_WATCHDOG_UNSTABLE, ts, msg)))
		return true;
	klog_copy_word(e->cs, sizeof e->cs, p + 21, "'");
	e->cpu = watchdog_cpu(msg);
	snprintf(e->detail, sizeof e->detail, "the skew is too large");
	return true;
}

/* The lines after that mark: 4.19's "'%s' wd_now: ...", 5.13's "'%s' wd_nsec:
 * %lld wd_now: ..." and "'%s' cs_nsec: %lld ...", 6.x's "Clocksource '%s'
 * skewed %lld ns (%lld ms) over watchdog '%s' interval of %lld ns (%lld ms)"
 * (cs_nsec - wd_nsec, then wd_nsec), and "'%s' is current clocksource.". */
static bool old_mark_detail(struct klog *k, const char *msg)
{
	struct klog_event *e = open_event(k, KE_WATCHDOG_UNSTABLE);
	const char *q = strchr(msg, '\'');
	const char *over = strstr(msg, "over watchdog '");
	double skew;
	double wd;

	if (!e || !q)
		return false;
	if (over && number_after(msg, "skewed", &skew) && number_after(over, "interval of", &wd)) {
		klog_copy_word(e->ref, sizeof e->ref, over + 15, "'");
		e->wd_ns = wd;
		e->cs_ns = wd + skew;
		return true;
	}
	if (strstr(msg, "' wd_now:") || strstr(msg, "' wd_nsec:")) {
		if (!e->ref[0])
			klog_copy_word(e->ref, sizeof e->ref, q + 1, "'");
		number_after(msg, "wd_nsec:", &e->wd_ns);
		return true;
	}
	if (strstr(msg, "' cs_now:") || strstr(msg, "' cs_nsec:")) {
		number_after(msg, "cs_nsec:", &e->cs_ns);
		return true;
	}
	return strstr(msg, "is current clocksource") != NULL;
}

/* 5.14: "timekeeping watchdog on CPU%d: %s read-back delay of %lldns, attempt
 * %d, marking unstable"; 6.x: "... wd-%s-wd excessive read-back delay of
 * %lldns vs. limit of %ldns, wd-wd read-back delay only %lldns, attempt %d,
 * marking %s unstable".  Without "marking" (a line cut short), still the
 * same event: the kernel's next line says whether the TSC was marked. */
static bool readback_mark(struct klog *k, const char *msg, double ts)
{
	const char *delay = strstr(msg, "read-back delay of");
	const char *wd = strstr(msg, "wd-");
	const char *p = strstr(msg, "marking ");
	struct klog_event *e;
	size_t len;

	if (!delay || strstr(msg, "wd-wd read-back delay of") || strstr(msg, "clock-skew test skipped"))
		return false;
	if (!(e = klog_push(k, KE_READBACK_DELAY, ts, msg)))
		return true;
	e->cpu = watchdog_cpu(msg);
	if (wd)
		klog_copy_word(e->ref, sizeof e->ref, wd + 3, " ");
	else
		after_watchdog_cpu(msg, e->ref, sizeof e->ref);
	len = strlen(e->ref);
	if (wd && len > 3 && !strcmp(e->ref + len - 3, "-wd"))
		e->ref[len - 3] = 0;
	e->has_value = ns_after(delay, "read-back delay of", &e->value);
	if (p)
		klog_copy_word(e->cs, sizeof e->cs, p + 8, " ");
	if (!e->cs[0] || !strcmp(e->cs, "unstable"))
		snprintf(e->cs, sizeof e->cs, "tsc");
	klog_copy_text(e->detail, sizeof e->detail, delay);
	return true;
}

/* 5.15-7.0: "timekeeping watchdog on CPU%d: %s wd-wd read-back delay of
 * %lldns" then "wd-%s-wd read-back delay of %lldns, clock-skew test
 * skipped!"; 6.x: "Long readout interval, skipping watchdog check: cs_nsec:
 * %lld wd_nsec: %lld".  Neither marks anything. */
static bool skipped_check(struct klog *k, const char *msg, double ts)
{
	struct klog_event *e;

	if (strstr(msg, "wd-wd read-back delay of")) {
		if (!(e = klog_push(k, KE_READBACK_SKIP, ts, msg)))
			return true;
		e->cpu = watchdog_cpu(msg);
		after_watchdog_cpu(msg, e->ref, sizeof e->ref);
		e->has_value = ns_after(msg, "wd-wd read-back delay of", &e->value);
		return true;
	}
	if (strstr(msg, "clock-skew test skipped")) {
		if (!open_event(k, KE_READBACK_SKIP))
			klog_push(k, KE_READBACK_SKIP, ts, msg);
		return true;
	}
	if (!strstr(msg, "Long readout interval"))
		return false;
	if ((e = klog_push(k, KE_LONG_READOUT, ts, msg))) {
		number_after(msg, "cs_nsec:", &e->cs_ns);
		number_after(msg, "wd_nsec:", &e->wd_ns);
	}
	return true;
}

/* 5.10-7.0, after a mark: "Checking clocksource %s synchronization from CPU
 * %d to CPUs %*pbl." (5.10.140 ends at "from CPU %d."), then "CPUs %*pbl
 * ahead of CPU %d for clocksource %s." or "behind", when some were. */
static bool cpu_check(struct klog *k, const char *msg, double ts)
{
	const char *p = strstr(msg, "Checking clocksource ");
	struct klog_event *e;

	if (p && strstr(msg, "synchronization from CPU")) {
		if ((e = klog_push(k, KE_CPU_CHECK, ts, msg))) {
			klog_copy_word(e->cs, sizeof e->cs, p + 21, " ");
			e->cpu = (int)strtol(strstr(msg, "from CPU") + 8, NULL, 10);
		}
		return true;
	}
	if (!strstr(msg, "CPUs ") || !strstr(msg, "for clocksource ") ||
	    (!strstr(msg, " ahead of CPU ") && !strstr(msg, " behind CPU ")))
		return false;
	if ((e = klog_push(k, KE_CPU_CHECK, ts, msg))) {
		klog_copy_word(e->cs, sizeof e->cs, strstr(msg, "for clocksource ") + 16, " .\r\n");
		klog_copy_text(e->detail, sizeof e->detail, strstr(msg, "CPUs "));
	}
	return true;
}

/* 7.1's watchdog: "Marking clocksource %s unstable due to frequency skew",
 * then "Watchdog %20s interval: %16lluns" and "Clocksource %20s interval:
 * %16lluns"; "Marking clocksource %s unstable due to inter CPU skew", then
 * "CPU%u %16llu < CPU%u %16llu (cycles)" (the CPU whose later read was the
 * smaller first). */
static bool mark_2026(struct klog *k, const char *msg, double ts)
{
	const char *p = strstr(msg, "Marking clocksource ");
	bool freq = strstr(msg, "unstable due to frequency skew") != NULL;
	struct klog_event *e;

	if (!p || (!freq && !strstr(msg, "unstable due to inter CPU skew")))
		return false;
	if ((e = klog_push(k, freq ? KE_FREQ_SKEW : KE_CPU_SKEW, ts, msg))) {
		klog_copy_word(e->cs, sizeof e->cs, p + 20, " ");
		snprintf(e->detail, sizeof e->detail, "%s", freq ? "frequency skew" : "inter CPU skew");
	}
	return true;
}

static bool interval_2026(struct klog *k, const char *msg)
{
	struct klog_event *e = open_event(k, KE_FREQ_SKEW);
	bool wd = !strncmp(msg, "clocksource: Watchdog ", 22) || !strncmp(msg, "Watchdog ", 9);
	const char *name = strstr(msg, wd ? "Watchdog " : "Clocksource ");
	double ns;

	if (!e || !name || !strstr(msg, " interval:") || !number_after(msg, "interval:", &ns))
		return false;
	name += wd ? 9 : 12;
	while (*name == ' ')
		name++;
	if (wd) {
		klog_copy_word(e->ref, sizeof e->ref, name, " ");
		e->wd_ns = ns;
	} else {
		e->cs_ns = ns;
	}
	return true;
}

/* "CPU%u %16llu": the CPU and its reading; the end, or NULL. */
static const char *cpu_reading(const char *p, int *cpu, unsigned long long *cycles)
{
	char *end;
	unsigned long v;

	if (strncmp(p, "CPU", 3))
		return NULL;
	v = strtoul(p + 3, &end, 10);
	if (end == p + 3 || *end != ' ' || v > 65535)
		return NULL;
	*cpu = (int)v;
	p = end;
	*cycles = strtoull(p, &end, 10);
	return end == p ? NULL : end;
}

static bool cpu_skew_detail(struct klog *k, const char *msg)
{
	struct klog_event *e = open_event(k, KE_CPU_SKEW);
	const char *p = strstr(msg, "CPU");
	int a;
	int b;
	unsigned long long x;
	unsigned long long y;

	if (!e || !p || !strstr(msg, "(cycles)") || !(p = cpu_reading(p, &a, &x)))
		return false;
	p += strspn(p, " ");
	if (*p != '<')
		return false;
	p += 1 + strspn(p + 1, " ");
	if (!cpu_reading(p, &b, &y))
		return false;
	e->cpu = a;
	e->cpu2 = b;
	e->cycles[0] = x;
	e->cycles[1] = y;
	return true;
}

/* 7.1: "Watchdog %s read timed out. Readout sequence took: %lluns" and
 * "Watchdog remote CPU %u read timed out": retried, never a mark. */
static bool timeout_2026(struct klog *k, const char *msg, double ts)
{
	const char *p = strstr(msg, "Watchdog ");
	struct klog_event *e;

	if (!p || !strstr(msg, "read timed out"))
		return false;
	if (!strncmp(p + 9, "remote CPU ", 11)) {
		if ((e = klog_push(k, KE_REMOTE_TIMEOUT, ts, msg)))
			e->cpu = (int)strtol(p + 20, NULL, 10);
		return true;
	}
	if ((e = klog_push(k, KE_READ_TIMEOUT, ts, msg))) {
		klog_copy_word(e->ref, sizeof e->ref, p + 9, " ");
		e->has_value = ns_after(msg, "Readout sequence took:", &e->value);
	}
	return true;
}

static bool switched(struct klog *k, const char *msg, double ts)
{
	const char *p = strstr(msg, "Switched to clocksource ");
	struct klog_event *e;

	if (!p)
		return false;
	if ((e = klog_push(k, KE_SWITCHED, ts, msg)))
		klog_copy_word(e->cs, sizeof e->cs, p + 24, " \r\n");
	return true;
}

bool klog_match_watchdog(struct klog *k, const char *msg, double ts)
{
	return old_mark(k, msg, ts) || readback_mark(k, msg, ts) || skipped_check(k, msg, ts) ||
	       cpu_check(k, msg, ts) || mark_2026(k, msg, ts) || timeout_2026(k, msg, ts) ||
	       interval_2026(k, msg) || cpu_skew_detail(k, msg) || switched(k, msg, ts) ||
	       old_mark_detail(k, msg);
}

/* tsc_sync.c: "[Firmware Bug]: TSC ADJUST differs: CPU%u %lld --> %lld.
 * Restoring" (a write at run time, put back), "[Firmware Bug]: TSC ADJUST:
 * CPU%u: %lld force to 0" (set at boot), "TSC ADJUST differs within
 * socket(s), fixing all errors", "TSC ADJUST compensate: CPU%u observed %lld
 * warp. Adjust: %lld". */
static bool tsc_adjust(struct klog *k, const char *msg, double ts)
{
	const char *p = strstr(msg, "TSC ADJUST");
	struct klog_event *e;

	if (!p || strstr(msg, "NOT forced to 0"))
		return false;
	if (!(e = klog_push(k, KE_TSC_ADJUST, ts, msg)))
		return true;
	snprintf(e->cs, sizeof e->cs, "tsc");
	if ((p = strstr(msg, ": CPU")) || (p = strstr(msg, " CPU")))
		e->cpu = (int)strtol(strstr(p, "CPU") + 3, NULL, 10);
	klog_copy_text(e->detail, sizeof e->detail, strstr(msg, "TSC ADJUST"));
	return true;
}

static bool tsc_sync(struct klog *k, const char *msg, double ts)
{
	const char *p = strstr(msg, "TSC synchronization [CPU#");
	struct klog_event *e;

	if (p) {
		const char *arrow = strstr(p, "-> CPU#");
		if ((e = klog_push(k, KE_SYNC_FAILED, ts, msg))) {
			snprintf(e->cs, sizeof e->cs, "tsc");
			e->cpu = arrow ? (int)strtol(arrow + 7, NULL, 10) : -1;
		}
		return true;
	}
	if (!strstr(msg, "TSC warp between CPUs") && !strstr(msg, "TSC warped randomly"))
		return false;
	e = open_event(k, KE_SYNC_FAILED);
	if (!e && !(e = klog_push(k, KE_SYNC_FAILED, ts, msg)))
		return true;
	if (!e->detail[0])
		klog_copy_text(e->detail, sizeof e->detail, msg);
	return true;
}

bool klog_match_tsc(struct klog *k, const char *msg, double ts)
{
	const char *p;
	struct klog_event *e;

	if ((p = strstr(msg, "Marking TSC unstable due to "))) {
		bool param = !strncmp(p + 28, "boot parameter", 14);
		if ((e = klog_push(k, param ? KE_BOOT_PARAMETER : KE_TSC_UNSTABLE, ts, msg))) {
			snprintf(e->cs, sizeof e->cs, "tsc");
			klog_copy_text(e->detail, sizeof e->detail, p + 28);
		}
		return true;
	}
	if (tsc_sync(k, msg, ts) || tsc_adjust(k, msg, ts))
		return true;
	if (strstr(msg, "TSC found unstable after boot")) {
		klog_push(k, KE_BIOS_HINT, ts, msg);
		return true;
	}
	if ((!strncmp(msg, "tsc: ", 5) || !strncmp(msg, "TSC: ", 5)) &&
	    (strstr(msg, "MHz") || strstr(msg, "calibrat"))) {
		if ((e = klog_push(k, KE_CALIBRATION, ts, msg)))
			klog_copy_text(e->detail, sizeof e->detail, msg + 5);
		return true;
	}
	return false;
}
