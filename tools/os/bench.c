/* SPDX-License-Identifier: BSD-2-Clause */
/* The measurement method of `tickprobe os` (tools/os/bench.h). */
#define _GNU_SOURCE
#include <cpuid.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tools/os/bench.h"

bool os_have_rdtscp;
volatile uint64_t os_sink;

const char *os_bracket_name(void)
{
	return os_have_rdtscp ? "lfence-rdtsc/rdtscp-lfence" : "lfence-rdtsc-lfence";
}

struct os_dist *os_dist_new(void)
{
	struct os_dist *d = calloc(1, sizeof *d);

	if (!d)
		return NULL;
	d->h = malloc(sizeof *d->h);
	if (!d->h) {
		free(d);
		return NULL;
	}
	hist_init(d->h);
	return d;
}

void os_dist_free(struct os_dist *d)
{
	if (d) {
		free(d->h);
		free(d);
	}
}

/* The round histogram is reused: it is 90 KB, and rounds run back to back. */
static struct hist *round_hist(void)
{
	static struct hist *h;
	if (!h)
		h = malloc(sizeof *h);
	return h;
}

static void merge_top(uint64_t *dst, const uint64_t *src)
{
	for (int i = 0; i < OS_TOP; i++) {
		uint64_t v = src[i];
		int j = OS_TOP - 1;
		if (v <= dst[OS_TOP - 1])
			continue;
		while (j > 0 && dst[j - 1] < v) {
			dst[j] = dst[j - 1];
			j--;
		}
		dst[j] = v;
	}
}

void os_measure(struct os_dist *d, os_sampler_fn s, os_block_fn b, int rounds,
		uint32_t samples_per_round, uint32_t tp_reads, uint64_t subtract, double hz)
{
	struct hist *rh = round_hist();
	struct os_sample_ctx c;
	int r;

	if (!rh)
		return;
	if (rounds > OS_MAX_ROUNDS)
		rounds = OS_MAX_ROUNDS;
	/* Warm-up: fault in the vDSO pages and the code, train the predictors. */
	memset(&c, 0, sizeof c);
	c.h = rh;
	hist_init(rh);
	s(&c, 200);

	for (r = 0; r < rounds; r++) {
		hist_init(rh);
		memset(&c, 0, sizeof c);
		c.h = rh;
		c.subtract = subtract;
		s(&c, samples_per_round);
		d->round_p50_ns[d->nrounds] = os_cyc_to_ns((double)hist_quantile(rh, 500000), hz);
		d->round_mean_ns[d->nrounds] = os_cyc_to_ns(hist_mean(rh), hz);
		d->round_min[d->nrounds] = rh->count ? rh->min : 0;
		d->nrounds++;
		hist_merge(d->h, rh);
		d->clamped += c.clamped;
		merge_top(d->top, c.top);
	}
	if (b && tp_reads) {
		b(tp_reads / 16); /* warm */
		d->tp_reads = tp_reads;
		d->tp_cycles = b(tp_reads);
	}
}

OS_SAMPLER(sample_empty, (void)0)

uint64_t os_overhead(struct os_dist *d, int rounds, uint32_t samples_per_round, double hz)
{
	os_measure(d, sample_empty, NULL, rounds, samples_per_round, 0, 0, hz);
	return d->h->count ? d->h->min : 0;
}

static double ts_ns(const struct timespec *t)
{
	return (double)t->tv_sec * 1e9 + (double)t->tv_nsec;
}

/* One (TSC, CLOCK_MONOTONIC_RAW) pair: the best of 9 tries, by bracket width,
 * with the TSC taken at the bracket's middle. */
static void pair(double *tsc, double *ns, double *width)
{
	double best = -1;
	for (int i = 0; i < 9; i++) {
		struct timespec t;
		uint64_t a = os_tsc_begin();
		clock_gettime(CLOCK_MONOTONIC_RAW, &t);
		uint64_t b = os_tsc_end();
		if (best < 0 || (double)(b - a) < best) {
			best = (double)(b - a);
			*tsc = (double)a + best / 2;
			*ns = ts_ns(&t);
		}
	}
	*width = best;
}

void os_tsc_calibrate(struct os_tsc_cal *cal, int interval_ms)
{
	unsigned a, b, c, d;
	double t0, n0, w0, t1, n1, w1;
	struct timespec nap = { interval_ms / 1000, (long)(interval_ms % 1000) * 1000000L };

	memset(cal, 0, sizeof *cal);
	/* What the CPU itself says, where it says anything. */
	if (__get_cpuid(0, &a, &b, &c, &d)) {
		unsigned max = a;
		if (max >= 0x15) {
			__cpuid_count(0x15, 0, a, b, c, d);
			if (a && b && c)
				cal->cpuid15_hz = (double)c * b / a;
		}
		if (max >= 0x16) {
			__cpuid_count(0x16, 0, a, b, c, d);
			if (a & 0xffff)
				cal->cpuid16_hz = (double)(a & 0xffff) * 1e6;
		}
		__cpuid_count(1, 0, a, b, c, d);
		if (c & (1u << 31)) { /* a hypervisor: leaf 0x40000010 is VMware's TSC kHz, also offered by KVM/QEMU */
			__cpuid_count(0x40000000, 0, a, b, c, d);
			if (a >= 0x40000010 && a < 0x40010000) {
				__cpuid_count(0x40000010, 0, a, b, c, d);
				if (a)
					cal->hypervisor_hz = (double)a * 1e3;
			}
		}
	}

	pair(&t0, &n0, &w0);
	nanosleep(&nap, NULL);
	pair(&t1, &n1, &w1);
	if (n1 <= n0 || t1 <= t0)
		return;
	cal->interval_s = (n1 - n0) / 1e9;
	cal->hz = (t1 - t0) / (n1 - n0) * 1e9;
	/* Each end is known to within half its bracket, and the clock to 1 ns. */
	cal->err_ppm = ((w0 + w1) / 2 / (t1 - t0) + 2.0 / (n1 - n0)) * 1e6;
}

int os_pin_self(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof set, &set) == 0 ? cpu : -1;
}
