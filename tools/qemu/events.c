/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe qemu --event`: what a SPEC and a guest's line say, and the
 * QEMU arguments each QEMU of the run gets (events.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/qemu/events.h"
#include "probe/options.h"

static bool digit(char c) { return c >= '0' && c <= '9'; }

/* s..end: a decimal of at most 9 digits and 3 decimals, then a unit (none
 * or s, ms, m, h).  Into *us, microseconds. */
static bool parse_time(const char *s, const char *end, int64_t *us)
{
	int64_t whole = 0, milli = 0;
	int nwhole = 0, nfrac = 0;
	int64_t unit_ms = 1000;
	size_t unit_len;

	for (; s < end && digit(*s) && nwhole < 10; s++, nwhole++)
		whole = whole * 10 + (*s - '0');
	if (nwhole == 0 || nwhole > 9)
		return false;
	if (s < end && *s == '.') {
		for (s++; s < end && digit(*s) && nfrac < 4; s++, nfrac++)
			milli = milli * 10 + (*s - '0');
		if (nfrac == 0 || nfrac > 3)
			return false;
	}
	for (int k = nfrac; k < 3; k++)
		milli *= 10;
	unit_len = (size_t)(end - s);
	if (unit_len == 2 && !memcmp(s, "ms", 2))
		unit_ms = 1;
	else if (unit_len == 1 && *s == 'm')
		unit_ms = 60000;
	else if (unit_len == 1 && *s == 'h')
		unit_ms = 3600000;
	else if (unit_len != 0 && !(unit_len == 1 && *s == 's'))
		return false;
	/* In thousandths of the unit, times the unit in ms: microseconds, and
	 * under 2^63 (10^12 thousandths times 3.6 10^6). */
	*us = (whole * 1000 + milli) * unit_ms;
	return true;
}

/* The spec as a message may show it: printable ASCII, cut to fit. */
static void shown(const char *spec, char *out, size_t cap)
{
	size_t n = 0;

	for (; *spec && n + 1 < cap; spec++) {
		if (*spec >= 0x20 && *spec < 0x7f)
			out[n++] = *spec;
		else
			out[n++] = '?';
	}
	out[n] = 0;
}

bool qemu_event_parse(const char *spec, struct qemu_event *e, char *why, size_t cap)
{
	const char *at, *end = spec + strlen(spec);
	char s[sizeof e->spec];

	shown(spec, s, sizeof s);
	memset(e, 0, sizeof *e);
	snprintf(e->spec, sizeof e->spec, "%s", s);
	if (!strncmp(spec, "pause=", 6)) {
		e->kind = QEMU_EVENT_PAUSE;
		at = strchr(spec, '@');
		if (!at || !parse_time(spec + 6, at, &e->duration_us)) {
			snprintf(why, cap, "--event %s: the pause's DURATION is not a time such as 5, 5s, 1.5s, 500ms or 2m", s);
			return false;
		}
		if (e->duration_us < QEMU_EVENT_PAUSE_MIN_US || e->duration_us > QEMU_EVENT_PAUSE_MAX_US) {
			snprintf(why, cap, "--event %s: a pause lasts 0.1 s to 1 h", s);
			return false;
		}
	} else if (!strncmp(spec, "migrate@", 8)) {
		e->kind = QEMU_EVENT_MIGRATE;
		at = spec + 7;
	} else {
		snprintf(why, cap, "--event %s: not pause=DURATION@AT or migrate@AT", s);
		return false;
	}
	if (!parse_time(at + 1, end, &e->at_us)) {
		snprintf(why, cap, "--event %s: AT is not a time such as 20, 20s, 1.5s, 500ms or 2m", s);
		return false;
	}
	if (e->at_us > QEMU_EVENT_AT_MAX_US) {
		snprintf(why, cap, "--event %s: AT is at most 24 h into the watch", s);
		return false;
	}
	return true;
}

void qemu_events_order(struct qemu_event *ev, int n)
{
	/* Insertion sort: stable, and n is at most 8. */
	for (int i = 1; i < n; i++) {
		struct qemu_event e = ev[i];
		int j = i;
		while (j > 0 && ev[j - 1].at_us > e.at_us) {
			ev[j] = ev[j - 1];
			j--;
		}
		ev[j] = e;
	}
	for (int i = 0; i < n; i++)
		ev[i].id = i + 1;
}

bool qemu_event_overlaps(const struct qemu_event *ev, int k)
{
	int64_t end = 0; /* when the event before the one looked at ends, as planned */

	for (int i = 0; i < k; i++) {
		int64_t start = ev[i].at_us > end ? ev[i].at_us : end;
		end = start + ev[i].duration_us;
	}
	return k > 0 && ev[k].at_us < end;
}

bool qemu_events_watch(const struct qemu_event *ev, int n, const char *cmdline, uint32_t *watch_s, char *why,
		       size_t cap)
{
	struct options o;

	options_parse(&o, cmdline);
	*watch_s = o.watch_s;
	if (!o.watch_s) {
		snprintf(why, cap, "--event needs a watch: watch=DURATION in --options, or a preset with one "
			 "(--preset watch)");
		return false;
	}
	for (int i = 0; i < n; i++)
		if (ev[i].at_us >= (int64_t)o.watch_s * 1000000) {
			snprintf(why, cap, "--event %s: AT must come before the watch's end, %u s after it began", ev[i].spec,
				 (unsigned)o.watch_s);
			return false;
		}
	return true;
}

double qemu_events_extra_s(const struct qemu_event *ev, int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += ev[i].kind == QEMU_EVENT_PAUSE ? (double)ev[i].duration_us / 1e6
						    : QEMU_EVENT_MIGRATE_S + QEMU_EVENT_RESTORE_S;
	return s;
}

/* digits (no sign, no leading zero) of at most max_len, as a number. */
static bool whole_number(const char *s, size_t len, size_t max_len, unsigned *out)
{
	unsigned v = 0;

	if (len == 0 || len > max_len || (s[0] == '0' && len > 1))
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!digit(s[i]))
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*out = v;
	return true;
}

enum qemu_event_line qemu_event_line(const char *line, size_t len, unsigned *value)
{
	if (len && line[len - 1] == '\r')
		len--;
	if (len + 1 > QEMU_EVENT_LINE_MAX)
		return QEMU_LINE_BAD;
	for (size_t i = 0; i < len; i++)
		if (line[i] < 0x20 || line[i] > 0x7e)
			return QEMU_LINE_BAD;
	if (len == 9 && !memcmp(line, "watch-end", 9))
		return QEMU_LINE_WATCH_END;
	if (len > 9 && !memcmp(line, "watching ", 9) && whole_number(line + 9, len - 9, 5, value) && *value >= 1 &&
	    *value <= QEMU_EVENT_AT_MAX_US / 1000000)
		return QEMU_LINE_WATCHING;
	if (len > 6 && !memcmp(line, "ready ", 6) && whole_number(line + 6, len - 6, 1, value) && *value >= 1 &&
	    *value <= QEMU_EVENTS_MAX)
		return QEMU_LINE_READY;
	return QEMU_LINE_BAD;
}

void qemu_events_path(const char *dir, const char *name, int gen, char *out, size_t cap)
{
	char n[16] = "";

	if (gen > 1)
		snprintf(n, sizeof n, "%d", gen);
	snprintf(out, cap, "%s/%s%s%s", dir, name, n, strcmp(name, "state") ? ".sock" : "");
}

bool qemu_events_args(const char *dir, int gen, struct qemu_event_args *out)
{
	char qmp[64], chan[64], state[64];

	if (strlen(dir) > sizeof QEMU_EVENTS_DIR_TEMPLATE - 1 || !*dir)
		return false;
	for (const char *p = dir; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || digit(*p) || strchr("/._-", *p)))
			return false;
	qemu_events_path(dir, "qmp", gen, qmp, sizeof qmp);
	qemu_events_path(dir, "events", gen, chan, sizeof chan);
	qemu_events_path(dir, "state", 1, state, sizeof state);
	snprintf(out->qmp, sizeof out->qmp, "unix:%s,server=on,wait=off", qmp);
	snprintf(out->chardev, sizeof out->chardev, "socket,id=events,path=%s,server=on,wait=off", chan);
	snprintf(out->incoming, sizeof out->incoming, "exec:cat %s", state);
	return true;
}
