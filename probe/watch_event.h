/* SPDX-License-Identifier: BSD-2-Clause */
/* What a guest's clocks did across a VM event (a pause, a live migration)
 * that came during the watch (probe/watch.h).
 *
 * The host says on a line of its own (probe/watch_channel.h) that an event
 * is about to happen; the watch reads every clock at once and measures each
 * other CPU's TSC offset, says it is ready, and does both again when the
 * host says the event is over, with how long it took by the host's clock.
 * Between the two looks each clock advanced by some time, read at its rate
 * as the watch has measured it so far (so a clock that merely runs fast is
 * not said to jump).  Their median is the guest's time across the event;
 * a clock that advanced more or less than that, beyond what its reads can
 * tell apart, jumped; one whose count went back stepped backwards; a CPU
 * whose TSC offset from the boot CPU changed had its TSC moved on its own.
 * The host's figure says whether the guest's clocks counted the event at
 * all: paused or migrated under TCG they stand still, and the guest comes
 * out behind the host's time by about as long as the event took.
 *
 * Plain C, no hardware: the image's watch (probe/run_watch_events.c) feeds
 * it, the host unit tests feed it made-up reads, and `tickprobe show`
 * rebuilds it from the log's watch_event record to say the same words. */
#ifndef PROBE_WATCH_EVENT_H
#define PROBE_WATCH_EVENT_H

#include <stdbool.h>
#include <stdint.h>
#include "probe/watch.h"

#define WATCH_MAX_EVENTS 8
#define WATCH_EVENT_NAME 12
/* A clock whose advance differs from the consensus's by more than this
 * share of it, besides its reads' jitter, jumped: what the rate measured so
 * far may still be off by over the event. */
#define WATCH_EVENT_RATE_TOLERANCE 10e-6

enum watch_event_state {
	WATCH_EVENT_NONE = 0,
	WATCH_EVENT_ANNOUNCED, /* the look before it is taken; the host has not said it ended */
	WATCH_EVENT_DONE,      /* both looks taken */
	WATCH_EVENT_UNFINISHED /* the watch ended before the host said the event was over */
};

/* One CPU's TSC offset from the boot CPU, before and after. */
struct watch_event_cpu {
	unsigned cpu;
	bool measured; /* both offsets measured */
	double before_cycles, after_cycles;
	double u_cycles; /* the two measurements' bounds, added */
};

struct watch_event {
	unsigned id;
	char name[WATCH_EVENT_NAME];
	enum watch_event_state state;
	double at_s, end_s; /* the two looks, since the watch began */
	double host_s;      /* how long the host says it took; < 0: not said */
	struct watch_read before[WATCH_MAX_CLOCKS], after[WATCH_MAX_CLOCKS];
	/* Each clock as the watch knew it when the event began: counts per
	 * second (the TSC's by the consensus), its rate against the consensus,
	 * one count's length, and one read's jitter. */
	double hz[WATCH_MAX_CLOCKS];
	double rate_ppm[WATCH_MAX_CLOCKS];
	double tick_s[WATCH_MAX_CLOCKS];
	double sigma_s[WATCH_MAX_CLOCKS];
	double tsc_hz; /* cycles a second, for the CPUs' offsets */
	unsigned n_cpus;
	struct watch_event_cpu cpus[WATCH_MAX_CPUS];
};

/* What the two looks say; watch_event_conclude fills it in. */
struct watch_event_verdict {
	unsigned n;                           /* clocks */
	double guest_s;                       /* the clocks' median advance: the guest's time across it */
	double advance_s[WATCH_MAX_CLOCKS];   /* each clock's, at its rate */
	double jump_s[WATCH_MAX_CLOCKS];      /* advance minus the median */
	double tolerance_s[WATCH_MAX_CLOCKS]; /* a jump within it is none */
	bool backward[WATCH_MAX_CLOCKS];      /* its count went back */
	double cpu_jump_cycles[WATCH_MAX_CPUS];
	double cpu_tolerance_cycles[WATCH_MAX_CPUS];
	bool cpu_backward[WATCH_MAX_CPUS];    /* that CPU's TSC went back */
	unsigned jumps;                       /* clocks and CPUs that moved on their own */
	bool counted;                         /* the guest's time covered the host's (host_s known) */
};

/* The watch's events, as the image keeps them, and the host's line. */
struct watch_events {
	uint16_t port;       /* events=PORT; 0: not asked for */
	bool open;           /* a UART answered there */
	const char *problem; /* why not, when it did not */
	unsigned n;
	struct watch_event ev[WATCH_MAX_EVENTS];
	unsigned refused;    /* announcements beyond WATCH_MAX_EVENTS, or out of turn */
	unsigned bad_lines;  /* lines from the host that were none of its own */
};

/* A new event announced by the host: the look before it is r (every clock
 * of w); rates and the consensus taken from w as they stand.  NULL when
 * there is no room, or one is still going on. */
struct watch_event *watch_event_begin(struct watch_events *e, const struct watch *w, unsigned id, const char *name,
				      double t_s, const struct watch_read *r);
/* The event going on, or NULL. */
struct watch_event *watch_event_current(struct watch_events *e);
/* The look after it; host_s < 0 when the host did not say. */
void watch_event_end(struct watch_event *ev, double t_s, const struct watch_read *r, double host_s);
/* The watch ended with the event still going on. */
void watch_event_unfinished(struct watch_event *ev);
/* A CPU's offset before (after = false) or after the event. */
void watch_event_cpu_offset(struct watch_event *ev, unsigned cpu, bool after, double offset_cycles,
			    double uncertainty_cycles);
void watch_event_conclude(const struct watch_event *ev, unsigned n_clocks, struct watch_event_verdict *v);
/* What a guest saw, in a sentence: "pause 1 (5.000 s by the host): the
 * guest's clocks stood still ...; nothing moved: ...". names: the clocks'. */
void watch_event_text(const struct watch_event *ev, const struct watch_event_verdict *v,
		      const char *const *names, char *buf, unsigned cap);

#endif
