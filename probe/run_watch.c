/* SPDX-License-Identifier: BSD-2-Clause */
/* The watch step (watch=DURATION, probe/watch.h): after the measurements,
 * the boot CPU samples every counter that can time the TSC every 0.5 s for
 * the watch's length, and once a segment measures the other CPUs' TSC
 * offsets from it.
 *
 * Between samples it reads every counter every POLL_S, so that a counter
 * narrower than the watch's windows is unwrapped (the PIT's 16 bits wrap
 * every 54.9 ms).  A sample reads each counter at the edge of a tick: it
 * reads until the count changes, and the edge lies between the read before
 * and the read that saw it, both bracketed by the TSC; that span is the
 * read's uncertainty, not the counter's tick. */
#include "probe/records_watch.h"
#include "lib/fmt.h"
#include "lib/util.h"
#include "probe/run.h"
#include "probe/smp_env.h"
#include "probe/tsc_sync.h"

#define POLL_S 0.002
/* An edge is waited for at most two ticks and this long besides. */
#define EDGE_SLACK_S 20e-6
#define EDGE_TRIES 3
/* The other CPUs' offsets each segment: a light ping-pong, no warp test. */
#define SEGMENT_PINGPONGS 200u

struct watch_source {
	const struct counter *c; /* NULL: the TSC */
	uint64_t last_raw;
	double count;            /* unwrapped */
	double base;             /* the count at the first sample: a drift fault scales from it */
	double drift;            /* fault=drift: the rate the watch sees it at, 1 when none */
	double tick_cycles;
};

struct watch_run {
	struct watch w;
	struct watch_source src[WATCH_MAX_CLOCKS];
	struct run *r;
	uint64_t start;
	double hz;
	bool stepped;           /* fault=tsc_step applied */
	int64_t step_cpu0;      /* the step on the boot CPU's reads, once applied */
	struct tsc_sync_result *sync;
	struct tsc_pair *pairs;
	unsigned pair_cap;
};

/* The boot CPU's TSC as the watch reads it: with a step on CPU 0, and a
 * drift of the TSC itself, when the faults ask for them. */
static uint64_t watch_tsc(struct watch_run *wr)
{
	uint64_t t = wr->r->clock.tsc() + (uint64_t)wr->step_cpu0;
	double d = wr->src[0].drift;

	if (d != 1 && wr->start)
		t = wr->start + (uint64_t)((double)(t - wr->start) * d);
	return t;
}

static void poll_one(struct watch_source *s, uint64_t raw)
{
	uint64_t ahead = (raw - s->last_raw) & s->c->mask;

	/* Unwrapped forward; a step backwards (past half the range) stays one. */
	if (ahead > s->c->mask / 2)
		s->count -= (double)((s->last_raw - raw) & s->c->mask);
	else
		s->count += (double)ahead;
	s->last_raw = raw;
}

static void poll(struct watch_run *wr)
{
	for (unsigned i = 1; i < wr->w.n; i++)
		poll_one(&wr->src[i], wr->src[i].c->read(wr->src[i].c) & wr->src[i].c->mask);
}

static double seen(const struct watch_source *s)
{
	return s->base + (s->count - s->base) * s->drift;
}

/* Counter i at the edge of a tick (file comment), into *out: the edge
 * lies after the start of the last read that saw the old count and before
 * the end of the first that saw the new one. */
static void edge_once(struct watch_run *wr, unsigned i, struct watch_read *out)
{
	struct watch_source *s = &wr->src[i];
	uint64_t before = watch_tsc(wr), limit = (uint64_t)(2 * s->tick_cycles + EDGE_SLACK_S * wr->hz);
	uint64_t first = s->c->read(s->c) & s->c->mask, end = watch_tsc(wr), start = before, last_start = before;
	uint64_t raw = first, loops = 0;

	poll_one(s, first);
	while (raw == first && end - before < limit && loops++ < wr->r->clock.max_wait_loops) {
		last_start = start;
		start = watch_tsc(wr);
		raw = s->c->read(s->c) & s->c->mask;
		end = watch_tsc(wr);
	}
	poll_one(s, raw);
	if (raw == first) {
		/* No edge (a stuck counter): the read's bracket and a tick. */
		last_start = before;
		end += (uint64_t)s->tick_cycles;
	}
	out->count = seen(s);
	out->tsc = last_start + (end - last_start) / 2;
	out->width = end - last_start;
}

/* The tightest of EDGE_TRIES edges: a read held up (an SMI, a host that
 * descheduled the vCPU) widens its bracket, and the next one is taken. */
static void edge_read(struct watch_run *wr, unsigned i, struct watch_read *out)
{
	struct watch_read one;

	edge_once(wr, i, out);
	for (int k = 1; k < EDGE_TRIES; k++) {
		edge_once(wr, i, &one);
		if (one.width < out->width)
			*out = one;
	}
}

static void sample(struct watch_run *wr)
{
	struct watch_read rd[WATCH_MAX_CLOCKS];
	uint64_t smi;

	/* A drift fault scales what each counter counts from here on. */
	if (!wr->w.started) {
		poll(wr);
		for (unsigned i = 1; i < wr->w.n; i++)
			wr->src[i].base = wr->src[i].count;
	}
	for (unsigned i = 1; i < wr->w.n; i++)
		edge_read(wr, i, &rd[i]);
	rd[0].tsc = watch_tsc(wr);
	rd[0].count = (double)rd[0].tsc;
	rd[0].width = 0;
	watch_sample(&wr->w, rd);
	if (wr->r->clock.smi_count && wr->r->clock.smi_count(&smi))
		watch_smi(&wr->w, smi);
}

/* ---- the other CPUs, once a segment ------------------------------------------------- */

static void offsets(struct watch_run *wr)
{
	struct smp_env *e = wr->r->smp;
	struct tsc_sync_config cfg;

	if (!e || !wr->sync)
		return;
	tsc_sync_defaults(&cfg, e, false);
	cfg.warp_cycles = 0;
	cfg.warp_loops = 0;
	cfg.pingpongs = SEGMENT_PINGPONGS;
	tsc_sync_measure(e, &cfg, wr->pairs, wr->pair_cap, wr->sync);
	for (unsigned k = 0; k < wr->sync->n_pairs; k++) {
		const struct tsc_pair *p = &wr->pairs[k];
		if (p->ref == 0 && p->offset_done)
			watch_cpu_offset(&wr->w, p->cpu, (double)p->offset, (double)p->uncertainty);
	}
	for (unsigned c = 1; c < wr->sync->n_cpus && c < TEAM_MAX_CPUS; c++)
		if (wr->sync->tsc_adjust_valid[c])
			watch_cpu_adjust(&wr->w, c, wr->sync->tsc_adjust[c]);
}

/* fault=tsc_step: half-way through, CPU's TSC steps (probe/options_watch.c). */
static void maybe_step(struct watch_run *wr, double t_s)
{
	const struct options *o = &wr->r->opt;

	if (!o->step_set || wr->stepped || t_s < wr->w.duration_s / 2)
		return;
	wr->stepped = true;
	if (o->step_cpu == 0) {
		wr->step_cpu0 = o->step_cycles;
	} else if (wr->r->smp) {
		wr->r->smp->skew_set = true;
		wr->r->smp->skew_cpu = o->step_cpu;
		wr->r->smp->skew_cycles = o->step_cycles;
	}
	run_text(wr->r, "watch: fault=tsc_step: CPU %u's TSC stepped by %lld cycles at %.1f s\n", o->step_cpu,
		 (long long)o->step_cycles, t_s);
}

static void segment(struct watch_run *wr, double t_s)
{
	char line[200];
	unsigned k;

	offsets(wr);
	k = watch_segment_end(&wr->w, t_s);
	record_watch_segment(wr->r->log, &wr->w, k, t_s);
	watch_segment_text(&wr->w, k, t_s, line, sizeof line);
	run_text(wr->r, "%s\n", line);
}

/* ---- the step ------------------------------------------------------------------------ */

/* The clocks: the TSC, and every counter that timed it healthily. */
static void add_clocks(struct watch_run *wr)
{
	struct run *r = wr->r;
	const struct options *o = &r->opt;

	watch_add_clock(&wr->w, "tsc", 0, 0);
	wr->src[0].drift = tp_streq(o->drift_clock, "tsc") ? 1 + o->drift_ppm * 1e-6 : 1;
	for (int i = 0; i < r->n_tsc_cal; i++) {
		const struct calibrator *cal = &r->cal[i];
		const struct counter *c = cal->c;
		struct watch_source *s;
		int k;
		if (!cal->ok || !cal->s->healthy || !c->nominal_hz || !cal->source)
			continue;
		k = watch_add_clock(&wr->w, cal->source, (double)c->nominal_hz, 0);
		if (k < 0)
			break;
		s = &wr->src[k];
		s->c = c;
		s->last_raw = c->read(c) & c->mask;
		s->tick_cycles = wr->hz / (double)c->nominal_hz;
		s->drift = tp_streq(o->drift_clock, cal->source) ? 1 + o->drift_ppm * 1e-6 : 1;
		if (tp_streq(cal->source, "hpet") || (wr->w.reference < 0 && tp_streq(cal->source, "pm_timer")))
			wr->w.reference = k;
	}
}

static struct watch_run *watch_setup(struct run *r)
{
	const struct platform *p = r->p;
	struct watch_run *wr = p->alloc(p->ctx, sizeof *wr);
	unsigned n = r->team ? r->team->count : 1;

	if (!wr)
		return NULL;
	tp_memset(wr, 0, sizeof *wr);
	wr->r = r;
	wr->hz = r->tsc.hz;
	watch_init(&wr->w, r->tsc.hz, r->opt.watch_s);
	wr->w.tsc_hz_err_ppm = r->tsc.err_ppm > 0 ? r->tsc.err_ppm : 0;
	add_clocks(wr);
	if (r->smp && n > 1) {
		wr->pair_cap = n - 1;
		wr->sync = p->alloc(p->ctx, sizeof *wr->sync);
		wr->pairs = p->alloc(p->ctx, wr->pair_cap * sizeof *wr->pairs);
		if (!wr->pairs)
			wr->sync = NULL;
	}
	return wr;
}

static void watch_loop(struct watch_run *wr)
{
	uint64_t interval = (uint64_t)(WATCH_INTERVAL_S * wr->hz), poll_cycles = (uint64_t)(POLL_S * wr->hz);
	uint64_t next = 0, last_poll = 0, windows = (uint64_t)(wr->w.duration_s / WATCH_INTERVAL_S);
	uint64_t max_spins = 4 * interval / 8 + wr->r->clock.max_wait_loops;
	unsigned seg_done = 0;

	wr->start = watch_tsc(wr);
	for (uint64_t k = 0; k <= windows; k++) {
		double t_s = (double)k * WATCH_INTERVAL_S;
		unsigned seg_now = (unsigned)(t_s / wr->w.segment_s + 1e-9);
		uint64_t spins = 0;
		next = wr->start + k * interval;
		/* Bounded in loops too, should the TSC stop: a loop takes more
		 * than 8 cycles (two TSC reads), as the run's other waits count. */
		while ((int64_t)(watch_tsc(wr) - next) < 0 && spins++ < max_spins) {
			if (watch_tsc(wr) - last_poll >= poll_cycles) {
				poll(wr);
				last_poll = watch_tsc(wr);
			}
		}
		maybe_step(wr, t_s);
		sample(wr);
		if (k && seg_now > seg_done && seg_done < WATCH_SEGMENTS) {
			segment(wr, t_s);
			seg_done = seg_now;
		}
	}
}

void run_watch(struct run *r)
{
	struct watch_run *wr;
	struct watch_verdict *v;
	char line[320];

	if (!r->opt.watch_s)
		return;
	r->step = "watch";
	if (!(r->tsc.hz > 0)) {
		run_text(r, "watch: the TSC's rate is not known: nothing to weigh the clocks in, not run\n");
		record_watch_skipped(r->log, r->opt.watch_s, "the TSC's rate is not known");
		return;
	}
	wr = watch_setup(r);
	v = wr ? r->p->alloc(r->p->ctx, sizeof *v) : NULL;
	if (!wr || !v) {
		run_text(r, "watch: no memory for it: not run\n");
		record_watch_skipped(r->log, r->opt.watch_s, "no memory");
		return;
	}
	record_watch_begin(r->log, &wr->w, &r->opt, wr->sync ? wr->pair_cap : 0);
	run_text(r, "watch: %u s, %u clocks, a sample every 0.5 s, %u segments of %.1f s\n", r->opt.watch_s,
		 wr->w.n, WATCH_SEGMENTS, wr->w.segment_s);
	watch_loop(wr);
	watch_conclude(&wr->w, v);
	record_watch(r->log, &wr->w, v);
	watch_attribution_text(&wr->w, v, line, sizeof line);
	run_text(r, "watch: %s\n", line);
}
