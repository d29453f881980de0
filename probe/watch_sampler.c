/* SPDX-License-Identifier: BSD-2-Clause */
/* The watch's reads (watch_sampler.h). */
#include "probe/watch_sampler.h"
#include "lib/util.h"

/* An edge is waited for at most two ticks and this long besides. */
#define EDGE_SLACK_S 20e-6
#define EDGE_TRIES 3

void watch_sampler_init(struct watch_sampler *s, struct watch *w, uint64_t (*tsc)(void *ctx), void *tsc_ctx,
			double tsc_drift, uint64_t max_loops)
{
	tp_memset(s, 0, sizeof *s);
	s->w = w;
	s->tsc = tsc;
	s->tsc_ctx = tsc_ctx;
	s->max_loops = max_loops;
	s->src[0].drift = tsc_drift;
	watch_add_clock(w, "tsc", 0, 0);
}

bool watch_sampler_add(struct watch_sampler *s, const char *name, const struct counter *c, double drift)
{
	/* One count of the clock is what a read of it is quantised to. */
	double tick_s = c->nominal_hz ? 1.0 / (double)c->nominal_hz : 0;
	int k = watch_add_clock(s->w, name, (double)c->nominal_hz, tick_s);
	struct watch_source *src;

	if (k < 0)
		return false;
	src = &s->src[k];
	src->c = c;
	src->last_raw = c->read(c) & c->mask;
	src->last_tsc = watch_sampler_tsc(s);
	src->tick_cycles = s->w->tsc_hz / (double)c->nominal_hz;
	src->drift = drift;
	return true;
}

uint64_t watch_sampler_tsc(struct watch_sampler *s)
{
	uint64_t t = s->tsc(s->tsc_ctx);
	double d = s->src[0].drift;

	if (d != 1 && s->start)
		t = s->start + (uint64_t)((double)(t - s->start) * d);
	return t;
}

/* The new raw count unwrapped.  Read often enough (under half a wrap), the
 * distance from the last is the forward one, or a step back when that is
 * over half the range; after a longer pause (a segment's ping-pong, a vCPU
 * the host held) the wraps in between are counted from the time the TSC
 * says passed, at the counter's nominal rate. */
static void poll_one(struct watch_source *s, uint64_t raw, uint64_t tsc)
{
	uint64_t ahead = (raw - s->last_raw) & s->c->mask;
	double range = (double)s->c->mask + 1, elapsed = (double)(int64_t)(tsc - s->last_tsc) / s->tick_cycles;

	if (s->last_tsc && elapsed > range / 2)
		s->count += (double)ahead + range * __builtin_floor((elapsed - (double)ahead) / range + 0.5);
	else if (ahead > s->c->mask / 2)
		s->count -= (double)((s->last_raw - raw) & s->c->mask);
	else
		s->count += (double)ahead;
	s->last_raw = raw;
	s->last_tsc = tsc;
}

void watch_sampler_poll(struct watch_sampler *s)
{
	for (unsigned i = 1; i < s->w->n; i++) {
		uint64_t raw = s->src[i].c->read(s->src[i].c) & s->src[i].c->mask;
		poll_one(&s->src[i], raw, watch_sampler_tsc(s));
	}
}

static double seen(const struct watch_source *s)
{
	return s->base + (s->count - s->base) * s->drift;
}

static void edge_once(struct watch_sampler *ws, unsigned i, struct watch_read *out)
{
	struct watch_source *s = &ws->src[i];
	uint64_t before = watch_sampler_tsc(ws);
	uint64_t limit = (uint64_t)(2 * s->tick_cycles + EDGE_SLACK_S * ws->w->tsc_hz);
	uint64_t first = s->c->read(s->c) & s->c->mask, end = watch_sampler_tsc(ws), start = before;
	uint64_t last_start = before, raw = first, loops = 0;

	poll_one(s, first, end);
	while (raw == first && end - before < limit && loops++ < ws->max_loops) {
		last_start = start;
		start = watch_sampler_tsc(ws);
		raw = s->c->read(s->c) & s->c->mask;
		end = watch_sampler_tsc(ws);
	}
	poll_one(s, raw, end);
	if (raw == first) {
		/* No edge (a stuck counter): the read's bracket and a tick. */
		last_start = before;
		end += (uint64_t)s->tick_cycles;
	}
	out->count = seen(s);
	out->tsc = last_start + (end - last_start) / 2;
	out->width = end - last_start;
}

static void edge_read(struct watch_sampler *s, unsigned i, struct watch_read *out)
{
	struct watch_read one;

	edge_once(s, i, out);
	for (int k = 1; k < EDGE_TRIES; k++) {
		edge_once(s, i, &one);
		if (one.width < out->width)
			*out = one;
	}
}

void watch_sampler_read(struct watch_sampler *s, struct watch_read *rd)
{
	tp_memset(rd, 0, WATCH_MAX_CLOCKS * sizeof *rd);
	for (unsigned i = 1; i < s->w->n; i++)
		edge_read(s, i, &rd[i]);
	rd[0].tsc = watch_sampler_tsc(s);
	rd[0].count = (double)rd[0].tsc;
}

void watch_sampler_sample(struct watch_sampler *s)
{
	struct watch_read rd[WATCH_MAX_CLOCKS];

	/* A drift fault scales what each clock counts from here on. */
	if (!s->w->started) {
		s->start = s->tsc(s->tsc_ctx);
		watch_sampler_poll(s);
		for (unsigned i = 1; i < s->w->n; i++)
			s->src[i].base = s->src[i].count;
	}
	watch_sampler_read(s, rd);
	watch_sample(s->w, rd);
}
