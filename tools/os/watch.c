/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe os --watch DURATION` (watch.h): the image's watch on a running
 * Linux.  The same model (probe/watch.h), the same reads at the edge of a
 * tick (probe/watch_sampler.h) and the same TSC ping-pong for the other
 * CPUs (probe/tsc_sync.h, on the threads of tools/os/team.h), and the same
 * records; it sleeps between samples, so that a production server can run
 * it for hours.
 *
 * Its clocks: the TSC; CLOCK_MONOTONIC_RAW, which the kernel derives from its
 * current clocksource (so it is the TSC again when that is tsc, and the
 * record's clocksource says so); and as root with --raw-io the PM timer and
 * the HPET, read directly. */
#define _GNU_SOURCE
#include "tools/os/watch.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lib/hwregs.h"
#include "probe/records_watch.h"
#include "probe/smp_env.h"
#include "probe/tsc_sync.h"
#include "probe/watch_sampler.h"
#include "tools/os/bench.h"
#include "tools/os/raw.h"
#include "tools/os/team.h"

#define SEGMENT_PINGPONGS 200u

struct live {
	struct watch w;
	struct watch_sampler ws;
	const struct os_watch_opts *o;
	struct counter mono, pm, hpet;
	uint16_t pm_port;
	struct os_raw_hpet hpet_map;
	struct os_team *team;
	struct smp_env env;
	struct tsc_sync_result sync;
	struct tsc_pair pairs[OS_THREADS_MAX];
};

static uint64_t read_mono(const struct counter *c)
{
	struct timespec ts;

	(void)c;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t read_pm(const struct counter *c)
{
	uint32_t v;

	__asm__ volatile("inl %w1, %0" : "=a"(v) : "Nd"((uint16_t)c->hw) : "memory");
	return v;
}

static uint64_t read_hpet(const struct counter *c)
{
	return *(volatile const uint32_t *)(uintptr_t)c->hw;
}

/* The clocks the watch reads here, as the image's drivers describe theirs
 * (probe/counter.h): the HPET's rate is its own period's, found at open. */
static const struct counter_desc mono_desc = {
	.name = "monotonic_raw", .read = read_mono, .width = 64, .nominal_hz = 1000000000ull, .is_counter = true
};
static const struct counter_desc pm_desc = {
	.name = "pm_timer", .read = read_pm, .width = 24, .nominal_hz = ACPI_PM_HZ, .is_counter = true
};
static const struct counter_desc hpet_desc = { .name = "hpet", .read = read_hpet, .width = 32, .is_counter = true };

static uint64_t tsc_now(void *ctx)
{
	(void)ctx;
	return os_tsc_end();
}

/* --raw-io: the PM timer and the HPET, when root can have them; the
 * reasons they are missing go to stderr. */
static void raw_clocks(struct live *L)
{
	struct acpi_info ai;
	char why[200];
	uint32_t mask;

	if (geteuid() != 0) {
		fprintf(stderr, "tickprobe os: --watch --raw-io: needs root; the PM timer and the HPET are left out\n");
		return;
	}
	if (os_raw_acpi(L->o->root, &ai, why, sizeof why)) {
		fprintf(stderr, "tickprobe os: --watch: %s; the PM timer and the HPET are left out\n", why);
		return;
	}
	if (os_raw_hpet_open(&ai, &L->hpet_map, why, sizeof why)) {
		counter_from_desc(&L->hpet, &hpet_desc);
		L->hpet.hw = (uint64_t)(uintptr_t)L->hpet_map.counter;
		L->hpet.nominal_hz = (uint64_t)(L->hpet_map.nominal_hz + 0.5);
		if (watch_sampler_add(&L->ws, "hpet", &L->hpet, 1))
			L->w.reference = (int)L->w.n - 1;
	} else {
		fprintf(stderr, "tickprobe os: --watch: %s\n", why);
	}
	if (os_raw_pm_open(&ai, L->o->tsc_hz, &L->pm_port, &mask, why, sizeof why)) {
		counter_from_desc(&L->pm, &pm_desc);
		L->pm.hw = L->pm_port;
		L->pm.mask = mask;
		if (watch_sampler_add(&L->ws, "pm_timer", &L->pm, 1) && L->w.reference < 0)
			L->w.reference = (int)L->w.n - 1;
	} else {
		fprintf(stderr, "tickprobe os: --watch: %s\n", why);
		L->pm_port = 0;
	}
}

/* --watch-fake NAME:PPM[,NAME:PPM]: more clocks that are CLOCK_MONOTONIC_RAW
 * made to run PPM off, for tests that need clocks with a known answer. */
static bool fake_clocks(struct live *L, const char *spec, char *why, size_t cap)
{
	while (spec && *spec) {
		char name[WATCH_NAME];
		const char *colon = strchr(spec, ':'), *comma = strchr(spec, ',');
		char *end;
		double ppm;
		size_t n = colon ? (size_t)(colon - spec) : 0;
		if (!colon || !n || n >= sizeof name || (comma && comma < colon)) {
			snprintf(why, cap, "--watch-fake wants NAME:PPM[,NAME:PPM], not '%s'", spec);
			return false;
		}
		memcpy(name, spec, n);
		name[n] = 0;
		ppm = strtod(colon + 1, &end);
		if (end == colon + 1 || (*end && *end != ',') || ppm < -1e6 || ppm > 1e6) {
			snprintf(why, cap, "--watch-fake: '%s' is not NAME:PPM", spec);
			return false;
		}
		if (!watch_sampler_add(&L->ws, name, &L->mono, 1 + ppm * 1e-6)) {
			snprintf(why, cap, "--watch-fake: at most %d clocks in all", WATCH_MAX_CLOCKS);
			return false;
		}
		spec = *end ? end + 1 : end;
	}
	return true;
}

/* The other CPUs' offsets, once a segment, on the team's threads. */
static void offsets(struct live *L)
{
	struct tsc_sync_config cfg;

	if (!L->team)
		return;
	tsc_sync_defaults(&cfg, &L->env, false);
	cfg.warp_cycles = 0;
	cfg.warp_loops = 0;
	cfg.pingpongs = SEGMENT_PINGPONGS;
	tsc_sync_measure(&L->env, &cfg, L->pairs, OS_THREADS_MAX, &L->sync);
	for (unsigned k = 0; k < L->sync.n_pairs; k++)
		if (L->pairs[k].ref == 0 && L->pairs[k].offset_done)
			watch_cpu_offset(&L->w, (unsigned)os_team_cpu(L->team, L->pairs[k].cpu), (double)L->pairs[k].offset,
					 (double)L->pairs[k].uncertainty);
}

static void sleep_until(const struct timespec *t)
{
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL) == EINTR)
		;
}

static double mono_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static struct timespec at(double s)
{
	struct timespec t = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
	return t;
}

/* A sample every 0.5 s; one that comes late starts the next interval at
 * once, as the image's loop does (probe/run_watch.c). */
static void loop(struct live *L, struct log *l)
{
	double start = mono_s(), next = start, end = start + L->w.duration_s;
	unsigned seg_done = 0;
	char line[300];

	for (bool first = true;; first = false) {
		struct timespec wake = at(next);
		double t_s;
		unsigned seg_now;
		sleep_until(&wake);
		t_s = mono_s() - start;
		seg_now = (unsigned)(t_s / L->w.segment_s + 1e-6);
		watch_sampler_sample(&L->ws);
		if (!first && seg_now > seg_done && seg_done < WATCH_SEGMENTS) {
			unsigned i;
			offsets(L);
			i = watch_segment_end(&L->w, t_s);
			record_watch_segment(l, &L->w, i, t_s);
			watch_segment_text(&L->w, i, t_s, line, sizeof line);
			if (!L->o->quiet)
				fprintf(stderr, "%s\n", line);
			seg_done = seg_now;
		}
		if (start + t_s >= end - WATCH_INTERVAL_S / 4)
			break;
		next += WATCH_INTERVAL_S;
		if (mono_s() > next)
			next = mono_s() + WATCH_INTERVAL_S;
	}
}

static void finish(struct live *L, struct log *l)
{
	struct watch_verdict *v = malloc(sizeof *v);
	char line[320];

	if (!v)
		return;
	watch_conclude(&L->w, v);
	record_watch(l, &L->w, v, NULL);
	watch_attribution_text(&L->w, v, line, sizeof line);
	fprintf(stderr, "watch: %s\n", line);
	free(v);
}

int os_watch_run(struct log *l, const struct os_watch_opts *o, char *why, size_t cap)
{
	struct live *L = calloc(1, sizeof *L);
	char team_why[160];

	if (!L) {
		snprintf(why, cap, "out of memory");
		return -1;
	}
	L->o = o;
	watch_init(&L->w, o->tsc_hz, o->seconds);
	L->w.tsc_hz_err_ppm = o->tsc_err_ppm;
	watch_sampler_init(&L->ws, &L->w, tsc_now, NULL, 1, 1000000);
	counter_from_desc(&L->mono, &mono_desc);
	watch_sampler_add(&L->ws, "monotonic_raw", &L->mono, 1);
	if (o->raw_io)
		raw_clocks(L);
	if (!fake_clocks(L, o->fake, why, cap)) {
		free(L);
		return -1;
	}
	if (o->cpus && o->cpus->n > 1) {
		L->team = os_team_start(o->cpus, o->self_cpu, team_why, sizeof team_why);
		if (!L->team)
			fprintf(stderr, "tickprobe os: --watch: no other CPUs' offsets: %s\n", team_why);
		L->env.team = L->team ? os_team_get(L->team) : NULL;
		L->env.tsc_hz = o->tsc_hz;
	}
	record_watch_begin(l, &L->w, NULL, L->team ? os_team_get(L->team)->count - 1 : 0);
	fprintf(stderr, "watch: %u s, %u clocks (", o->seconds, L->w.n);
	for (unsigned i = 0; i < L->w.n; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", L->w.c[i].name);
	fprintf(stderr, "), a sample every 0.5 s, %u segments of %.1f s\n", WATCH_SEGMENTS, L->w.segment_s);
	loop(L, l);
	finish(L, l);
	os_team_stop(L->team);
	os_raw_pm_close(L->pm_port);
	os_raw_hpet_close(&L->hpet_map);
	free(L);
	return 0;
}
