/* SPDX-License-Identifier: BSD-2-Clause */
/* The watch's model (probe/watch.c) on simulated clocks with known faults:
 * a counter off by a known rate is named, with that rate; with no fault
 * every clock agrees within its stated uncertainty, and that uncertainty is
 * no more than twice what the windows scatter by; steps of a counter, of
 * the TSC and of another CPU's TSC are found where they were put; Linux's
 * rules of each era are applied as stated. */
#include <math.h>
#include <string.h>
#include "probe/watch.h"
#include "tests/unit/check.h"

#define TSC_HZ 2.5e9

/* One simulated machine: the true time drives every clock; each counter
 * runs ppm off its nominal rate and may step once. */
struct sim {
	double ppm[4];         /* tsc, hpet, pm_timer, pit */
	double step_at_s[4];   /* a step of step_s at this time; < 0: none */
	double step_s[4];
	double tsc_drift_ppm_per_h;
	unsigned jitter;       /* bracket width spread, cycles */
	uint32_t lcg;
};

static const double nominal[4] = { 0, 100e6, 3579545, 1193182 };

static double rnd(struct sim *s)
{
	s->lcg = s->lcg * 1664525u + 1013904223u;
	return (double)(s->lcg >> 8) / 16777216.0;
}

/* The TSC at true time t: its frequency drifting linearly. */
static double tsc_at(const struct sim *s, double t)
{
	double f0 = TSC_HZ * (1 + s->ppm[0] * 1e-6), k = s->tsc_drift_ppm_per_h * 1e-6 / 3600;
	double steps = s->step_at_s[0] >= 0 && t >= s->step_at_s[0] ? s->step_s[0] * TSC_HZ : 0;

	return f0 * (t + k * t * t / 2) + steps;
}

/* Each counter read as the image reads it: at the edge of a tick, the
 * edge somewhere inside the bracket of the read that saw it. */
static void look(struct sim *s, unsigned n, double t, struct watch_read *r)
{
	t += rnd(s) * 1e-3; /* the loop's cadence is not exact */
	for (unsigned i = 0; i < n; i++) {
		double width = 30 + (s->jitter ? rnd(s) * s->jitter : 0), rate = i ? nominal[i] * (1 + s->ppm[i] * 1e-6) : 0;
		double shift = s->step_at_s[i] >= 0 && t >= s->step_at_s[i] ? s->step_s[i] : 0;
		double count = i ? ceil((t + shift) * rate) : 0;
		double edge = i ? count / rate - shift : t;
		double mid = edge + (rnd(s) - 0.5) * width / TSC_HZ;
		r[i].tsc = (uint64_t)(tsc_at(s, mid) + 1e12);
		r[i].width = (uint64_t)width;
		r[i].count = i ? count + 1e6 : (double)r[i].tsc;
		t = edge + 1e-6;
	}
}

/* A watch of seconds over the first n clocks, sampled every 0.5 s. */
static void run(struct sim *s, unsigned n, double seconds, struct watch *w, struct watch_verdict *v)
{
	static const char *const names[4] = { "tsc", "hpet", "pm_timer", "pit" };
	static const double ticks[4] = { 0 }; /* edge-aligned reads: no quantisation */
	struct watch_read r[4];
	unsigned windows = (unsigned)(seconds / WATCH_INTERVAL_S);

	watch_init(w, TSC_HZ, seconds);
	for (unsigned i = 0; i < n; i++)
		watch_add_clock(w, names[i], nominal[i], ticks[i]);
	w->reference = 1;
	for (unsigned k = 0; k <= windows; k++) {
		double t = k * WATCH_INTERVAL_S;
		look(s, n, t, r);
		watch_sample(w, r);
		if (k && (unsigned)(t / w->segment_s) != (unsigned)((t - WATCH_INTERVAL_S) / w->segment_s))
			watch_segment_end(w, t);
	}
	watch_conclude(w, v);
}

static struct sim quiet(void)
{
	struct sim s;

	memset(&s, 0, sizeof s);
	for (int i = 0; i < 4; i++)
		s.step_at_s[i] = -1;
	s.lcg = 12345;
	s.jitter = 200;
	return s;
}

static void no_fault(void)
{
	struct sim s = quiet();
	static struct watch w;
	struct watch_verdict v;
	char text[300];

	run(&s, 4, 600, &w, &v);
	check(v.odd == -1, "no fault: no clock named (odd %d)", v.odd);
	for (int i = 1; i < 4; i++) {
		check(fabs(v.rate_ppm[i]) <= v.u_ppm[i] + v.u_ppm[0], "no fault: %s at %.4f ppm, within %.4f + %.4f",
		      w.c[i].name, v.rate_ppm[i], v.u_ppm[i], v.u_ppm[0]);
		/* Honest and tight: the stated window uncertainty is at least the
		 * scatter the windows show and at most twice it. */
		check(COND(v.window_u_ppm[i] >= v.window_sd_ppm[i]) &&
			      COND(v.window_u_ppm[i] <= 2 * v.window_sd_ppm[i]),
		      "no fault: %s's 0.5 s window: stated %.3f ppm, observed scatter %.3f ppm", w.c[i].name,
		      v.window_u_ppm[i], v.window_sd_ppm[i]);
	}
	check(w.n_steps == 0, "no fault: no step (%u)", w.n_steps);
	check(COND(w.era[WATCH_LINUX_2026].windows_unstable == 0) && COND(w.era[WATCH_LINUX_6_1].windows_unstable == 0),
	      "no fault: no era's watchdog marks the TSC unstable");
	watch_attribution_text(&w, &v, text, sizeof text);
	check(strstr(text, "agree: no clock is off") != NULL, "no fault: \"%s\"", text);
}

static void slow_hpet(void)
{
	struct sim s = quiet();
	static struct watch w;
	struct watch_verdict v;
	char text[300];

	s.ppm[1] = -7900;
	run(&s, 4, 120, &w, &v);
	check(v.odd == 1, "HPET 7900 ppm slow: the HPET is named (odd %d)", v.odd);
	check(fabs(v.rate_ppm[1] + 7900 / (1 - 7900e-6) * (1 - 7900e-6)) < 0.01 + 5 * v.u_ppm[1],
	      "... at %.3f ppm", v.rate_ppm[1]);
	check(COND(fabs(v.rate_ppm[2]) < 0.05) && COND(fabs(v.rate_ppm[3]) < 0.05),
	      "... the PM timer and the PIT agree (%.3f, %.3f)", v.rate_ppm[2], v.rate_ppm[3]);
	watch_attribution_text(&w, &v, text, sizeof text);
	check(strstr(text, "the HPET runs 7900.0 ppm slow against the TSC, the PM timer and the PIT, which agree within 0.0 ppm") ==
		      text, "\"%s\"", text);
	check(COND(w.era[WATCH_LINUX_2026].windows_unstable == w.windows) &&
		      COND(w.era[WATCH_LINUX_6_1].windows_unstable == w.windows),
	      "2026 and 6.1 rules, the HPET as the watchdog: every window marks the TSC unstable (%llu of %llu)",
	      (unsigned long long)w.era[WATCH_LINUX_2026].windows_unstable, (unsigned long long)w.windows);
	check(w.era[WATCH_LINUX_4_19].windows_unstable == 0, "4.19 rule (62.5 ms): none does (skew %.0f ns)",
	      w.era[WATCH_LINUX_4_19].worst_skew_ns);
	check(fabs(w.era[WATCH_LINUX_2026].worst_skew_ns - 3950e3) < 10e3, "the worst skew of a 0.5 s window (to 1 ms longer): %.0f ns, 3.95 ms",
	      w.era[WATCH_LINUX_2026].worst_skew_ns);
}

static void two_counters(void)
{
	struct sim s = quiet();
	static struct watch w;
	struct watch_verdict v;
	char text[300];

	s.ppm[1] = 8000;
	run(&s, 3, 60, &w, &v);
	check(COND(!v.attributable) && COND(v.odd == -1), "the TSC and two counters: nobody is named");
	watch_attribution_text(&w, &v, text, sizeof text);
	check(COND(strstr(text, "cannot be told")) && COND(strstr(text, "disagree")), "\"%s\"", text);
}

static void steps(void)
{
	struct sim s = quiet();
	static struct watch w;
	struct watch_verdict v;

	s.step_at_s[2] = 30.2;
	s.step_s[2] = 50e-6;
	run(&s, 4, 60, &w, &v);
	check(COND(w.n_steps == 1) && COND(w.steps[0].clock == 2),
	      "a 50 us step of the PM timer: one step, the PM timer's (%u)", w.n_steps);
	check(COND(w.n_steps == 1) && COND(fabs(w.steps[0].step_s - 50e-6) < 2e-6) && COND(w.steps[0].t_s > 30) &&
		      COND(w.steps[0].t_s < 31),
	      "... 50 us at 30.5 s (%.2f us at %.1f s)", w.n_steps ? w.steps[0].step_s * 1e6 : 0,
	      w.n_steps ? w.steps[0].t_s : 0);
	s = quiet();
	s.step_at_s[0] = 40.1;
	s.step_s[0] = -1e-3;
	run(&s, 4, 60, &w, &v);
	check(COND(w.n_steps == 1) && COND(w.steps[0].clock == 0) && COND(fabs(w.steps[0].step_s + 1e-3) < 5e-6),
	      "the TSC stepping back 1 ms: every counter sees it, it is the TSC's (%u, clock %d, %.1f us)", w.n_steps,
	      w.n_steps ? w.steps[0].clock : -1, w.n_steps ? w.steps[0].step_s * 1e6 : 0);
	check(COND(w.n_steps == 1) && COND(w.steps[0].t_s > 40) && COND(w.steps[0].t_s < 41), "... at 40.5 s (%.2f s)",
	      w.n_steps ? w.steps[0].t_s : 0);
}

static void drift_and_cpus(void)
{
	struct sim s = quiet();
	static struct watch w;
	struct watch_verdict v;

	s.tsc_drift_ppm_per_h = 36;
	run(&s, 4, 3600, &w, &v);
	check(fabs(v.drift_ppm_per_h[0] - 36) < 0.5, "a TSC drifting 36 ppm/h: found at %.2f ppm/h",
	      v.drift_ppm_per_h[0]);
	check(COND(v.odd == -1) && COND(fabs(v.drift_ppm_per_h[1]) < 0.5),
	      "... the counters agree and do not drift (%.2f ppm/h)", v.drift_ppm_per_h[1]);
	watch_init(&w, TSC_HZ, 3200);
	watch_add_clock(&w, "tsc", 0, 0);
	for (unsigned k = 0; k < WATCH_SEGMENTS; k++) {
		watch_cpu_offset(&w, 3, 100 + 10.0 * k, 20);
		watch_cpu_adjust(&w, 3, k < 20 ? 0 : -5000);
		watch_segment_end(&w, (k + 1) * 100.0);
	}
	watch_conclude(&w, &v);
	check(COND(w.n_cpus == 1) && COND(fabs(v.cpu_slope_cycles_per_h[0] - 360) < 1e-6),
	      "CPU 3's offset growing 10 cycles every 100 s: 360 cycles/h (%.3f)", v.cpu_slope_cycles_per_h[0]);
	check(COND(w.cpus[0].adjust_changes == 1) && COND(w.cpus[0].adjust_last == -5000),
	      "... its TSC_ADJUST written once, to -5000");
}

static void eras(void)
{
	check(watch_era_judge(WATCH_LINUX_2026, 244e3, 500e6, 1e3) == 0, "2026: 244 us over 0.5 s with 1 us readout: fine");
	check(watch_era_judge(WATCH_LINUX_2026, 246e3, 500e6, 1e3) == 1, "2026: 246 us: unstable (bound 244,140 + 1,000 ns)");
	check(watch_era_judge(WATCH_LINUX_2026, 0, 500e6, 51e3) == 2, "2026: a 51 us readout: timed out");
	check(COND(watch_era_judge(WATCH_LINUX_6_1, 126e3, 500e6, 1e3) == 1) &&
		      COND(watch_era_judge(WATCH_LINUX_5_14, 126e3, 500e6, 1e3) == 0),
	      "126 us: unstable for 6.1, not for 5.14");
	check(watch_era_judge(WATCH_LINUX_4_19, 62.6e6, 500e6, 0) == 1, "62.6 ms: unstable even for 4.19");
}

int main(void)
{
	no_fault();
	slow_hpet();
	two_counters();
	steps();
	drift_and_cpus();
	eras();
	return check_done();
}
