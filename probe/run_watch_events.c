/* SPDX-License-Identifier: BSD-2-Clause */
/* VM events during the watch (run_watch.h): the host announces each on its
 * line (probe/watch_channel.h); the watch looks at every clock and measures
 * each other CPU's TSC offset, says it is ready, and does both again when
 * the host says the event is over.  Each event's record is written as soon
 * as it is over, so a later failure cannot lose it. */
#include "probe/run_watch.h"
#include "lib/fmt.h"
#include "lib/util.h"
#include "probe/records_watch.h"

__attribute__((format(printf, 2, 3))) static void send(struct watch_run *wr, const char *fmt, ...)
{
	const struct platform *p = wr->r->p;
	char line[WATCH_CHANNEL_LINE + 1];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = tp_vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof line)
		p->channel_write(p->ctx, line, (size_t)n);
}

void watch_vm_open(struct watch_run *wr)
{
	const struct platform *p = wr->r->p;
	struct watch_events *e = &wr->vm.events;

	e->port = wr->r->opt->events_port;
	if (!e->port)
		return;
	if (!p->channel_open || !p->channel_read || !p->channel_write)
		e->problem = "this boot path has no UART for the host's line";
	else if (e->port == wr->r->opt->serial_port)
		e->problem = "the port is the serial console's";
	else if (!p->channel_open(p->ctx, e->port))
		e->problem = "no UART answers there";
	else
		e->open = true;
	if (!e->open) {
		run_text(wr->r, "watch: events=0x%x: %s: VM events are not listened for\n", e->port, e->problem);
		return;
	}
	send(wr, "watching %u\n", (unsigned)wr->w.duration_s);
	run_text(wr->r, "watch: listening for VM events from the host at 0x%x\n", e->port);
}

static void take_before(void *ctx, unsigned cpu, double offset, double u)
{
	watch_event_cpu_offset(ctx, cpu, false, offset, u);
}

static void take_after(void *ctx, unsigned cpu, double offset, double u)
{
	watch_event_cpu_offset(ctx, cpu, true, offset, u);
}

static void announced(struct watch_run *wr, const struct watch_channel_msg *m, double t_s)
{
	struct watch_read rd[WATCH_MAX_CLOCKS];
	struct watch_event *ev = NULL;

	watch_sampler_read(&wr->ws, rd);
	if (m->id > wr->vm.last_id)
		ev = watch_event_begin(&wr->vm.events, &wr->w, m->id, m->name, t_s, rd);
	else
		wr->vm.events.refused++;
	if (!ev) {
		run_text(wr->r, "watch: the host's event %u (%s) at %.1f s refused: out of turn, or one is going on\n",
			 m->id, m->name, t_s);
		return;
	}
	wr->vm.last_id = m->id;
	watch_run_offsets(wr, take_before, ev);
	send(wr, "ready %u\n", m->id);
	run_text(wr->r, "watch: the host announces %s (event %u) at %.1f s: every clock read, ready\n", m->name,
		 m->id, t_s);
}

static void ended(struct watch_run *wr, const struct watch_channel_msg *m, double t_s)
{
	struct watch_event *ev = watch_event_current(&wr->vm.events);
	struct watch_event_verdict *v = &wr->vm.verdict;
	struct watch_read rd[WATCH_MAX_CLOCKS];
	const char *names[WATCH_MAX_CLOCKS];
	char line[480];

	if (!ev || ev->id != m->id) {
		wr->vm.events.refused++;
		run_text(wr->r, "watch: the host says event %u is over, but it is not the one going on: ignored\n",
			 m->id);
		return;
	}
	/* The test step lands while the event goes on, as a VMM's would. */
	if (wr->r->opt->step_set && wr->r->opt->step_at_event && !wr->stepped)
		watch_run_step(wr, t_s);
	watch_sampler_read(&wr->ws, rd);
	watch_run_offsets(wr, take_after, ev);
	watch_event_end(ev, t_s, rd, m->seconds);
	watch_event_conclude(ev, wr->w.n, v);
	record_watch_event(wr->r->log, &wr->w, ev, v);
	for (unsigned i = 0; i < wr->w.n; i++)
		names[i] = wr->w.c[i].name;
	watch_event_text(ev, v, names, line, sizeof line);
	run_text(wr->r, "watch: %s\n", line);
}

void watch_vm_poll(struct watch_run *wr, double t_s)
{
	const struct platform *p = wr->r->p;
	struct watch_channel_msg m;
	char buf[32];
	unsigned n;

	if (!wr->vm.events.open)
		return;
	n = p->channel_read(p->ctx, buf, sizeof buf);
	for (unsigned i = 0; i < n; i++) {
		if (!watch_channel_byte(&wr->vm.ch, buf[i], &m))
			continue;
		if (m.kind == WATCH_CHANNEL_EVENT)
			announced(wr, &m, t_s);
		else
			ended(wr, &m, t_s);
	}
}

void watch_vm_close(struct watch_run *wr)
{
	struct watch_events *e = &wr->vm.events;
	struct watch_event *ev = watch_event_current(e);

	if (!e->open)
		return;
	send(wr, "watch-end\n");
	if (ev) {
		watch_event_unfinished(ev);
		record_watch_event(wr->r->log, &wr->w, ev, NULL);
		run_text(wr->r, "watch: the watch ended before the host said %s (event %u) was over\n", ev->name,
			 ev->id);
	}
	e->bad_lines = wr->vm.ch.bad;
	if (e->bad_lines || e->refused)
		run_text(wr->r, "watch: from the host: %u line(s) not understood, %u out of turn; ignored\n",
			 e->bad_lines, e->refused);
}
