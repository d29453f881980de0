/* SPDX-License-Identifier: BSD-2-Clause */
/* What the two halves of the events' run share (events.h): events_run.c,
 * the channel to the guest, the pauses and the tick; events_migrate.c, a
 * migration and the new QEMU that takes over. */
#ifndef TOOLS_QEMU_EVENTS_RUN_H
#define TOOLS_QEMU_EVENTS_RUN_H

#include "tools/qemu/events.h"

/* "tickprobe qemu: " and the message on stderr, the progress line cleared. */
void events_say(struct qemu_events *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *events_name(const struct qemu_event *ev);
/* The event due next, or going on. */
struct qemu_event *events_current(struct qemu_events *e);

/* The running QEMU's channel socket (events.sock, events2.sock, ...). */
void events_channel_connect(struct qemu_events *e);
void events_channel_close(struct qemu_events *e);
/* One line to the guest; false when it could not be written whole. */
bool events_channel_send(struct qemu_events *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whatever the guest wrote since the last call, line by line. */
void events_channel_read(struct qemu_events *e);

/* The running QEMU's QMP connection, made when there is none. */
bool events_qmp_ready(struct qemu_events *e);
/* cont, and once more on a new connection when the first failed. */
bool events_resume(struct qemu_events *e);
/* The event going on is over, done or not: on to the next. */
void events_advance(struct qemu_events *e);

/* EVENTS_MIGRATING and EVENTS_RESTORING, one step each tick. */
void events_migrate_step(struct qemu_events *e);
void events_restore_step(struct qemu_events *e);

#endif
