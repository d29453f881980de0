/* SPDX-License-Identifier: BSD-2-Clause */
/* One clocksource's measurements (tools/os/run.h). */
#include <stdio.h>
#include "tools/os/bench.h"
#include "tools/os/calls.h"
#include "tools/os/ctxsw.h"
#include "tools/os/record.h"
#include "tools/os/run.h"

int os_measure_clocksource(struct log *l, const struct os_params *p, const char *cs, const char *skip,
			   uint64_t subtract, double hz, int cpu, int *unhealthy)
{
	struct os_dist *d[OS_NCALLS] = { 0 };
	struct os_vdso_probe vp;
	uint32_t spr = p->samples / (uint32_t)p->rounds;
	double syscall_p50 = 0, runs[16];
	int nruns = p->loop_runs < 1 ? 1 : p->loop_runs > 16 ? 16 : p->loop_runs;
	char name[640], text[400];
	int rc = 0;

	fprintf(stderr, "\nclocksource %s\n", cs);
	if (skip) {
		for (int i = 0; i < OS_NCALLS; i++) {
			struct os_timer_rec r = { .clocksource = cs, .call = os_calls[i].call, .present = true,
						  .method = os_calls[i].method, .reason = skip };
			snprintf(name, sizeof name, "%s@%s", os_calls[i].call, cs);
			r.name = name;
			os_write_timer(l, &r);
			(*unhealthy)++;
		}
		fprintf(stderr, "  skipped: %s\n", skip);
		return 0;
	}
	for (int i = 0; i < OS_NCALLS; i++) {
		d[i] = os_dist_new();
		if (!d[i]) {
			rc = -1;
			goto out;
		}
		os_measure(d[i], os_calls[i].sample, os_calls[i].block, p->rounds, spr, p->tp_reads, subtract, hz);
	}
	syscall_p50 = (double)hist_quantile(d[OS_CALL_SYSCALL]->h, 500000);
	os_vdso_probe(&vp, p->vdso_calls);
	fprintf(stderr, "  %-34s %-5s %9s %9s %9s %12s\n", "call", "vdso", "p50 ns", "mean ns", "p99 ns", "block/s");
	for (int i = 0; i < OS_NCALLS; i++) {
		struct os_timer_rec r = { .clocksource = cs, .call = os_calls[i].call, .method = os_calls[i].method,
					  .present = true, .healthy = true, .d = d[i], .hz = hz, .has_vdso = true,
					  .samples_requested = spr * (uint32_t)p->rounds,
					  .vdso_calls = p->vdso_calls, .vdso_text = text };
		double p50 = (double)hist_quantile(d[i]->h, 500000);
		r.cost_ratio = syscall_p50 > 0 ? p50 / syscall_p50 : -1;
		if (vp.ok) {
			r.vdso_method = "seccomp";
			r.syscalls_per_call = (double)vp.syscalls[i] / vp.calls;
			r.vdso = r.syscalls_per_call < 0.5;
			snprintf(text, sizeof text,
				 "%u of %u calls entered the kernel: a seccomp filter in a child process made "
				 "clock_gettime/gettimeofday/time system calls fail (the syscall() reference failed %u of %u)",
				 vp.syscalls[i], vp.calls, vp.syscalls[OS_CALL_SYSCALL], vp.calls);
		} else {
			r.vdso_method = "cost";
			r.syscalls_per_call = -1;
			/* A system call costs at least ~50 ns more than the same read in
			 * the vDSO; between half and 0.8 of it the cost cannot tell. */
			r.vdso = r.cost_ratio < 0 ? -1 : r.cost_ratio < 0.5 ? 1 : r.cost_ratio > 0.8 ? 0 : -1;
			snprintf(text, sizeof text, "no syscall count (%s); p50 is %.3f of the syscall() p50%s", vp.why,
				 r.cost_ratio, vp.vdso_mapped ? "" : "; this process has no vDSO");
		}
		if (i == OS_CALL_SYSCALL)
			r.vdso = 0;
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

	/* The seeds' figures: a 1,000,000-call loop, and successive-call gaps. */
	for (int k = 0; k < nruns; k++)
		runs[k] = os_loop_rate(p->loop_calls, hz);
	os_write_rate(l, cs, p->loop_calls, runs, nruns);
	{
		double lo = runs[0], hi = runs[0], sum = 0;
		for (int k = 0; k < nruns; k++) {
			lo = runs[k] < lo ? runs[k] : lo;
			hi = runs[k] > hi ? runs[k] : hi;
			sum += runs[k];
		}
		fprintf(stderr, "  loop of %u clock_gettime(MONOTONIC), %d runs: mean %.0f calls/s (min %.0f, max %.0f)\n",
			p->loop_calls, nruns, sum / nruns, lo, hi);
	}
	{
		uint64_t back = 0;
		struct hist_mode m[5];
		int nm;
		hist_init(d[0]->h); /* reused: the clock_gettime record is written */
		os_gaps(d[0]->h, p->gap_samples, &back);
		os_write_gaps(l, cs, d[0]->h, back);
		nm = hist_modes(d[0]->h, m, 5);
		fprintf(stderr, "  gaps (ns): min %llu, max %llu, mean %.1f, sd %.1f; most common:",
			(unsigned long long)d[0]->h->min, (unsigned long long)d[0]->h->max, hist_mean(d[0]->h),
			hist_sd(d[0]->h));
		for (int k = 0; k < nm; k++)
			fprintf(stderr, " %llu (x%llu)", (unsigned long long)m[k].value, (unsigned long long)m[k].count);
		fprintf(stderr, "%s\n", back ? " BACKWARDS STEPS SEEN" : "");
	}
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
	if (p->threads > 0) {
		static struct os_contention ct;
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
out:
	for (int i = 0; i < OS_NCALLS; i++)
		os_dist_free(d[i]);
	return rc;
}
