/* SPDX-License-Identifier: BSD-2-Clause */
/* The clocks across a VM event (probe/watch_event.c), on made-up reads
 * with known answers: clocks that stood still, clocks that counted the
 * event, one that jumped, one that went back, a counter that merely runs
 * fast, another CPU's TSC moved; and the host's lines
 * (probe/watch_channel.c), good and bad. */
#include <math.h>
#include <string.h>
#include "probe/watch_channel.h"
#include "probe/watch_event.h"
#include "tests/unit/check.h"

#define TSC_HZ 2e9
#define N_CLOCKS 4

static const char *const names[N_CLOCKS] = { "tsc", "hpet", "pm_timer", "pit" };
static const double nominal[N_CLOCKS] = { 0, 100e6, 3579545, 1193182 };

/* Every clock read at true time t, counter i running ppm[i] fast, plus
 * shift_s[i] seconds it jumped. */
/* One sample at time t: clock i is read lag_s after clock i-1, and each
 * read is stamped with the TSC at its moment (a step of the TSC moves the
 * stamps too, as they are its readings). */
static void look_spread(double t, const double *ppm, const double *shift_s, double lag_s, struct watch_read *r)
{
	memset(r, 0, WATCH_MAX_CLOCKS * sizeof *r);
	r[0].tsc = (uint64_t)((t + shift_s[0]) * TSC_HZ);
	r[0].count = (double)r[0].tsc;
	r[0].width = 30;
	for (unsigned i = 1; i < N_CLOCKS; i++) {
		double at = t + i * lag_s;
		r[i].count = floor((at + shift_s[i]) * nominal[i] * (1 + ppm[i] * 1e-6));
		r[i].tsc = (uint64_t)((at + shift_s[0]) * TSC_HZ);
		r[i].width = 30;
	}
}

static void look(double t, const double *ppm, const double *shift_s, struct watch_read *r)
{
	look_spread(t, ppm, shift_s, 0, r);
}

/* A watch that has seen 20 windows of these clocks. */
static void learn(struct watch *w, const double *ppm)
{
	static const double none[N_CLOCKS];
	struct watch_read r[WATCH_MAX_CLOCKS];

	watch_init(w, TSC_HZ, 60);
	for (unsigned i = 0; i < N_CLOCKS; i++)
		watch_add_clock(w, names[i], nominal[i], i ? 1 / nominal[i] : 0);
	for (unsigned k = 0; k <= 20; k++) {
		look(1 + k * WATCH_INTERVAL_S, ppm, none, r);
		watch_sample(w, r);
	}
}

struct case_result {
	struct watch_events e;
	struct watch_event_verdict v;
	char text[600];
};

/* An event from true time 11 s: the look after it at `after` (true time,
 * the clocks shifted by shift_s), the host's figure host_s. */
static struct watch_event *event(struct case_result *c, const double *ppm, double after, const double *shift_s,
				 double host_s)
{
	static const double none[N_CLOCKS];
	struct watch w;
	struct watch_read r[WATCH_MAX_CLOCKS];
	struct watch_event *ev;

	memset(c, 0, sizeof *c);
	learn(&w, ppm);
	look(11, ppm, none, r);
	ev = watch_event_begin(&c->e, &w, 1, "pause", 10, r);
	if (!ev)
		return NULL;
	look(after, ppm, shift_s, r);
	watch_event_end(ev, 10 + after - 11, r, host_s);
	watch_event_conclude(ev, N_CLOCKS, &c->v);
	watch_event_text(ev, &c->v, names, c->text, sizeof c->text);
	return ev;
}

static void stood_still(void)
{
	static const double none[N_CLOCKS];
	struct case_result c;
	struct watch_event *ev = event(&c, none, 11.002, none, 3.0);

	check(COND(ev) && COND(c.v.jumps == 0) && COND(fabs(c.v.guest_s - 0.002) < 1e-6) && COND(!c.v.counted),
	      "a pause the clocks did not count: guest 0.002 s (%.9f), nothing moved (%u), not counted", c.v.guest_s,
	      c.v.jumps);
	check(COND(strstr(c.text, "stood still")) && COND(strstr(c.text, "2.998 s behind")) &&
		      COND(strstr(c.text, "nothing moved")),
	      "... the words say it plainly: %s", c.text);
}

static void counted(void)
{
	static const double none[N_CLOCKS];
	struct case_result c;

	event(&c, none, 16.0, none, 5.0);
	check(COND(c.v.jumps == 0) && COND(c.v.counted) && COND(fabs(c.v.guest_s - 5) < 1e-6),
	      "every clock counted a 5 s pause (%.6f)", c.v.guest_s);
	check(strstr(c.text, "they counted the 5.000 s") != NULL, "... and the words say so: %s", c.text);
}

static void one_jumped(void)
{
	static const double none[N_CLOCKS];
	double shift[N_CLOCKS] = { 0, 100e-6, 0, 0 };
	struct case_result c;

	event(&c, none, 11.5, shift, 0.5);
	check(COND(c.v.jumps == 1) && COND(fabs(c.v.jump_s[1] - 100e-6) < 0.1e-6) && COND(fabs(c.v.jump_s[0]) < 1e-8),
	      "the HPET jumped 100 us: found %.3f us, the TSC %.3f us", c.v.jump_s[1] * 1e6, c.v.jump_s[0] * 1e6);
	check(strstr(c.text, "hpet jumped +100.0") != NULL, "... named with its sign: %s", c.text);
	shift[1] = 0;
	shift[0] = -50e-6;
	event(&c, none, 11.5, shift, 0.5);
	check(COND(c.v.jumps == 1) && COND(fabs(c.v.jump_s[0] + 50e-6) < 0.1e-6), "the TSC stepped back 50 us: %.3f us",
	      c.v.jump_s[0] * 1e6);
	shift[0] = 0;
	shift[3] = -1.0;
	event(&c, none, 11.5, shift, 0.5);
	check(COND(c.v.backward[3]) && COND(!c.v.backward[1]) && COND(c.v.jumps == 1) &&
		      COND(strstr(c.text, "pit went back 0.500000 s")),
	      "the PIT went back 0.5 s: %s", c.text);
}

/* The second sample's reads are 3 us apart (a slow PIT read, say), the
 * first's at one moment: the TSC's stamps account for it, nothing moved. */
static void reads_spread(void)
{
	static const double none[N_CLOCKS];
	struct watch_events e;
	struct watch_event_verdict v;
	struct watch_read r[WATCH_MAX_CLOCKS];
	struct watch w;
	struct watch_event *ev;

	memset(&e, 0, sizeof e);
	learn(&w, none);
	look(11, none, none, r);
	ev = watch_event_begin(&e, &w, 1, "migrate", 10, r);
	look_spread(11.5, none, none, 3e-6, r);
	watch_event_end(ev, 10.5, r, 0.5);
	watch_event_conclude(ev, N_CLOCKS, &v);
	check(COND(v.jumps == 0) && COND(fabs(v.jump_s[3]) < 1 / nominal[3]) && COND(fabs(v.guest_s - 0.5) < 1e-6),
	      "reads 3 us apart on one side: no jump (the PIT within its count: %.3f us), guest %.6f s",
	      v.jump_s[3] * 1e6, v.guest_s);
}

static void fast_counter(void)
{
	double ppm[N_CLOCKS] = { 0, 8000, 0, 0 };
	struct case_result c;
	static const double none[N_CLOCKS];

	event(&c, ppm, 21.0, none, 10.0);
	check(COND(c.v.jumps == 0) && COND(fabs(c.v.jump_s[1]) < 1e-6),
	      "an HPET running 8000 ppm fast over a 10 s event is no jump (%.3f us)", c.v.jump_s[1] * 1e6);
}

static void cpus(void)
{
	static const double none[N_CLOCKS];
	struct case_result c;
	struct watch_event *ev = event(&c, none, 11.5, none, 0.5);

	if (!ev) {
		check(0, "no event");
		return;
	}
	ev->state = WATCH_EVENT_ANNOUNCED;
	watch_event_cpu_offset(ev, 1, false, 2, 60);
	watch_event_cpu_offset(ev, 2, false, -10, 60);
	watch_event_cpu_offset(ev, 3, false, 0, 60);
	watch_event_cpu_offset(ev, 1, true, -49998, 60);
	watch_event_cpu_offset(ev, 2, true, 50, 60);
	watch_event_cpu_offset(ev, 3, true, -1.5e9, 60);
	ev->state = WATCH_EVENT_DONE;
	watch_event_conclude(ev, N_CLOCKS, &c.v);
	watch_event_text(ev, &c.v, names, c.text, sizeof c.text);
	check(COND(c.v.cpu_jump_cycles[0] == -50000) && COND(c.v.cpu_jump_cycles[1] == 60) && COND(c.v.jumps == 2),
	      "CPU 1's TSC moved -50000 cycles, CPU 2's 60 (within its 120 + rate's): %u moved", c.v.jumps);
	check(COND(c.v.cpu_backward[2]) && COND(!c.v.cpu_backward[0]),
	      "CPU 3's TSC set back 1.5 s over a 0.5 s event went back");
	check(COND(strstr(c.text, "CPU 1's TSC moved -50000 cycles (-25.000 us)")) && COND(!strstr(c.text, "CPU 2")) &&
		      COND(strstr(c.text, "CPU 3's TSC went back")),
	      "... in words: %s", c.text);
}

static void bounds(void)
{
	static const double none[N_CLOCKS];
	struct watch_events e;
	struct watch w;
	struct watch_read r[WATCH_MAX_CLOCKS];
	struct watch_event_verdict v;
	char text[200];
	unsigned got = 0;

	memset(&e, 0, sizeof e);
	learn(&w, none);
	look(11, none, none, r);
	got += watch_event_begin(&e, &w, 1, "pause", 1, r) != NULL;
	got += watch_event_begin(&e, &w, 2, "pause", 1, r) != NULL;
	check(COND(got == 1) && COND(e.refused == 1), "a second announcement while one goes on is refused");
	watch_event_unfinished(watch_event_current(&e));
	watch_event_conclude(&e.ev[0], N_CLOCKS, &v);
	watch_event_text(&e.ev[0], &v, names, text, sizeof text);
	check(strstr(text, "the watch ended before the host said it was over") != NULL, "unfinished: %s", text);
	for (unsigned k = 2; k <= WATCH_MAX_EVENTS + 1; k++) {
		struct watch_event *ev = watch_event_begin(&e, &w, k, "pause", 1, r);
		if (ev)
			watch_event_end(ev, 2, r, 1);
	}
	check(COND(e.n == WATCH_MAX_EVENTS) && COND(e.refused == 2),
	      "at most %d events kept (%u), the rest refused (%u)", WATCH_MAX_EVENTS, e.n, e.refused);
	watch_event_text(&e.ev[1], &v, names, text, 16);
	check(strlen(text) == 15, "the words cut to their buffer");
}

static void lines(void)
{
	static const char *const good[] = { "event 1 pause", "event 8 migrate", "event 2 a-b_c9", "done 1 5",
					    "done 3 0.000001", "done 8 123456789.123456789" };
	static const char *const bad[] = { "event 0 pause", "event 9 pause", "event 10 pause", "event 1 PAUSE",
					   "event 1 ", "event 1 abcdefghijkl", "event 1 pause now", "event 1  pause",
					   "done 1 5.", "done 1 .5", "done 1 5.0000000001", "done 1 -1", "done 1 5s",
					   "done1 5", "done 1", "ready 1", "watching 6", "", "event 1 pa\tuse" };
	struct watch_channel_msg m;
	unsigned n_good = 0, n_bad = 0;

	for (unsigned i = 0; i < sizeof good / sizeof good[0]; i++)
		n_good += watch_channel_parse(good[i], &m);
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		bool took = watch_channel_parse(bad[i], &m);
		n_bad += !took;
		if (took)
			check(0, "bad line taken: '%s'", bad[i]);
	}
	check(n_good == sizeof good / sizeof good[0], "every good line of the host is taken (%u)", n_good);
	check(n_bad == sizeof bad / sizeof bad[0], "every bad line is refused (%u)", n_bad);
	watch_channel_parse("done 4 2.5", &m);
	check(COND(m.kind == WATCH_CHANNEL_DONE) && COND(m.id == 4) && COND(m.seconds == 2.5),
	      "done 4 2.5: id 4, 2.5 s");
	watch_channel_parse("event 7 migrate", &m);
	check(COND(m.kind == WATCH_CHANNEL_EVENT) && COND(m.id == 7) && COND(!strcmp(m.name, "migrate")),
	      "event 7 migrate");
}

static unsigned feed(struct watch_channel *c, const char *s, size_t n, struct watch_channel_msg *last)
{
	struct watch_channel_msg m;
	unsigned got = 0;

	for (size_t i = 0; i < n; i++)
		if (watch_channel_byte(c, s[i], &m)) {
			got++;
			*last = m;
		}
	return got;
}

static void bytes(void)
{
	struct watch_channel c;
	struct watch_channel_msg m;
	char big[200];
	static const char nul[] = "event 1 pause\0x\n";

	memset(&c, 0, sizeof c);
	check(COND(feed(&c, "event 1 pause\r\n\n", 16, &m) == 1) && COND(m.id == 1) && COND(c.bad == 0),
	      "a line ending in CRLF is taken; an empty line is not counted bad");
	memset(big, 'x', sizeof big);
	big[sizeof big - 1] = '\n';
	check(COND(feed(&c, big, sizeof big, &m) == 0) && COND(c.bad == 1),
	      "a 199-byte line is dropped whole and counted");
	check(COND(feed(&c, "done 1 2.5\n", 11, &m) == 1) && COND(m.seconds == 2.5),
	      "... and the next line is read whole");
	check(COND(feed(&c, nul, sizeof nul - 1, &m) == 0) && COND(c.bad == 2), "a line holding a NUL is dropped");
}

int main(void)
{
	stood_still();
	counted();
	one_jumped();
	reads_spread();
	fast_counter();
	cpus();
	bounds();
	lines();
	bytes();
	return check_done();
}
