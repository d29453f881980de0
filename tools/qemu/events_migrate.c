/* SPDX-License-Identifier: BSD-2-Clause */
/* A migration during `tickprobe qemu --event` (events.h): QEMU's own
 * migration into the private directory's state file, then a new QEMU
 * restored from it, which takes over once it runs; the old one quits then,
 * or goes on when the new one did not come up. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools/qemu/events_run.h"
#include "tools/qemu/qemu.h"

/* After a migration that did not end in a new QEMU: the old one goes on
 * (it stays stopped after a completed migration until told). */
static void migration_failed(struct qemu_events *e, const char *why)
{
	const struct lr_node *st;
	char state[64];

	events_say(e, "event %d (migrate) not done: %s", events_current(e)->id, why);
	spawn_proc_drop_successor(e->proc);
	qmp_close(&e->qmp_next);
	qemu_events_path(e->dir, "state", 1, state, sizeof state);
	unlink(state);
	st = qmp_command(&e->qmp, "query-status", NULL, QMP_TIMEOUT_S);
	if (!st || !lr_true(lr_get(st, "running"))) {
		if (events_resume(e))
			events_say(e, "event %d (migrate): the old QEMU goes on", events_current(e)->id);
		else
			events_say(e, "event %d (migrate): the old QEMU did not continue (%s)", events_current(e)->id,
				   e->qmp.err);
	}
	events_advance(e);
}

/* Completed: the new QEMU, restored from the state file. */
static void restore(struct qemu_events *e)
{
	char state[64], why[160];
	struct stat st;
	char **argv;

	qemu_events_path(e->dir, "state", 1, state, sizeof state);
	e->state_bytes = lstat(state, &st) == 0 ? (long long)st.st_size : -1;
	argv = e->argv_for(e->argv_ctx, e->gen + 1);
	if (!argv || !spawn_proc_successor(e->proc, argv)) {
		snprintf(why, sizeof why, "the new QEMU could not start: %s", argv ? strerror(errno) : "no command");
		migration_failed(e, why);
		return;
	}
	qmp_init(&e->qmp_next);
	e->state = EVENTS_RESTORING;
	e->since = qemu_now();
}

void events_migrate_step(struct qemu_events *e)
{
	const struct lr_node *r = qmp_command(&e->qmp, "query-migrate", NULL, QMP_TIMEOUT_S);
	const char *status = r ? lr_str(lr_get(r, "status")) : NULL;
	char why[300];

	if (!r) {
		migration_failed(e, e->qmp.err);
	} else if (status && !strcmp(status, "completed")) {
		e->completed = qemu_now();
		if (!lr_num(lr_get(r, "downtime"), &e->downtime_ms))
			e->downtime_ms = -1;
		restore(e);
	} else if (status && (!strcmp(status, "failed") || !strcmp(status, "cancelled"))) {
		snprintf(why, sizeof why, "the migration %s: %s", status,
			 lr_str(lr_get(r, "error-desc")) ? lr_str(lr_get(r, "error-desc")) : "QEMU does not say why");
		migration_failed(e, why);
	} else if (qemu_now() - e->since > QEMU_EVENT_MIGRATE_S) {
		qmp_command(&e->qmp, "migrate_cancel", NULL, QMP_TIMEOUT_S);
		snprintf(why, sizeof why, "the migration did not complete in %.0f s (cancelled)", QEMU_EVENT_MIGRATE_S);
		migration_failed(e, why);
	}
}

/* The new QEMU runs: it takes over, and the old one quits. */
static void hand_over(struct qemu_events *e)
{
	struct qemu_event *ev = events_current(e);
	double running = qemu_now(), took = running - e->started;
	char state[64], downtime[48];

	qmp_command(&e->qmp, "quit", NULL, QMP_TIMEOUT_S); /* its answer may be lost as it goes */
	qmp_close(&e->qmp);
	e->qmp = e->qmp_next;
	qmp_init(&e->qmp_next);
	events_channel_read(e);
	events_channel_close(e);
	e->gen++;
	events_channel_connect(e);
	qemu_events_path(e->dir, "state", 1, state, sizeof state);
	unlink(state);
	if (!events_channel_send(e, "done %d %.6f\n", ev->id, took))
		events_say(e, "event %d (migrate): the new QEMU's channel cannot be written: the guest was not told",
			   ev->id);
	if (e->downtime_ms >= 0)
		snprintf(downtime, sizeof downtime, "%.0f ms of downtime", e->downtime_ms);
	else
		snprintf(downtime, sizeof downtime, "%s", "its downtime not said");
	/* The guest is stopped from the migration's last part (QEMU's
	 * downtime) until the new QEMU runs. */
	events_say(e, "event %d: migrate at %.1f s of the watch: %.1f MB of state, %.2f s to the new QEMU running "
		   "(migration %.2f s, %s, then %.2f s to restore)", ev->id, e->started - e->t0,
		   (double)e->state_bytes / 1e6, took, e->completed - e->started, downtime, running - e->completed);
	events_advance(e);
}

void events_restore_step(struct qemu_events *e)
{
	const struct lr_node *r;
	char path[64], why[300];

	if (e->proc->successor_died) {
		int st = e->proc->successor_status;
		snprintf(why, sizeof why, "the new QEMU ended before it ran (%s %d)",
			 WIFEXITED(st) ? "exit status" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		migration_failed(e, why);
		return;
	}
	if (qemu_now() - e->since > QEMU_EVENT_RESTORE_S) {
		snprintf(why, sizeof why, "the new QEMU was not running %.0f s after it started", QEMU_EVENT_RESTORE_S);
		migration_failed(e, why);
		return;
	}
	qemu_events_path(e->dir, "qmp", e->gen + 1, path, sizeof path);
	if (e->qmp_next.fd < 0 && !qmp_connect(&e->qmp_next, path, QMP_TIMEOUT_S)) {
		if (!e->qmp_next.absent)
			migration_failed(e, e->qmp_next.err);
		return; /* not listening yet */
	}
	r = qmp_command(&e->qmp_next, "query-status", NULL, QMP_TIMEOUT_S);
	if (!r) {
		migration_failed(e, e->qmp_next.err);
		return;
	}
	if (lr_true(lr_get(r, "running")))
		hand_over(e);
}

