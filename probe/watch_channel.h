/* SPDX-License-Identifier: BSD-2-Clause */
/* The line between the watch and the host its VM runs on (events=PORT):
 * the host announces a VM event before it does it and says when it is
 * over, so that the watch can look at every clock on either side of it
 * (probe/watch_event.h).  Lines of ASCII ending in a newline, at most
 * WATCH_CHANNEL_LINE bytes:
 *
 *   guest to host:  "watching SECONDS"   the watch began; its length
 *                   "ready ID"           the look before event ID is taken
 *                   "watch-end"          no more events will be answered
 *   host to guest:  "event ID NAME"      event ID (1..WATCH_MAX_EVENTS) comes next
 *                   "done ID SECONDS"    it is over; how long it took by the host's clock
 *
 * NAME: 1 to WATCH_EVENT_NAME - 1 of a-z, 0-9, '-' and '_'; SECONDS: digits, and
 * at most nine decimals after a point.  Anything else from the host is a
 * bad line, counted and otherwise ignored.  Plain C: the image feeds it the
 * bytes its UART received; the host unit tests feed it text. */
#ifndef PROBE_WATCH_CHANNEL_H
#define PROBE_WATCH_CHANNEL_H

#include <stdbool.h>
#include "probe/watch_event.h"

#define WATCH_CHANNEL_LINE 64

enum watch_channel_kind { WATCH_CHANNEL_EVENT = 1, WATCH_CHANNEL_DONE };

struct watch_channel_msg {
	enum watch_channel_kind kind;
	unsigned id;
	char name[WATCH_EVENT_NAME];
	double seconds;
};

struct watch_channel {
	char line[WATCH_CHANNEL_LINE + 1];
	unsigned len;
	bool spoilt;   /* the line being received is too long or holds a NUL: dropped whole */
	unsigned bad;  /* lines that were not one of the host's */
};

/* One byte from the host; true when it ended a good line, which is in *m. */
bool watch_channel_byte(struct watch_channel *c, char byte, struct watch_channel_msg *m);
/* A whole line (without its newline) from the host; false for a bad one. */
bool watch_channel_parse(const char *line, struct watch_channel_msg *m);

#endif
