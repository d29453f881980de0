/* SPDX-License-Identifier: BSD-2-Clause */
/* TSC synchronisation between CPUs: each CPU against the boot CPU (or, with
 * tsc_sync=matrix, every pair), three ways.
 *
 * - A warp test in the manner of Linux's arch/x86/kernel/tsc_sync.c: both
 *   CPUs in turn take one spinlock, read the TSC, compare it with the last
 *   value either stored, store theirs and let go.  A value below the last
 *   one is a warp: time went backwards from one CPU to the other.
 * - An offset from a timestamp ping-pong: the reference CPU reads t1 and
 *   signals, the other reads tb and signals back, the reference reads t2.
 *   tb was read between t1 and t2, so offset = tb - (t1+t2)/2 is within
 *   (t2-t1)/2 of the truth; of many round trips the tightest is kept.
 * - IA32_TSC_ADJUST (MSR 0x3b) on every CPU whose CPUID says it exists.
 *
 * Every TSC read goes through smp_tsc(), so tsc_skew= skews them all. */
#ifndef PROBE_TSC_SYNC_H
#define PROBE_TSC_SYNC_H

#include <stdbool.h>
#include <stdint.h>
#include "probe/smp_env.h"

#define MSR_IA32_TSC_ADJUST 0x3b

/* The verdict, as the code applies it and the record states it. */
#define TSC_SYNC_RULE \
	"synchronized iff every pair was measured, no pair warped, and |offset_cycles| <= uncertainty_cycles in every pair"
/* What Linux's boot-time check would conclude: it marks the TSC unstable on
 * any warp its check finds between the boot CPU and another CPU.  (Kernels
 * since 4.10 first try to cancel a warp by writing IA32_TSC_ADJUST, where it
 * exists, and check again; the flag reports the first check.) */
#define TSC_SYNC_LINUX_RULE "any warp between the boot CPU and another CPU"

struct tsc_sync_config {
	bool matrix;             /* every pair, not only each CPU against CPU 0 */
	uint64_t warp_cycles;    /* each pair's warp test, by each CPU's own TSC */
	uint64_t warp_loops;     /* and at most this many lock rounds per CPU */
	uint32_t pingpongs;      /* round trips for the offset */
	uint64_t wait_cycles;    /* bound on every wait for the other CPU */
};

/* Linux's figures: 20 ms warp tests (2 ms for the matrix, Linux's figure
 * for CPUs of one package, since n(n-1)/2 pairs add up), 10,000,000 lock
 * rounds; 1000 round trips; 100 ms bounds. */
void tsc_sync_defaults(struct tsc_sync_config *cfg, const struct smp_env *e, bool matrix);

struct tsc_pair {
	uint16_t ref, cpu;
	bool warp_done;       /* both CPUs ran the warp test to its end */
	bool offset_done;     /* the ping-pong completed at least one round trip */
	uint64_t warps;       /* values below the one the other CPU (or this one) stored */
	uint64_t max_warp;    /* cycles */
	uint64_t handoffs;    /* times the lock passed between the two CPUs */
	uint64_t loops;       /* lock rounds of both CPUs */
	int64_t offset;       /* cpu's TSC minus ref's, in cycles */
	uint64_t uncertainty; /* half the tightest round trip, rounded up */
	uint32_t round_trips; /* completed */
};

enum tsc_verdict { TSC_VERDICT_UNKNOWN, TSC_VERDICT_SYNCHRONIZED, TSC_VERDICT_NOT_SYNCHRONIZED };

/* What the two CPUs of a pair share while they measure it.  It lives in the
 * result, which the caller keeps static: a CPU that comes back late writes
 * into memory that is still there. */
struct tsc_sync_shared {
	uint32_t arrive __attribute__((aligned(64)));
	uint32_t ticket_next __attribute__((aligned(64)));
	uint32_t ticket_serving;
	uint64_t last_tsc;
	uint32_t last_side; /* 0 ref, 1 cpu, 2 nobody yet */
	uint32_t flag __attribute__((aligned(64)));
	uint64_t tb;
	struct tsc_sync_side {
		uint64_t warps, max_warp, handoffs, loops;
		bool met, warp_done, returned;
		uint64_t best_round_trip;
		int64_t best_offset2; /* 2*tb - t1 - t2 of the tightest round trip */
		uint32_t round_trips;
	} __attribute__((aligned(64))) side[2]; /* one cache line each: each CPU writes its own */
};

struct tsc_sync_result {
	bool matrix;
	unsigned n_cpus;          /* CPUs measured (gone ones left out) */
	struct tsc_pair *pairs;   /* the caller's array */
	unsigned n_pairs, pairs_skipped; /* skipped: beyond the array's capacity */
	unsigned n_incomplete;    /* pairs not measured in full */
	enum tsc_verdict verdict;
	uint64_t warps, max_warp; /* over all pairs */
	uint64_t min_handoffs;    /* the fewest lock hand-overs of any pair's warp test */
	bool linux_would_mark_unstable;
	bool tsc_adjust_valid[TEAM_MAX_CPUS]; /* the MSR exists and was read */
	int64_t tsc_adjust[TEAM_MAX_CPUS];
	bool answered[TEAM_MAX_CPUS];         /* the CPU returned from the MSR run */
	struct tsc_sync_config cfg; /* the configuration measured with */
	struct tsc_sync_shared shared;
	const struct smp_env *env;
	unsigned run_ref, run_cpu;
};

/* Pairs the configuration needs for n CPUs: n-1, or n(n-1)/2 for the matrix. */
unsigned tsc_sync_pairs_needed(unsigned n_cpus, bool matrix);

/* Measures every pair into pairs[0 .. cap).  Safe with one CPU (no pairs,
 * verdict unknown).  A CPU that does not return from a run is marked gone in
 * *e; its pairs are reported incomplete. */
void tsc_sync_measure(struct smp_env *e, const struct tsc_sync_config *cfg, struct tsc_pair *pairs,
		      unsigned cap, struct tsc_sync_result *r);

#endif
