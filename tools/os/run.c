/* SPDX-License-Identifier: BSD-2-Clause */
/* One clocksource's measurements (tools/os/run.h). */
#include <stdio.h>
#include "tools/os/bench.h"
#include "tools/os/calls.h"
#include "tools/os/ctxsw.h"
#include "tools/os/record.h"
#include "tools/os/run.h"

/* The clocksource could not be selected: every call's record says why. */
static void write_skipped(struct log *l, const char *cs, const char *skip, int *unhealthy)
{
	char name[640];

	for (int i = 0; i < OS_NCALLS; i++) {
		struct os_timer_rec r = { .clocksource = cs, .call = os_calls[i].call, .present = true,
					  .method = os_calls[i].method, .reason = skip };
		snprintf(name, sizeof name, "%s@%s", os_calls[i].call, cs);
		r.name = name;
		os_write_timer(l, &r);
		(*unhealthy)++;
	}
	fprintf(stderr, "  skipped: %s\n", skip);
}

/* Whether call i went through the vDSO: by the seccomp child's count where
 * it could run, else by the call's cost against the system call's. */
static void judge_vdso(struct os_timer_rec *r, const struct os_vdso_probe *vp, int i, char *text, size_t cap)
{
	if (vp->ok) {
		r->vdso_method = "seccomp";
		r->syscalls_per_call = (double)vp->syscalls[i] / vp->calls;
		r->vdso = r->syscalls_per_call < 0.5;
		snprintf(text, cap,
			 "%u of %u calls entered the kernel: a seccomp filter in a child process made "
			 "clock_gettime/gettimeofday/time system calls fail (the syscall() reference failed %u of %u)",
			 vp->syscalls[i], vp->calls, vp->syscalls[OS_CALL_SYSCALL], vp->calls);
	} else {
		r->vdso_method = "cost";
		r->syscalls_per_call = -1;
		/* A system call costs at least ~50 ns more than the same read in
		 * the vDSO; between half and 0.8 of it the cost cannot tell. */
		r->vdso = r->cost_ratio < 0 ? -1 : r->cost_ratio < 0.5 ? 1 : r->cost_ratio > 0.8 ? 0 : -1;
		snprintf(text, cap, "no syscall count (%s); p50 is %.3f of the syscall() p50%s", vp->why,
			 r->cost_ratio, vp->vdso_mapped ? "" : "; this process has no vDSO");
	}
	if (i == OS_CALL_SYSCALL)
		r->vdso = 0;
}

/* One timer record per clock call, and its line of the table. */
static void write_calls(struct log *l, const struct os_params *p, const char *cs, struct os_dist **d, double hz)
{
	struct os_vdso_probe vp;
	uint32_t spr = p->samples / (uint32_t)p->rounds;
	double syscall_p50 = (double)hist_quantile(d[OS_CALL_SYSCALL]->h, 500000);
	char name[640], text[400];

	os_vdso_probe(&vp, p->vdso_calls);
	fprintf(stderr, "  %-34s %-5s %9s %9s %9s %12s\n", "call", "vdso", "p50 ns", "mean ns", "p99 ns", "block/s");
	for (int i = 0; i < OS_NCALLS; i++) {
		struct os_timer_rec r = { .clocksource = cs, .call = os_calls[i].call, .method = os_calls[i].method,
					  .present = true, .healthy = true, .d = d[i], .hz = hz, .has_vdso = true,
					  .samples_requested = spr * (uint32_t)p->rounds,
					  .vdso_calls = p->vdso_calls, .vdso_text = text };
		double p50 = (double)hist_quantile(d[i]->h, 500000);
		r.cost_ratio = syscall_p50 > 0 ? p50 / syscall_p50 : -1;
		judge_vdso(&r, &vp, i, text, sizeof text);
		snprintf(name, sizeof name, "%s@%s", os_calls[i].call, cs);
		r.name = name;
		os_write_timer(l, &r);
		fprintf(stderr, "  %-34s %-5s %9.1f %9.1f %9.1f %12.0f\n", os_calls[i].call,
			r.vdso < 0 ? "?" : r.vdso ? "yes" : "no", os_cyc_to_ns(p50, hz),
			os_cyc_to_ns(hist_mean(d[i]->h), hz),
			os_cyc_to_ns((double)hist_quantile(d[i]->h, 990000), hz),
			d[i]->tp_cycles ? (double)d[i]->tp_reads * hz / (double)d[i]->tp_cycles : 0.0);
	}
	if (!vp.ok)
		fprintf(stderr, "  vdso column from cost only: %s\n", vp.why);
}

/* The seeds' figures: a 1,000,000-call loop, and successive-call gaps
 * (into h, which the clock_gettime record no longer needs). */
static void write_seeds(struct log *l, const struct os_params *p, const char *cs, struct hist *h, double hz)
{
	int nruns = p->loop_runs < 1 ? 1 : p->loop_runs > 16 ? 16 : p->loop_runs;
	double runs[16], lo, hi, sum = 0;
	uint64_t back = 0;
	struct hist_mode m[5];
	int nm;

	for (int k = 0; k < nruns; k++)
		runs[k] = os_loop_rate(p->loop_calls, hz);
	os_write_rate(l, cs, p->loop_calls, runs, nruns);
	lo = hi = runs[0];
	for (int k = 0; k < nruns; k++) {
		lo = runs[k] < lo ? runs[k] : lo;
		hi = runs[k] > hi ? runs[k] : hi;
		sum += runs[k];
	}
	fprintf(stderr, "  loop of %u clock_gettime(MONOTONIC), %d runs: mean %.0f calls/s (min %.0f, max %.0f)\n",
		p->loop_calls, nruns, sum / nruns, lo, hi);
	hist_init(h);
	os_gaps(h, p->gap_samples, &back);
	os_write_gaps(l, cs, h, back);
	nm = hist_modes(h, m, 5);
	fprintf(stderr, "  gaps (ns): min %llu, max %llu, mean %.1f, sd %.1f; most common:",
		(unsigned long long)h->min, (unsigned long long)h->max, hist_mean(h), hist_sd(h));
	for (int k = 0; k < nm; k++)
		fprintf(stderr, " %llu (x%llu)", (unsigned long long)m[k].value, (unsigned long long)m[k].count);
	fprintf(stderr, "%s\n", back ? " BACKWARDS STEPS SEEN" : "");
}

static void write_ctxsw(struct log *l, const struct os_params *p, const char *cs, double hz, int cpu, int *unhealthy)
{
	static struct os_ctxsw c;

	os_ctxsw_measure(&c, cpu, p->rounds, p->ctx_batches, p->ctx_trips, hz);
	os_write_ctxsw(l, cs, &c);
	if (c.ok)
		fprintf(stderr, "  context switches: %.0f /s (%.0f ns each), %d rounds on CPU %d\n",
			c.switches / c.seconds, c.seconds * 1e9 / c.switches, c.nrounds, cpu);
	else {
		fprintf(stderr, "  context switches: not measured: %s\n", c.why);
		(*unhealthy)++;
	}
}

static void write_threads(struct log *l, const struct os_params *p, const char *cs, uint64_t subtract, double hz,
			  int *unhealthy)
{
	static struct os_contention ct;
	uint32_t spr = p->samples / (uint32_t)p->rounds;

	os_contention_measure(&ct, p->cpus, p->threads, spr, subtract, hz);
	os_write_contention(l, cs, &ct, hz);
	fprintf(stderr, "  %u clock_gettime(MONOTONIC) per thread, threads at once:", spr);
	for (int k = 0; k < ct.nlevels; k++)
		fprintf(stderr, " %d: p50 %.0f ns, p99 %.0f ns, %.0f calls/s%s", ct.lv[k].n,
			os_cyc_to_ns((double)ct.lv[k].p50_cyc, hz), os_cyc_to_ns((double)ct.lv[k].p99_cyc, hz),
			ct.lv[k].reads_per_s, k + 1 < ct.nlevels ? ";" : "");
	fprintf(stderr, "%s%s\n", ct.why[0] ? " -- " : "", ct.why);
	if (!ct.ok)
		(*unhealthy)++;
}

int os_measure_clocksource(struct log *l, const struct os_params *p, const char *cs, const char *skip,
			   uint64_t subtract, double hz, int cpu, int *unhealthy)
{
	struct os_dist *d[OS_NCALLS] = { 0 };
	uint32_t spr = p->samples / (uint32_t)p->rounds;
	int rc = 0;

	fprintf(stderr, "\nclocksource %s\n", cs);
	if (skip) {
		write_skipped(l, cs, skip, unhealthy);
		return 0;
	}
	for (int i = 0; i < OS_NCALLS && rc == 0; i++) {
		char what[96];
		snprintf(what, sizeof what, "%s via %s,", os_calls[i].call, cs);
		if (p->prog)
			progress_show(p->prog, what, (unsigned)i + 1, OS_NCALLS, -1, true);
		if (!(d[i] = os_dist_new()))
			rc = -1;
		else
			os_measure(d[i], os_calls[i].sample, os_calls[i].block, p->rounds, spr, p->tp_reads, subtract, hz);
	}
	if (p->prog)
		progress_clear(p->prog);
	if (rc == 0) {
		write_calls(l, p, cs, d, hz);
		write_seeds(l, p, cs, d[0]->h, hz);
		write_ctxsw(l, p, cs, hz, cpu, unhealthy);
		if (p->threads > 0)
			write_threads(l, p, cs, subtract, hz, unhealthy);
	}
	for (int i = 0; i < OS_NCALLS; i++)
		os_dist_free(d[i]);
	return rc;
}
