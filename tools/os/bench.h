/* SPDX-License-Identifier: BSD-2-Clause */
/* The measurement method of `tickprobe os`: a serialised TSC bracket around
 * one call, the empty-bracket overhead taken off every sample, rounds, a
 * back-to-back throughput block, and the TSC frequency (calibrated against
 * CLOCK_MONOTONIC_RAW).
 *
 * Bracket "lfence-rdtsc/rdtscp-lfence": lfence;rdtsc, the body, rdtscp;lfence.  The leading LFENCE keeps RDTSC
 * from starting before earlier instructions finish; RDTSCP waits for the body
 * to finish, and the trailing LFENCE keeps later instructions from starting
 * before RDTSCP has read the counter (Intel SDM vol. 2, RDTSCP; AMD makes
 * LFENCE dispatch-serialising when Linux sets DE_CFG[1], which it does on every
 * family since 10h).  Without RDTSCP the end is lfence;rdtsc;lfence
 * ("lfence-rdtsc-lfence", the image's name for it).  The image's other
 * bracket, CPUID;RDTSC … RDTSCP;CPUID, is not used: in a virtual machine
 * CPUID is a VM exit of a microsecond or more, and its jitter would swamp a
 * 20 ns call.
 * On the machines this was written on the empty bracket costs 30..60 cycles. */
#ifndef TOOLS_OS_BENCH_H
#define TOOLS_OS_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include "probe/hist.h"

#define OS_MAX_ROUNDS 1000
#define OS_TOP 5

extern bool os_have_rdtscp;
extern volatile uint64_t os_sink; /* results land here so no body is optimised away */

static inline uint64_t os_tsc_begin(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t os_tsc_end(void)
{
	uint32_t lo, hi;
	if (os_have_rdtscp)
		__asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi) : : "rcx", "memory");
	else
		__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

const char *os_bracket_name(void);

/* One measurement in progress: samples go into h, overhead-corrected. */
struct os_sample_ctx {
	struct hist *h;
	uint64_t subtract;   /* cycles taken off every sample (the empty bracket's minimum) */
	uint64_t clamped;    /* samples below `subtract`, counted as 0 */
	uint64_t top[OS_TOP]; /* the largest raw-corrected samples, largest first */
};

static inline void os_sample_add(struct os_sample_ctx *c, uint64_t t0, uint64_t t1)
{
	uint64_t v;

	if (t1 < t0 + c->subtract) { /* also a (pinned-away) backwards step */
		c->clamped++;
		v = 0;
	} else
		v = t1 - t0 - c->subtract;
	hist_add(c->h, v);
	if (v > c->top[OS_TOP - 1]) {
		int i = OS_TOP - 1;
		while (i > 0 && c->top[i - 1] < v) {
			c->top[i] = c->top[i - 1];
			i--;
		}
		c->top[i] = v;
	}
}

/* A sampler runs n bracketed calls; a block runs n calls inside one bracket
 * and returns the cycles.  Generated per body so nothing but the call itself
 * sits inside the bracket (no indirect call, no loop bookkeeping). */
typedef void (*os_sampler_fn)(struct os_sample_ctx *c, uint32_t n);
typedef uint64_t (*os_block_fn)(uint32_t n);

#define OS_SAMPLER(fname, BODY)                                          \
	static void fname(struct os_sample_ctx *c, uint32_t n)           \
	{                                                                \
		for (uint32_t i_ = 0; i_ < n; i_++) {                    \
			uint64_t t0_ = os_tsc_begin();                   \
			BODY;                                            \
			uint64_t t1_ = os_tsc_end();                     \
			os_sample_add(c, t0_, t1_);                      \
		}                                                        \
	}

#define OS_BLOCK(fname, BODY)                                            \
	static uint64_t fname(uint32_t n)                                \
	{                                                                \
		uint64_t t0_ = os_tsc_begin();                           \
		for (uint32_t i_ = 0; i_ < n; i_++) {                    \
			BODY;                                            \
		}                                                        \
		return os_tsc_end() - t0_;                               \
	}

/* A measured distribution: the whole run's histogram, per-round figures. */
struct os_dist {
	struct hist *h;        /* every sample, cycles */
	uint64_t clamped;
	uint64_t top[OS_TOP];
	int nrounds;
	double round_p50_ns[OS_MAX_ROUNDS], round_mean_ns[OS_MAX_ROUNDS];
	uint64_t round_min[OS_MAX_ROUNDS];  /* cycles */
	uint64_t tp_reads, tp_cycles; /* the throughput block */
};

struct os_dist *os_dist_new(void);  /* NULL when out of memory */
void os_dist_free(struct os_dist *d);

/* Warm up, then `rounds` rounds of samples_per_round samples each, then one
 * throughput block of tp_reads calls.  hz converts the per-round figures. */
void os_measure(struct os_dist *d, os_sampler_fn s, os_block_fn b, int rounds,
		uint32_t samples_per_round, uint32_t tp_reads, uint64_t subtract, double hz);

/* The empty bracket: its distribution (nothing subtracted), and the minimum
 * that os_measure() then subtracts. */
uint64_t os_overhead(struct os_dist *d, int rounds, uint32_t samples_per_round, double hz);

/* TSC frequency against CLOCK_MONOTONIC_RAW over interval_ms. */
struct os_tsc_cal {
	double hz;        /* 0 when calibration failed */
	double err_ppm;   /* from the two brackets' widths and the clock's 1 ns resolution */
	double interval_s;
	double cpuid15_hz, cpuid16_hz, hypervisor_hz; /* 0 when the CPU does not say */
};
void os_tsc_calibrate(struct os_tsc_cal *cal, int interval_ms);

/* Pin this process to the CPU it runs on; returns that CPU or -1. */
int os_pin_self(void);

static inline double os_cyc_to_ns(double cycles, double hz)
{
	return hz > 0 ? cycles * 1e9 / hz : 0;
}

#endif
