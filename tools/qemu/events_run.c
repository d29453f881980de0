/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe qemu --event` while QEMU runs (events.h): the channel to the
 * guest, and each event taken one step a tick, so that nothing here waits
 * longer than one QMP answer (QMP_TIMEOUT_S) and QEMU's end, the deadline
 * and Ctrl-C are seen between steps. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools/qemu/events_run.h"
#include "tools/qemu/qemu.h"

#define CHANNEL_READ_MAX 65536 /* bytes a tick reads: a guest that floods COM2 costs a bounded time */
#define DUE_SLACK_S 0.5        /* later than its time by more: "starts at ..., not ..." */

void events_say(struct qemu_events *e, const char *fmt, ...)
{
	va_list ap;

	if (e->prog)
		progress_clear(e->prog);
	fprintf(stderr, "tickprobe qemu: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
}

const char *events_name(const struct qemu_event *ev) { return ev->kind == QEMU_EVENT_PAUSE ? "pause" : "migrate"; }

struct qemu_event *events_current(struct qemu_events *e) { return &e->ev[e->next]; }

bool qemu_events_start(struct qemu_events *e, bool dry_run)
{
	qemu_events_order(e->ev, e->n);
	for (int k = 1; k < e->n; k++)
		if (qemu_event_overlaps(e->ev, k))
			events_say(e, "--event %s comes while the pause before it goes on: it will start when that one "
				   "ended", e->ev[k].spec);
	e->chan = -1;
	qmp_init(&e->qmp);
	qmp_init(&e->qmp_next);
	e->gen = 1;
	e->state = EVENTS_WAIT_WATCH;
	snprintf(e->dir, sizeof e->dir, "%s", QEMU_EVENTS_DIR_TEMPLATE);
	if (dry_run)
		return true;
	if (!mkdtemp(e->dir)) { /* mode 0700 */
		events_say(e, "cannot make a private directory %s: %s", QEMU_EVENTS_DIR_TEMPLATE, strerror(errno));
		return false;
	}
	e->have_dir = true;
	return true;
}

/* ---- the channel ------------------------------------------------------------ */

void events_channel_close(struct qemu_events *e)
{
	if (e->chan >= 0)
		close(e->chan);
	e->chan = -1;
	e->len = 0;
	e->overlong = false;
}

void events_channel_connect(struct qemu_events *e)
{
	char path[64];

	qemu_events_path(e->dir, "events", e->gen, path, sizeof path);
	e->chan = qemu_unix_connect(path);
	e->len = 0;
	e->overlong = false;
}

bool events_channel_send(struct qemu_events *e, const char *fmt, ...)
{
	char line[QEMU_EVENT_LINE_MAX + 1];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (e->chan < 0 || n <= 0 || (size_t)n >= sizeof line ||
	    send(e->chan, line, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) != n)
		return false;
	return true;
}

static void begin_event(struct qemu_events *e);

/* What the other events become once the watch is over. */
static void watch_over(struct qemu_events *e)
{
	if (e->state == EVENTS_WAIT_READY) {
		events_say(e, "event %d (%s) not done: the watch ended before the guest answered",
			   events_current(e)->id, events_name(events_current(e)));
		e->next++;
	} else if (e->state == EVENTS_PAUSED || e->state == EVENTS_MIGRATING || e->state == EVENTS_RESTORING) {
		e->watch_ended = true; /* the one going on ends first: events_advance() comes back here */
		return;
	}
	for (; e->next < e->n; e->next++) {
		const struct qemu_event *ev = events_current(e);
		events_say(e, "event %d (%s at %.1f s) not sent: the watch ended first", ev->id, events_name(ev),
			   (double)ev->at_us / 1e6);
	}
	e->watch_ended = true;
	e->state = EVENTS_OVER;
}

static void take_line(struct qemu_events *e, const char *line, size_t len)
{
	unsigned v;

	switch (qemu_event_line(line, len, &v)) {
	case QEMU_LINE_WATCHING:
		if (e->watching) {
			e->bad_lines++; /* once only */
			break;
		}
		e->watching = true;
		e->t0 = qemu_now();
		e->state = EVENTS_WAIT_AT;
		if (v != e->watch_s)
			events_say(e, "the guest's watch is %u s long, not the %u s its options say; the events keep "
				   "their times", v, (unsigned)e->watch_s);
		break;
	case QEMU_LINE_READY:
		if (e->state == EVENTS_WAIT_READY && (int)v == events_current(e)->id && !e->finished)
			begin_event(e);
		else
			e->bad_lines++; /* out of turn, after the host gave up on it, or after QEMU ended */
		break;
	case QEMU_LINE_WATCH_END:
		if (!e->watch_ended)
			watch_over(e);
		break;
	default:
		e->bad_lines++;
		break;
	}
}

/* Whatever the guest wrote since the last tick; a line longer than the
 * protocol's is one bad line. */
void events_channel_read(struct qemu_events *e)
{
	char buf[512];
	size_t total = 0;

	while (e->chan >= 0 && total < CHANNEL_READ_MAX) {
		ssize_t got = read(e->chan, buf, sizeof buf);
		if (got < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (got <= 0) { /* QEMU closed it (it ended): reconnected next tick */
			events_channel_close(e);
			return;
		}
		total += (size_t)got;
		for (ssize_t i = 0; i < got; i++) {
			if (buf[i] != '\n') {
				if (e->len < sizeof e->line)
					e->line[e->len++] = buf[i];
				else
					e->overlong = true;
				continue;
			}
			if (e->overlong)
				e->bad_lines++;
			else
				take_line(e, e->line, e->len);
			e->len = 0;
			e->overlong = false;
		}
	}
}

/* ---- the events --------------------------------------------------------------- */

void events_advance(struct qemu_events *e)
{
	e->next++;
	e->busy_until = qemu_now();
	e->state = EVENTS_WAIT_AT;
	if (e->watch_ended)
		watch_over(e);
}

bool events_qmp_ready(struct qemu_events *e)
{
	char path[64];

	if (e->qmp.fd >= 0)
		return true;
	qemu_events_path(e->dir, "qmp", e->gen, path, sizeof path);
	return qmp_connect(&e->qmp, path, QMP_TIMEOUT_S);
}

static void not_done(struct qemu_events *e, const char *why)
{
	events_say(e, "event %d (%s) not done: %s", events_current(e)->id, events_name(events_current(e)), why);
	events_advance(e);
}

/* The next event's time has come: ask the guest for its sample. */
static void due(struct qemu_events *e)
{
	struct qemu_event *ev;
	double at, now = qemu_now();

	if (e->next >= e->n) {
		e->state = EVENTS_OVER;
		return;
	}
	ev = events_current(e);
	at = e->t0 + (double)ev->at_us / 1e6;
	if (now < at)
		return;
	if (e->busy_until > at && now - at > DUE_SLACK_S)
		events_say(e, "event %d (%s) starts at %.1f s of the watch, not %.1f s: event %d went on until then",
			   ev->id, events_name(ev), now - e->t0, at - e->t0, ev->id - 1);
	if (!events_channel_send(e, "event %d %s\n", ev->id, events_name(ev))) {
		not_done(e, "the guest's channel cannot be written");
		return;
	}
	e->state = EVENTS_WAIT_READY;
	e->since = now;
}

static void begin_event(struct qemu_events *e)
{
	struct qemu_event *ev = events_current(e);
	char state[64], args[128];

	if (!events_qmp_ready(e)) {
		not_done(e, e->qmp.err);
		return;
	}
	e->started = qemu_now();
	if (ev->kind == QEMU_EVENT_PAUSE) {
		if (!qmp_command(&e->qmp, "stop", NULL, QMP_TIMEOUT_S)) {
			not_done(e, e->qmp.err);
			return;
		}
		e->cont_at = qemu_now() + (double)ev->duration_us / 1e6;
		e->state = EVENTS_PAUSED;
		return;
	}
	qemu_events_path(e->dir, "state", 1, state, sizeof state);
	snprintf(args, sizeof args, "{\"uri\":\"exec:cat > %s\"}", state); /* dir: [A-Za-z0-9/._-] only */
	if (!qmp_command(&e->qmp, "migrate", args, QMP_TIMEOUT_S)) {
		not_done(e, e->qmp.err);
		return;
	}
	e->state = EVENTS_MIGRATING;
	e->since = qemu_now();
}

bool events_resume(struct qemu_events *e)
{
	if (qmp_command(&e->qmp, "cont", NULL, QMP_TIMEOUT_S))
		return true;
	qmp_close(&e->qmp);
	return events_qmp_ready(e) && qmp_command(&e->qmp, "cont", NULL, QMP_TIMEOUT_S);
}

static void pause_step(struct qemu_events *e)
{
	struct qemu_event *ev = events_current(e);
	double left = e->cont_at - qemu_now(), took;

	if (left > 2 * e->proc->tick_s)
		return;
	if (left > 0) /* the last part to the microsecond, not to the next tick */
		usleep((useconds_t)(left * 1e6));
	if (!events_resume(e)) {
		events_say(e, "event %d (pause): QEMU did not continue (%s): the guest stays stopped until the timeout",
			   ev->id, e->qmp.err);
		e->next++; /* the others cannot come: finish says so */
		e->state = EVENTS_OVER;
		return;
	}
	took = qemu_now() - e->started;
	if (!events_channel_send(e, "done %d %.6f\n", ev->id, took))
		events_say(e, "event %d (pause): the guest's channel cannot be written: it was not told", ev->id);
	events_say(e, "event %d: pause for %.1f s at %.1f s of the watch: stop to cont %.3f s", ev->id,
		   (double)ev->duration_us / 1e6, e->started - e->t0, took);
	events_advance(e);
}

void qemu_events_tick(struct qemu_events *e)
{
	if (!e->have_dir)
		return;
	if (e->chan < 0)
		events_channel_connect(e);
	if (e->qmp.fd < 0 && (e->qmp.absent || !e->qmp.err[0])) /* early, while QEMU starts; not again if it failed */
		events_qmp_ready(e);
	events_channel_read(e);
	switch (e->state) {
	case EVENTS_WAIT_AT:
		due(e);
		break;
	case EVENTS_WAIT_READY:
		if (qemu_now() - e->since > QEMU_EVENT_READY_S)
			not_done(e, "the guest did not answer in 30 s (does the probe listen? events=" QEMU_EVENTS_PORT ")");
		break;
	case EVENTS_PAUSED:
		pause_step(e);
		break;
	case EVENTS_MIGRATING:
		events_migrate_step(e);
		break;
	case EVENTS_RESTORING:
		events_restore_step(e);
		break;
	default:
		break;
	}
	/* Finer while the watch runs: an event's time, the guest's answer and
	 * the end of a pause are seen within 50 ms. */
	e->proc->tick_s = e->watching && e->state != EVENTS_OVER ? 0.05 : 0.25;
}

/* Everything QEMU left in the private directory, then the directory. */
static void remove_dir(struct qemu_events *e)
{
	int fd = open(e->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	if (!d && fd >= 0)
		close(fd);
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(fd, de->d_name, 0);
	if (d)
		closedir(d);
	if (rmdir(e->dir) != 0)
		events_say(e, "cannot remove %s: %s", e->dir, strerror(errno));
}

void qemu_events_finish(struct qemu_events *e)
{
	const char *going_on = NULL; /* why the event going on, if one was, is not done */

	if (e->finished || !e->have_dir)
		return;
	e->finished = true;
	events_channel_read(e); /* its last lines: read, but no event begins now (take_line) */
	if (e->state == EVENTS_WAIT_READY)
		going_on = "QEMU ended while the host waited for the guest's answer";
	else if (e->state == EVENTS_PAUSED || e->state == EVENTS_MIGRATING || e->state == EVENTS_RESTORING)
		going_on = "QEMU ended while it went on";
	for (; e->next < e->n; e->next++) {
		const char *why = going_on ? going_on : "QEMU ended before its time";
		if (!e->watching)
			why = "the guest never said its watch began (does the probe listen? events=" QEMU_EVENTS_PORT ")";
		events_say(e, "event %d (%s) not done: %s", events_current(e)->id, events_name(events_current(e)), why);
		going_on = NULL;
	}
	if (e->bad_lines)
		events_say(e, "%u line%s from the guest on the event channel ignored: not the protocol's, or out of turn",
			   e->bad_lines, e->bad_lines == 1 ? "" : "s");
	events_channel_close(e);
	qmp_close(&e->qmp);
	qmp_close(&e->qmp_next);
	remove_dir(e);
	e->have_dir = false;
}
