/* SPDX-License-Identifier: BSD-2-Clause */
/* The kernel log's clocksource events (klog.h).  The wordings matched are
 * the format strings of kernel/time/clocksource.c (pr_fmt "clocksource: "),
 * arch/x86/kernel/tsc.c ("tsc: ") and arch/x86/kernel/tsc_sync.c (no
 * prefix) as 4.19, 5.x and 6.x print them; each is matched on the words
 * that stayed the same across the three, never on the spacing. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>
#include "tools/doctor/klog.h"

static const char *const kind_names[KE_KINDS] = {
	"watchdog-unstable", "readback-delay", "tsc-unstable", "boot-parameter",
	"sync-failed", "switched", "calibration", "bios-hint",
};

const char *klog_kind_name(enum klog_kind k)
{
	return k < KE_KINDS ? kind_names[k] : "?";
}

static void copy_word(char *out, size_t cap, const char *s, const char *stops)
{
	size_t n = 0;

	while (s && *s && !strchr(stops, *s) && n + 1 < cap)
		out[n++] = *s++;
	out[n] = 0;
}

static void copy_text(char *out, size_t cap, const char *s)
{
	size_t n = strcspn(s, "\r\n");

	if (n >= cap)
		n = cap - 1;
	memcpy(out, s, n);
	out[n] = 0;
}

/* Takes off the prefix of each format: dmesg's "[   12.345678] ",
 * /dev/kmsg's "6,339,5140900,-;" (µs), journalctl's "Mon DD HH:MM:SS host
 * kernel: " (then often dmesg's).  Returns the message, *ts its time or -1. */
static const char *strip_prefix(const char *s, double *ts)
{
	const char *p;
	char *end;

	*ts = -1;
	if ((p = strstr(s, " kernel: ")) && p - s < 64)
		s = p + 9;
	while (*s == ' ')
		s++;
	if (*s >= '0' && *s <= '9') {
		/* /dev/kmsg: "LEVEL,SEQ,USEC,FLAGS[,…];MESSAGE" */
		unsigned long long usec;
		const char *semi = strchr(s, ';');
		strtoull(s, &end, 10);
		if (*end == ',' && (strtoull(end + 1, &end, 10), *end == ',')) {
			usec = strtoull(end + 1, &end, 10);
			if (*end == ',' && semi) {
				*ts = (double)usec / 1e6;
				return semi + 1;
			}
		}
	}
	if (*s == '[') {
		double v = strtod(s + 1, &end);
		if (end != s + 1 && *end == ']') {
			*ts = v;
			s = end + 1;
			while (*s == ' ')
				s++;
		}
	}
	return s;
}

static struct klog_event *push(struct klog *k, enum klog_kind kind, double ts, const char *msg)
{
	struct klog_event *e;

	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 32;
		struct klog_event *ev = realloc(k->ev, cap * sizeof *ev);
		if (!ev)
			return NULL;
		k->ev = ev, k->cap = cap;
	}
	e = &k->ev[k->n++];
	memset(e, 0, sizeof *e);
	e->kind = kind, e->ts = ts, e->cpu = -1;
	copy_text(e->line, sizeof e->line, msg);
	return e;
}

static struct klog_event *last_open(struct klog *k, enum klog_kind kind)
{
	for (size_t i = k->n; i-- > 0;)
		if (k->ev[i].kind == kind)
			return &k->ev[i];
	return NULL;
}

static int watchdog_cpu(const char *msg)
{
	const char *p = strstr(msg, "watchdog on CPU");
	return p ? (int)strtol(p + 15, NULL, 10) : -1;
}

/* The lines that follow a watchdog mark name its reference: 4.19's
 * "'hpet' wd_now: …", 5.x/6.x's "'hpet' wd_nsec: …", and 6.x's "Clocksource
 * 'tsc' skewed N ns (M ms) over watchdog 'hpet' interval of …". */
static bool watchdog_detail(struct klog *k, const char *msg)
{
	struct klog_event *e = last_open(k, KE_WATCHDOG_UNSTABLE);
	const char *q = strchr(msg, '\'');
	const char *over = strstr(msg, "over watchdog '");

	if (!e)
		return false;
	if (over) {
		copy_word(e->ref, sizeof e->ref, over + 15, "'");
		copy_text(e->detail, sizeof e->detail, strstr(msg, "skewed") ? strstr(msg, "skewed") : msg);
		return true;
	}
	if (q && (strstr(msg, "' wd_now:") || strstr(msg, "' wd_nsec:")) && !e->ref[0]) {
		copy_word(e->ref, sizeof e->ref, q + 1, "'");
		return true;
	}
	return q && strstr(msg, "' cs_");
}

static bool clocksource_line(struct klog *k, const char *msg, double ts)
{
	const char *p;
	struct klog_event *e;

	if ((p = strstr(msg, "Marking clocksource '")) && strstr(msg, "as unstable")) {
		if (!(e = push(k, KE_WATCHDOG_UNSTABLE, ts, msg)))
			return false;
		copy_word(e->cs, sizeof e->cs, p + 21, "'");
		e->cpu = watchdog_cpu(msg);
		copy_text(e->detail, sizeof e->detail, "the skew is too large");
		return true;
	}
	if (strstr(msg, "read-back delay of") && (p = strstr(msg, "marking"))) {
		/* 5.14: "watchdog on CPU%d: %s read-back delay of %lldns, attempt %d,
		 * marking unstable"; 6.x: "… wd-%s-wd excessive read-back delay …
		 * marking %s unstable". */
		const char *wd = strstr(msg, "wd-"), *colon = strstr(msg, ": ");
		if (!(e = push(k, KE_READBACK_DELAY, ts, msg)))
			return false;
		e->cpu = watchdog_cpu(msg);
		if (wd)
			copy_word(e->ref, sizeof e->ref, wd + 3, " ");
		else if (colon)
			copy_word(e->ref, sizeof e->ref, colon + 2, " ");
		if (wd && strlen(e->ref) > 3 && !strcmp(e->ref + strlen(e->ref) - 3, "-wd"))
			e->ref[strlen(e->ref) - 3] = 0;
		copy_word(e->cs, sizeof e->cs, p + 8, " ");
		if (!strcmp(e->cs, "unstable"))
			strcpy(e->cs, "tsc");
		copy_text(e->detail, sizeof e->detail, strstr(msg, "read-back delay"));
		return true;
	}
	if ((p = strstr(msg, "Switched to clocksource "))) {
		if (!(e = push(k, KE_SWITCHED, ts, msg)))
			return false;
		copy_word(e->cs, sizeof e->cs, p + 24, " \r\n");
		return true;
	}
	return watchdog_detail(k, msg);
}

static bool tsc_line(struct klog *k, const char *msg, double ts)
{
	const char *p;
	struct klog_event *e;

	if ((p = strstr(msg, "Marking TSC unstable due to "))) {
		bool param = !strncmp(p + 28, "boot parameter", 14);
		if (!(e = push(k, param ? KE_BOOT_PARAMETER : KE_TSC_UNSTABLE, ts, msg)))
			return false;
		strcpy(e->cs, "tsc");
		copy_text(e->detail, sizeof e->detail, p + 28);
		return true;
	}
	if ((p = strstr(msg, "TSC synchronization [CPU#"))) {
		const char *arrow = strstr(p, "-> CPU#");
		if (!(e = push(k, KE_SYNC_FAILED, ts, msg)))
			return false;
		strcpy(e->cs, "tsc");
		e->cpu = arrow ? (int)strtol(arrow + 7, NULL, 10) : -1;
		return true;
	}
	if (strstr(msg, "TSC warp between CPUs")) {
		if (!(e = last_open(k, KE_SYNC_FAILED)) && !(e = push(k, KE_SYNC_FAILED, ts, msg)))
			return false;
		copy_text(e->detail, sizeof e->detail, msg);
		return true;
	}
	if (strstr(msg, "TSC found unstable after boot")) {
		e = push(k, KE_BIOS_HINT, ts, msg);
		return e != NULL;
	}
	if ((!strncmp(msg, "tsc: ", 5) || !strncmp(msg, "TSC: ", 5)) &&
	    (strstr(msg, "MHz") || strstr(msg, "calibrat"))) {
		if (!(e = push(k, KE_CALIBRATION, ts, msg)))
			return false;
		copy_text(e->detail, sizeof e->detail, msg + 5);
		return true;
	}
	return false;
}

bool klog_line(struct klog *k, const char *line)
{
	double ts;
	const char *msg;

	if (line[0] == ' ' && strchr(line, '=') && !strchr(line, ':'))
		return false; /* /dev/kmsg's " SUBSYSTEM=…" continuation */
	msg = strip_prefix(line, &ts);
	k->lines++;
	if (ts >= 0 && k->first_ts < 0)
		k->first_ts = ts;
	if (!strncmp(msg, "Linux version ", 14))
		copy_word(k->release, sizeof k->release, msg + 14, " \r\n");
	return clocksource_line(k, msg, ts) || tsc_line(k, msg, ts);
}

void klog_text(struct klog *k, const char *text, size_t n)
{
	char buf[1024];
	size_t i = 0;

	if (!k->n && !k->lines)
		k->first_ts = -1;
	while (i < n) {
		size_t j = i, len;
		while (j < n && text[j] != '\n')
			j++;
		len = j - i < sizeof buf - 1 ? j - i : sizeof buf - 1;
		memcpy(buf, text + i, len);
		buf[len] = 0;
		if (len && memchr(buf, 0, len) == NULL)
			klog_line(k, buf);
		k->cut_line = j == n && len > 0;
		i = j + 1;
	}
}

static char *slurp(int fd, size_t *n, bool records)
{
	size_t cap = 1 << 16, len = 0;
	char *b = malloc(cap);

	while (b) {
		ssize_t r;
		if (cap - len < 8192) {
			char *nb = realloc(b, cap * 2);
			if (!nb)
				break;
			b = nb, cap *= 2;
		}
		r = read(fd, b + len, cap - len - 1);
		if (r < 0 && errno == EPIPE && records)
			continue; /* /dev/kmsg: records overwritten while reading */
		if (r <= 0)
			break;
		len += (size_t)r;
		if (records && b[len - 1] != '\n')
			b[len++] = '\n';
	}
	*n = len;
	return b;
}

int klog_load(struct klog *k, const char *path, char *why, size_t cap)
{
	size_t n = 0;
	char *text = NULL;
	int fd;

	memset(k, 0, sizeof *k);
	k->first_ts = -1;
	if (path) {
		if ((fd = open(path, O_RDONLY)) < 0) {
			snprintf(why, cap, "cannot read %s: %s", path, strerror(errno));
			return -1;
		}
		text = slurp(fd, &n, false);
		snprintf(k->source, sizeof k->source, "%s", path);
		close(fd);
	} else if ((fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK)) >= 0) {
		text = slurp(fd, &n, true);
		snprintf(k->source, sizeof k->source, "/dev/kmsg");
		close(fd);
	} else {
		int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
		if (len <= 0 || !(text = malloc((size_t)len + 1)) ||
		    (len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, text, len)) < 0) {
			snprintf(why, cap, "cannot read the kernel log (/dev/kmsg, syslog): %s; "
				 "give one with --kernel-log FILE (dmesg > FILE)", strerror(errno));
			free(text);
			return -1;
		}
		n = (size_t)len;
		snprintf(k->source, sizeof k->source, "the kernel's syslog buffer");
	}
	if (!text) {
		snprintf(why, cap, "out of memory");
		return -1;
	}
	klog_text(k, text, n);
	free(text);
	return 0;
}

void klog_free(struct klog *k)
{
	free(k->ev);
	memset(k, 0, sizeof *k);
}

const struct klog_event *klog_last(const struct klog *k, enum klog_kind kind)
{
	for (size_t i = k->n; i-- > 0;)
		if (k->ev[i].kind == kind)
			return &k->ev[i];
	return NULL;
}

bool klog_starts_late(const struct klog *k)
{
	/* A boot's log begins at 0.000000; one whose first line is past 60 s
	 * lost its start to the ring buffer (its size, 2^CONFIG_LOG_BUF_SHIFT). */
	return k->first_ts > 60.0;
}
