/* SPDX-License-Identifier: BSD-2-Clause */
/* The watch step (watch=DURATION, probe/watch.h): after the measurements,
 * the boot CPU samples every counter that can time the TSC every 0.5 s for
 * the watch's length (probe/watch_sampler.h), and once a segment measures
 * the other CPUs' TSC offsets from it.  Between samples it reads every
 * counter every POLL_S, so that a counter narrower than the watch's windows
 * is unwrapped (the PIT's 16 bits wrap every 54.9 ms). */
#include "probe/run_watch.h"
#include "lib/fmt.h"
#include "lib/util.h"
#include "probe/records_watch.h"
#include "probe/smp_env.h"

#define POLL_S 0.002
/* The other CPUs' offsets each segment: a light ping-pong, no warp test. */
#define SEGMENT_PINGPONGS 200u

/* The boot CPU's TSC as the watch reads it, with a step fault on CPU 0. */
static uint64_t watch_tsc(void *ctx)
{
	const struct watch_run *wr = ctx;

	return wr->r->clock.tsc() + (uint64_t)wr->step_cpu0;
}

static void sample(struct watch_run *wr)
{
	uint64_t smi;

	watch_sampler_sample(&wr->ws);
	if (wr->r->clock.smi_count && wr->r->clock.smi_count(&smi))
		watch_smi(&wr->w, smi);
}

/* ---- the other CPUs, once a segment ------------------------------------------------- */

void watch_run_offsets(struct watch_run *wr, void (*take)(void *ctx, unsigned cpu, double offset, double u),
		       void *ctx)
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
			take(ctx, p->cpu, (double)p->offset, (double)p->uncertainty);
	}
}

static void take_offset(void *ctx, unsigned cpu, double offset, double u)
{
	watch_cpu_offset(ctx, cpu, offset, u);
}

static void offsets(struct watch_run *wr)
{
	watch_run_offsets(wr, take_offset, &wr->w);
	for (unsigned c = 1; wr->sync && c < wr->sync->n_cpus && c < TEAM_MAX_CPUS; c++)
		if (wr->sync->tsc_adjust_valid[c])
			watch_cpu_adjust(&wr->w, c, wr->sync->tsc_adjust[c]);
}

void watch_run_step(struct watch_run *wr, double t_s)
{
	const struct options *o = wr->r->opt;

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

/* fault=tsc_step: half-way through, CPU's TSC steps (probe/options_watch.c);
 * with @event, the first VM event does it (run_watch_events.c). */
static void maybe_step(struct watch_run *wr, double t_s)
{
	const struct options *o = wr->r->opt;

	if (o->step_set && !o->step_at_event && !wr->stepped && t_s >= wr->w.duration_s / 2)
		watch_run_step(wr, t_s);
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

static double drift_of(const struct options *o, const char *clock)
{
	return tp_streq(o->drift_clock, clock) ? 1 + o->drift_ppm * 1e-6 : 1;
}

/* The clocks: the TSC, and every counter that timed it healthily. */
static void add_clocks(struct watch_run *wr)
{
	struct run *r = wr->r;

	watch_sampler_init(&wr->ws, &wr->w, watch_tsc, wr, drift_of(r->opt, "tsc"), r->clock.max_wait_loops);
	for (int i = 0; i < r->n_tsc_cal; i++) {
		const struct calibrator *cal = &r->cal[i];
		if (!cal->ok || !cal->s->healthy || !cal->c->nominal_hz || !cal->source)
			continue;
		if (!watch_sampler_add(&wr->ws, cal->source, cal->c, drift_of(r->opt, cal->source)))
			break;
		if (tp_streq(cal->source, "hpet") || (wr->w.reference < 0 && tp_streq(cal->source, "pm_timer")))
			wr->w.reference = (int)wr->w.n - 1;
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
	watch_init(&wr->w, r->tsc.hz, r->opt->watch_s);
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

/* A sample every interval, by the TSC; one that comes late (a segment's
 * ping-pong took long, the host held the vCPU) starts the next interval at
 * once rather than crowding the next samples into short windows, which
 * Linux's watchdog never sees. */
static void watch_loop(struct watch_run *wr)
{
	uint64_t interval = (uint64_t)(WATCH_INTERVAL_S * wr->hz), poll_cycles = (uint64_t)(POLL_S * wr->hz);
	uint64_t last_poll = 0, max_spins = 4 * interval / 8 + wr->r->clock.max_wait_loops;
	uint64_t start = watch_sampler_tsc(&wr->ws), next = start, end = start + (uint64_t)(wr->w.duration_s * wr->hz);
	unsigned seg_done = 0;

	for (bool first = true;; first = false) {
		uint64_t spins = 0, now;
		double t_s;
		unsigned seg_now;
		/* Bounded in loops too, should the TSC stop: a loop takes more
		 * than 8 cycles (two TSC reads), as the run's other waits count. */
		while ((int64_t)(watch_sampler_tsc(&wr->ws) - next) < 0 && spins++ < max_spins) {
			if (watch_sampler_tsc(&wr->ws) - last_poll >= poll_cycles) {
				watch_sampler_poll(&wr->ws);
				last_poll = watch_sampler_tsc(&wr->ws);
				watch_vm_poll(wr, (double)(last_poll - start) / wr->hz);
			}
		}
		now = watch_sampler_tsc(&wr->ws);
		t_s = (double)(now - start) / wr->hz;
		seg_now = (unsigned)(t_s / wr->w.segment_s + 1e-6);
		maybe_step(wr, t_s);
		sample(wr);
		if (!first && seg_now > seg_done && seg_done < WATCH_SEGMENTS) {
			segment(wr, t_s);
			seg_done = seg_now;
		}
		if ((int64_t)(now - end) >= -(int64_t)(interval / 4))
			break;
		next += interval;
		now = watch_sampler_tsc(&wr->ws);
		if ((int64_t)(now - next) > 0)
			next = now + interval;
	}
}

void run_watch(struct run *r)
{
	struct watch_run *wr;
	struct watch_verdict *v;
	char line[320];

	if (!r->opt->watch_s)
		return;
	r->step = "watch";
	if (!(r->tsc.hz > 0)) {
		run_text(r, "watch: the TSC's rate is not known: nothing to weigh the clocks in, not run\n");
		record_watch_skipped(r->log, r->opt->watch_s, "the TSC's rate is not known");
		return;
	}
	wr = watch_setup(r);
	v = wr ? r->p->alloc(r->p->ctx, sizeof *v) : NULL;
	if (!wr || !v) {
		run_text(r, "watch: no memory for it: not run\n");
		record_watch_skipped(r->log, r->opt->watch_s, "no memory");
		return;
	}
	record_watch_begin(r->log, &wr->w, r->opt, wr->sync ? wr->pair_cap : 0);
	run_text(r, "watch: %u s, %u clocks, a sample every 0.5 s, %u segments of %.1f s\n", r->opt->watch_s, wr->w.n,
		 WATCH_SEGMENTS, wr->w.segment_s);
	watch_vm_open(wr);
	watch_loop(wr);
	watch_vm_close(wr);
	watch_conclude(&wr->w, v);
	record_watch(r->log, &wr->w, v, &wr->vm.events);
	watch_attribution_text(&wr->w, v, line, sizeof line);
	run_text(r, "watch: %s\n", line);
}
