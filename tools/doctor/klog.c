/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading the kernel log (klog.h): the prefix of each format, the file or
 * the system's buffer, and the questions asked of the events.  The wordings
 * themselves are matched in klog_match.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tools/doctor/klog.h"

static const char *const kind_names[KE_KINDS] = {
	"watchdog-unstable", "frequency-skew", "inter-cpu-skew", "readback-delay", "read-timeout",
	"remote-timeout", "readback-skipped", "long-readout", "cpu-check", "tsc-unstable",
	"boot-parameter", "sync-failed", "tsc-adjust", "switched", "calibration", "bios-hint",
};

const char *klog_kind_name(enum klog_kind k)
{
	return k < KE_KINDS ? kind_names[k] : "?";
}

void klog_copy_word(char *out, size_t cap, const char *s, const char *stops)
{
	size_t n = 0;

	while (s && *s && !strchr(stops, *s) && n + 1 < cap)
		out[n++] = *s++;
	out[n] = 0;
}

void klog_copy_text(char *out, size_t cap, const char *s)
{
	size_t n = strcspn(s, "\r\n");

	if (n >= cap)
		n = cap - 1;
	memcpy(out, s, n);
	out[n] = 0;
}

/* /dev/kmsg's "LEVEL,SEQ,USEC,FLAGS[,...];MESSAGE": the message, *ts in s. */
static const char *kmsg_record(const char *s, double *ts)
{
	const char *semi = strchr(s, ';');
	char *end;
	unsigned long long usec;

	strtoull(s, &end, 10);
	if (*end != ',')
		return NULL;
	strtoull(end + 1, &end, 10);
	if (*end != ',')
		return NULL;
	usec = strtoull(end + 1, &end, 10);
	if (*end != ',' || !semi)
		return NULL;
	*ts = (double)usec / 1e6;
	return semi + 1;
}

/* Takes off the prefix of each format: dmesg's "[   12.345678] ",
 * /dev/kmsg's "6,339,5140900,-;" (us), journalctl's and syslog's "... host
 * kernel: " (then often dmesg's).  Returns the message, *ts its time or -1. */
static const char *strip_prefix(const char *s, double *ts)
{
	const char *p;
	char *end;

	*ts = -1;
	if (!strncmp(s, "kernel: ", 8))
		s += 8;
	else if ((p = strstr(s, " kernel: ")) && p - s < 64)
		s = p + 9;
	while (*s == ' ')
		s++;
	if (*s >= '0' && *s <= '9' && (p = kmsg_record(s, ts)))
		return p;
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

struct klog_event *klog_push(struct klog *k, enum klog_kind kind, double ts, const char *msg)
{
	struct klog_event *e;

	if (k->n == KLOG_MAX_EVENTS) {
		size_t half = KLOG_MAX_EVENTS / 2;
		memmove(k->ev, k->ev + half, (k->n - half) * sizeof *k->ev);
		k->n -= half;
		k->dropped += half;
	}
	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 32;
		struct klog_event *ev = realloc(k->ev, cap * sizeof *ev);
		if (!ev)
			return NULL;
		k->ev = ev;
		k->cap = cap;
	}
	e = &k->ev[k->n++];
	memset(e, 0, sizeof *e);
	e->kind = kind;
	e->ts = ts;
	e->cpu = -1;
	e->cpu2 = -1;
	e->cs_ns = -1;
	e->wd_ns = -1;
	klog_copy_text(e->line, sizeof e->line, msg);
	k->last_event_line = k->lines;
	return e;
}

bool klog_line(struct klog *k, const char *line)
{
	double ts;
	const char *msg;

	if (line[0] == ' ' && strchr(line, '=') && !strchr(line, ':'))
		return false; /* /dev/kmsg's " SUBSYSTEM=..." continuation */
	msg = strip_prefix(line, &ts);
	k->lines++;
	if (ts >= 0 && k->first_ts < 0)
		k->first_ts = ts;
	if (!strncmp(msg, "Linux version ", 14))
		klog_copy_word(k->release, sizeof k->release, msg + 14, " \r\n");
	return klog_match_watchdog(k, msg, ts) || klog_match_tsc(k, msg, ts);
}

void klog_text(struct klog *k, const char *text, size_t n)
{
	char buf[1024];
	size_t i = 0;

	if (!k->n && !k->lines)
		k->first_ts = -1;
	while (i < n) {
		size_t j = i;
		size_t len;
		while (j < n && text[j] != '\n')
			j++;
		len = j - i < sizeof buf - 1 ? j - i : sizeof buf - 1;
		k->cut_line = j == n && j > i;
		if (j > i) {
			memcpy(buf, text + i, len);
			buf[len] = 0;
			if (!memchr(buf, 0, len))
				klog_line(k, buf);
		}
		i = j + 1;
	}
}

static char *slurp(int fd, size_t *n, bool records)
{
	size_t cap = 1 << 16, len = 0;
	char *b = malloc(cap);

	while (b) {
		ssize_t r;
		if (len >= KLOG_MAX_BYTES)
			break;
		if (cap - len < 8192) {
			char *nb = realloc(b, cap * 2);
			if (!nb)
				break;
			b = nb;
			cap *= 2;
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

/* A file's last KLOG_MAX_BYTES, from its first whole line. */
static char *slurp_tail(struct klog *k, int fd, size_t *n)
{
	struct stat st;
	char *text;
	char *nl;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (unsigned long long)st.st_size > KLOG_MAX_BYTES &&
	    lseek(fd, st.st_size - (off_t)KLOG_MAX_BYTES, SEEK_SET) >= 0)
		k->skipped_bytes = (unsigned long long)st.st_size - KLOG_MAX_BYTES;
	text = slurp(fd, n, false);
	if (!text || !k->skipped_bytes || !(nl = memchr(text, '\n', *n)))
		return text;
	*n -= (size_t)(nl + 1 - text);
	memmove(text, nl + 1, *n);
	return text;
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
		text = slurp_tail(k, fd, &n);
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

int klog_watchdog_2026(const struct klog *k)
{
	for (size_t i = k->n; i-- > 0;) {
		switch (k->ev[i].kind) {
		case KE_FREQ_SKEW:
		case KE_CPU_SKEW:
		case KE_READ_TIMEOUT:
		case KE_REMOTE_TIMEOUT:
			return 1;
		case KE_WATCHDOG_UNSTABLE:
		case KE_READBACK_DELAY:
		case KE_READBACK_SKIP:
		case KE_LONG_READOUT:
		case KE_CPU_CHECK:
			return 0;
		default:
			break;
		}
	}
	return -1;
}

bool klog_skew_ppm(const struct klog_event *e, double *ppm)
{
	if (e->cs_ns < 0 || e->wd_ns <= 0)
		return false;
	*ppm = (e->cs_ns - e->wd_ns) / e->wd_ns * 1e6;
	return true;
}
