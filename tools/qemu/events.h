/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe qemu --event`: a pause or a live migration of the VM during the
 * probe's watch, so that the guest can see what its clocks do across it.
 *
 * The host and the guest speak over the guest's second UART (COM2, I/O port
 * 0x2f8), which QEMU joins to a unix socket of the host's: lines of ASCII
 * ending in \n, at most QEMU_EVENT_LINE_MAX bytes.
 *   guest -> host: "watching SECONDS" once, when the watch begins;
 *                  "ready ID" when it has taken its sample before event ID;
 *                  "watch-end" when the watch is over.
 *   host -> guest: "event ID NAME" (ID 1..8 in time order, NAME pause or
 *                  migrate); "done ID SECONDS" when it is over, SECONDS the
 *                  host's time it took ("%.6f").
 * A pause is QMP stop, then cont after the pause's length; a migration is
 * QEMU's own migration into a file, and a new QEMU restored from it
 * (-incoming), which takes over from the old one.
 *
 * This part: the SPEC parser, the guest's lines, and the run
 * (events_run.c), driven from spawn_proc_run's tick. */
#ifndef TOOLS_QEMU_EVENTS_H
#define TOOLS_QEMU_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tools/lib/progress.h"
#include "tools/qemu/qmp.h"

struct spawn_proc;

#define QEMU_EVENTS_MAX 8
#define QEMU_EVENT_LINE_MAX 64       /* a channel line, its \n included */
#define QEMU_EVENT_AT_MAX_US (24LL * 3600 * 1000000)
#define QEMU_EVENT_PAUSE_MIN_US 100000LL
#define QEMU_EVENT_PAUSE_MAX_US (3600LL * 1000000)
#define QEMU_EVENTS_PORT "0x2f8"     /* COM2: the probe's option events=PORT */
#define QEMU_EVENTS_DIR_TEMPLATE "/tmp/tickprobe-qemu-XXXXXX"
#define QEMU_EVENT_READY_S 30.0      /* the guest's "ready" must come within this */
#define QEMU_EVENT_MIGRATE_S 60.0    /* migrate sent to completed */
#define QEMU_EVENT_RESTORE_S 30.0    /* the new QEMU started to running */

enum qemu_event_kind { QEMU_EVENT_PAUSE, QEMU_EVENT_MIGRATE };

struct qemu_event {
	enum qemu_event_kind kind;
	int64_t at_us;       /* from the guest's "watching" */
	int64_t duration_us; /* a pause's length; 0 for a migration */
	int id;              /* 1..n in AT order (qemu_events_order) */
	char spec[48];       /* as given, for messages */
};

/* One --event SPEC: "pause=DURATION@AT" or "migrate@AT".  DURATION and AT
 * are a decimal number of at most 3 decimals and a unit: none or s
 * (seconds), ms, m or h; AT 0 to 24 h, DURATION 0.1 s to 1 h.  False with
 * why[] said when it is not one. */
bool qemu_event_parse(const char *spec, struct qemu_event *e, char *why, size_t cap);

/* Sorts the n events by AT (keeping the order given among equal ones) and
 * numbers them 1..n. */
void qemu_events_order(struct qemu_event *ev, int n);

/* Whether event k (k >= 1, ordered) is due while event k-1, a pause, still
 * goes on, so that it can only start when that pause is over.  A migration's
 * length is not known beforehand: it never counts as overlapping here (the
 * run says so when it happens). */
bool qemu_event_overlaps(const struct qemu_event *ev, int k);

/* The watch the probe will run with cmdline (its options, the preset's
 * words first, as the probe reads them): its length into *watch_s.  False
 * with why[] said when there is none, or an event would come at or after
 * its end. */
bool qemu_events_watch(const struct qemu_event *ev, int n, const char *cmdline, uint32_t *watch_s, char *why,
		       size_t cap);

/* --timeout's default grows by what the events add: the pauses' lengths,
 * and per migration its bounds. */
double qemu_events_extra_s(const struct qemu_event *ev, int n);

/* A line from the guest, its \n taken off (one \r before it is allowed). */
enum qemu_event_line {
	QEMU_LINE_BAD,      /* not the protocol's: ignored and counted */
	QEMU_LINE_WATCHING, /* *value: the watch's seconds, 1..24 h */
	QEMU_LINE_READY,    /* *value: the event's id, 1..QEMU_EVENTS_MAX */
	QEMU_LINE_WATCH_END,
};
enum qemu_event_line qemu_event_line(const char *line, size_t len, unsigned *value);

/* The private directory's QEMU arguments for one QEMU of the run: gen 1 is
 * the first, gen 2 the one restored from the first migration, and so on. */
struct qemu_event_args {
	char qmp[96], chardev[128], incoming[96];
};
/* False when dir is not a path of [A-Za-z0-9/._-] only, which an exec:
 * migration URI (run by a shell) could not hold safely. */
bool qemu_events_args(const char *dir, int gen, struct qemu_event_args *out);
/* A file of the private directory: name "qmp" or "events" (gen's socket,
 * "qmp.sock", "qmp2.sock", ...), or "state" (the migration's). */
void qemu_events_path(const char *dir, const char *name, int gen, char *out, size_t cap);

/* A run's events, and where they stand.  Owned by the boot; the tick of
 * spawn_proc_run drives it (events_run.c). */
enum qemu_events_state {
	EVENTS_WAIT_WATCH, /* until the guest says "watching" */
	EVENTS_WAIT_AT,    /* until the next event's time */
	EVENTS_WAIT_READY, /* "event" sent; until "ready" */
	EVENTS_PAUSED,     /* stopped; until cont is due */
	EVENTS_MIGRATING,  /* migrate sent; until completed */
	EVENTS_RESTORING,  /* the new QEMU started; until it runs */
	EVENTS_OVER,       /* every event done, or the watch over */
};

/* Builds the QEMU command of generation gen (2, 3, ... : restored with
 * -incoming); NULL when it cannot. */
typedef char **(*qemu_events_argv_fn)(void *ctx, int gen);

struct qemu_events {
	struct qemu_event ev[QEMU_EVENTS_MAX];
	int n;
	uint32_t watch_s;             /* the watch's length as the options say */
	char dir[sizeof QEMU_EVENTS_DIR_TEMPLATE];
	bool have_dir;
	int gen;                      /* the QEMU running: 1, then one more per migration */
	struct spawn_proc *proc;
	qemu_events_argv_fn argv_for;
	void *argv_ctx;
	struct progress *prog;        /* cleared before each message */
	/* the channel */
	int chan;
	char line[QEMU_EVENT_LINE_MAX];
	size_t len;
	bool overlong;
	unsigned bad_lines;
	/* QMP: the running QEMU's, and the new one's during a migration */
	struct qmp qmp, qmp_next;
	/* where the run stands */
	enum qemu_events_state state;
	int next;                     /* index of the event due next, or going on */
	bool watching;
	bool watch_ended;             /* "watch-end": nothing more is sent */
	bool finished;                /* qemu_events_finish has run */
	double t0;                    /* when the guest said "watching" */
	double busy_until;            /* when the last event ended (0: none yet) */
	double since;                 /* when the current step began */
	double started;               /* stop or migrate sent */
	double cont_at;
	long long state_bytes;        /* the migration's state file */
	double completed;             /* when QEMU said the migration completed */
	double downtime_ms;           /* QEMU's downtime of the migration; < 0: not said */
};

/* Before the boot: ev[0..n) set, watch_s checked (qemu_events_watch).
 * Orders them, says which will wait for a pause before them, and makes the
 * private directory (not for a dry run: its commands show the template).
 * False with the reason on stderr. */
bool qemu_events_start(struct qemu_events *e, bool dry_run);
/* spawn_proc_run's tick: reads the channel, moves the events on. */
void qemu_events_tick(struct qemu_events *e);
/* After QEMU ended, whichever way: says what was not done, closes the
 * sockets and removes the private directory.  Once; later calls do
 * nothing. */
void qemu_events_finish(struct qemu_events *e);

#endif
