/* SPDX-License-Identifier: BSD-2-Clause */
/* Clocks across a VM event (watch_event.h). */
#include "probe/watch_event.h"
#include "lib/fmt.h"
#include "lib/util.h"

#define PPM 1e6
#define SQRT2 1.4142135623730951
/* The guest's time covered the host's when it advanced at least this share
 * of it; it stood still when less than STILL_SHARE. */
#define COUNTED_SHARE 0.9
#define STILL_SHARE 0.1

static double absd(double x) { return x < 0 ? -x : x; }
/* The format has no '+' flag. */
static const char *plus(double x) { return x >= 0 ? "+" : ""; }

struct watch_event *watch_event_current(struct watch_events *e)
{
	if (e->n && e->ev[e->n - 1].state == WATCH_EVENT_ANNOUNCED)
		return &e->ev[e->n - 1];
	return NULL;
}

/* What the watch knows of clock i now: its counts per second, its rate. */
static void take_clock(struct watch_event *ev, const struct watch *w, unsigned i)
{
	const struct watch_clock *c = &w->c[i];
	/* The TSC's mean rate over the windows, as each clock's rate below
	 * is its mean: one window's alone is off by its own jitter. */
	double hz_ref = w->hz_ref_n ? w->hz_ref_sum / (double)w->hz_ref_n : w->tsc_hz;

	ev->hz[i] = i ? c->nominal_hz : hz_ref;
	ev->rate_ppm[i] = i && c->d_n ? c->d_sum / (double)c->d_n : 0;
	ev->tick_s[i] = i ? c->tick_s : 1 / w->tsc_hz;
	ev->sigma_s[i] = watch_sigma_s(w, i);
}

struct watch_event *watch_event_begin(struct watch_events *e, const struct watch *w, unsigned id, const char *name,
				      double t_s, const struct watch_read *r)
{
	struct watch_event *ev;

	if (e->n >= WATCH_MAX_EVENTS || watch_event_current(e)) {
		e->refused++;
		return NULL;
	}
	ev = &e->ev[e->n++];
	tp_memset(ev, 0, sizeof *ev);
	ev->id = id;
	tp_snprintf(ev->name, sizeof ev->name, "%s", name);
	ev->state = WATCH_EVENT_ANNOUNCED;
	ev->at_s = t_s;
	ev->end_s = t_s;
	ev->host_s = -1;
	ev->tsc_hz = w->tsc_hz;
	for (unsigned i = 0; i < w->n; i++) {
		ev->before[i] = r[i];
		take_clock(ev, w, i);
	}
	return ev;
}

void watch_event_end(struct watch_event *ev, double t_s, const struct watch_read *r, double host_s)
{
	for (unsigned i = 0; i < WATCH_MAX_CLOCKS; i++)
		ev->after[i] = r[i];
	ev->end_s = t_s;
	ev->host_s = host_s;
	ev->state = WATCH_EVENT_DONE;
}

void watch_event_unfinished(struct watch_event *ev)
{
	ev->state = WATCH_EVENT_UNFINISHED;
}

void watch_event_cpu_offset(struct watch_event *ev, unsigned cpu, bool after, double offset_cycles,
			    double uncertainty_cycles)
{
	struct watch_event_cpu *c = NULL;

	for (unsigned k = 0; k < ev->n_cpus && !c; k++)
		if (ev->cpus[k].cpu == cpu)
			c = &ev->cpus[k];
	if (!c) {
		if (after || ev->n_cpus >= WATCH_MAX_CPUS)
			return;
		c = &ev->cpus[ev->n_cpus++];
		c->cpu = cpu;
	}
	if (after) {
		c->after_cycles = offset_cycles;
		c->measured = true;
	} else {
		c->before_cycles = offset_cycles;
	}
	c->u_cycles += uncertainty_cycles;
}

/* Each clock's advance at its rate, the median, and who jumped. */
static void clocks(const struct watch_event *ev, unsigned n, struct watch_event_verdict *v)
{
	double sorted[WATCH_MAX_CLOCKS];

	for (unsigned i = 0; i < n; i++) {
		double counts = ev->after[i].count - ev->before[i].count;
		/* Each clock is read at its own moment of a sample: the
		 * TSC's stamps of its reads bring it to the TSC's moment,
		 * so that a read that took longer on one side is no jump. */
		int64_t lag_before = (int64_t)(ev->before[i].tsc - ev->before[0].tsc);
		int64_t lag_after = (int64_t)(ev->after[i].tsc - ev->after[0].tsc);
		v->advance_s[i] =
			counts / ev->hz[i] / (1 + ev->rate_ppm[i] / PPM) - (double)(lag_after - lag_before) / ev->hz[0];
		v->backward[i] = counts < 0;
		sorted[i] = v->advance_s[i];
	}
	v->guest_s = watch_median(sorted, n);
	for (unsigned i = 0; i < n; i++) {
		/* The clock's two reads and the consensus's (about one of
		 * theirs), each within its jitter; a count's length; and what
		 * its rate may still be off by over the event. */
		double jitter = SQRT2 * __builtin_sqrt(ev->sigma_s[i] * ev->sigma_s[i] + ev->sigma_s[0] * ev->sigma_s[0]);
		v->jump_s[i] = v->advance_s[i] - v->guest_s;
		v->tolerance_s[i] = WATCH_AGREE_SIGMAS * jitter + ev->tick_s[i] +
				    WATCH_EVENT_RATE_TOLERANCE * absd(v->guest_s);
		if (absd(v->jump_s[i]) > v->tolerance_s[i] || v->backward[i])
			v->jumps++;
	}
}

static void cpus(const struct watch_event *ev, struct watch_event_verdict *v)
{
	/* The boot CPU's TSC advance, for a CPU whose own went back. */
	double tsc0 = ev->after[0].count - ev->before[0].count;

	for (unsigned k = 0; k < ev->n_cpus; k++) {
		const struct watch_event_cpu *c = &ev->cpus[k];
		if (!c->measured)
			continue;
		v->cpu_jump_cycles[k] = c->after_cycles - c->before_cycles;
		v->cpu_tolerance_cycles[k] = c->u_cycles + WATCH_EVENT_RATE_TOLERANCE * absd(tsc0);
		v->cpu_backward[k] = tsc0 + v->cpu_jump_cycles[k] < 0;
		if (absd(v->cpu_jump_cycles[k]) > v->cpu_tolerance_cycles[k] || v->cpu_backward[k])
			v->jumps++;
	}
}

void watch_event_conclude(const struct watch_event *ev, unsigned n_clocks, struct watch_event_verdict *v)
{
	tp_memset(v, 0, sizeof *v);
	v->n = n_clocks;
	if (ev->state != WATCH_EVENT_DONE || !n_clocks)
		return;
	clocks(ev, n_clocks, v);
	cpus(ev, v);
	v->counted = ev->host_s >= 0 && v->guest_s >= COUNTED_SHARE * ev->host_s;
}

/* ---- the words ------------------------------------------------------------------- */

struct text {
	char *buf;
	unsigned cap, len;
};

__attribute__((format(printf, 2, 3))) static void say(struct text *t, const char *fmt, ...)
{
	va_list ap;

	if (t->len + 1 >= t->cap)
		return;
	va_start(ap, fmt);
	t->len += (unsigned)tp_vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	if (t->len >= t->cap)
		t->len = t->cap - 1;
}

/* Whether the guest's time covered the host's. */
static void say_time(struct text *t, const struct watch_event *ev, const struct watch_event_verdict *v)
{
	say(t, "the guest's clocks advanced %.6f s across it", v->guest_s);
	if (ev->host_s < 0) {
		say(t, " (the host did not say how long it took)");
		return;
	}
	if (v->counted)
		say(t, ": they counted the %.3f s it took by the host's clock", ev->host_s);
	else if (v->guest_s < STILL_SHARE * ev->host_s)
		say(t, ", of the %.3f s it took by the host's clock: they stood still while it lasted, and the "
		       "guest is now %.3f s behind the host's time", ev->host_s, ev->host_s - v->guest_s);
	else
		say(t, ", of the %.3f s it took by the host's clock: they counted only part of it", ev->host_s);
}

static void say_moves(struct text *t, const struct watch_event *ev, const struct watch_event_verdict *v,
		      const char *const *names)
{
	for (unsigned i = 0; i < v->n; i++) {
		if (v->backward[i])
			say(t, "; %s went back %.6f s", names[i], -v->advance_s[i]);
		else if (absd(v->jump_s[i]) > v->tolerance_s[i])
			say(t, "; %s jumped %s%.3f us against the others (within %.3f us is none)", names[i],
			    plus(v->jump_s[i]), v->jump_s[i] * 1e6, v->tolerance_s[i] * 1e6);
	}
	for (unsigned k = 0; k < ev->n_cpus; k++) {
		const struct watch_event_cpu *c = &ev->cpus[k];
		if (!c->measured)
			continue;
		if (v->cpu_backward[k])
			say(t, "; CPU %u's TSC went back (%.0f cycles against the boot CPU's)", c->cpu,
			    v->cpu_jump_cycles[k]);
		else if (absd(v->cpu_jump_cycles[k]) > v->cpu_tolerance_cycles[k])
			say(t, "; CPU %u's TSC moved %s%.0f cycles (%s%.3f us) against the boot CPU's", c->cpu,
			    plus(v->cpu_jump_cycles[k]), v->cpu_jump_cycles[k], plus(v->cpu_jump_cycles[k]),
			    v->cpu_jump_cycles[k] / ev->tsc_hz * 1e6);
	}
}

void watch_event_text(const struct watch_event *ev, const struct watch_event_verdict *v,
		      const char *const *names, char *buf, unsigned cap)
{
	struct text t = { buf, cap, 0 };
	unsigned cpus_measured = 0;

	if (!cap)
		return;
	buf[0] = 0;
	say(&t, "%s (event %u) at %.1f s: ", ev->name, ev->id, ev->at_s);
	if (ev->state != WATCH_EVENT_DONE) {
		say(&t, "the watch ended before the host said it was over: nothing to compare");
		return;
	}
	say_time(&t, ev, v);
	for (unsigned k = 0; k < ev->n_cpus; k++)
		cpus_measured += ev->cpus[k].measured;
	if (!v->jumps) {
		say(&t, "; nothing moved: no clock jumped against the others or went back");
		if (cpus_measured)
			say(&t, ", and every CPU's TSC kept its offset");
		return;
	}
	say_moves(&t, ev, v, names);
}
