/* SPDX-License-Identifier: BSD-2-Clause */
/* A counter read by 1, 2, 4 ... N CPUs at the same moment: what one read
 * costs each reader, how many reads per second the device serves, and
 * whether a value one CPU read is ever below one another CPU had read before.
 *
 * Which CPUs read.  Two readers on SMT siblings, on two cores and on two
 * packages are three different experiments, so each level takes its readers
 * spread out: packages first, then cores within them, then SMT siblings
 * (contention_order, from struct team_place; a CPU of unknown place counts
 * as a package of its own).  Where two running CPUs share a core, one more
 * level reads with those two siblings alone.  Every other CPU waits quietly
 * (arch/x86/smp.h, idle waits) while a level runs.
 *
 * Did they read at the same time?  The barrier releases them together, but
 * a hypervisor may run its vCPUs one after another.  Each level's overlap is
 * the time all readers were reading (the last reader's first read to the
 * first reader's last read) over the whole window (the first first read to
 * the last last read), 0 when they never overlapped, 1 for one reader: on
 * TSCs in step (the tsc_sync record says whether they are).
 *
 * Each level releases its readers with one barrier.  Each reader measures
 * its empty bracket (the least of 64), then makes K bracketed reads into its
 * own histogram, overhead subtracted.  The bookkeeping below happens between
 * the bracketed reads, so reads_per_s is that of the whole loop.
 *
 * Backward steps across CPUs.  One shared word holds the sequence number
 * of the last published read and the CPU that made it.  A reader loads the
 * word (s, p), reads the counter (v), writes (s+1, v) into its own ring, and
 * tries to publish with a compare-and-swap of the word from (s, p) to
 * (s+1, itself).  The swap succeeds only if nobody published since the load,
 * so p's read at s, made before p's swap, happened before this CPU's load
 * and so before its read: their order is proven, and v must not be below
 * the value p wrote for s, which the reader then looks up in p's ring (it
 * was written before p's swap; a stamp check, seqlock-style, catches the
 * rare case that p has since reused the slot, and that pair is "lost").
 * Nobody waits for anybody.  Only proven pairs are compared, a read whose
 * swap fails is not compared at all: "ordered" counts the proven pairs,
 * "backwards" those where the later read, made on another CPU, is below the
 * earlier.  Values are compared within the counter's width (descriptor
 * mask), so a wrap is a step forward: v is behind when (v - prev) & mask is
 * over half the range. */
#ifndef PROBE_CONTENTION_H
#define PROBE_CONTENTION_H

#include <stdbool.h>
#include <stdint.h>
#include "probe/counter.h"
#include "probe/hist.h"
#include "probe/smp_env.h"

#define CONTENTION_MAX_LEVELS 11 /* 1, 2, 4 ... 256, N when N is no power of two, two siblings */
#define CONTENTION_CONCURRENT 0.5 /* an overlap below this: the level is no contention */
#define CONTENTION_RING 8        /* values each reader keeps: a slot is reused after 8 publishes */

struct contention_level {
	unsigned n;            /* readers asked for */
	unsigned returned;     /* readers that made all their reads */
	uint64_t p50_median, p99_median; /* cycles: the median of the readers' p50s, of their p99s */
	uint64_t p50_worst, p99_worst;   /* cycles: the largest */
	uint64_t reads;        /* by all readers */
	uint64_t wall_cycles;  /* the slowest reader's, its first read to its last */
	uint64_t ordered;      /* reads compared with the one published before them */
	uint64_t backwards;    /* of those, below a value another CPU had read */
	uint64_t same_cpu_backwards; /* below the same CPU's own earlier value */
	uint64_t max_backward; /* ticks */
	uint64_t lost;         /* proven pairs whose earlier value was overwritten before it was read */
	bool siblings;         /* the level of two SMT siblings of one core */
	double overlap;        /* in [0, 1], see above; 0 when a reader made no reads, NAN when none did */
	uint16_t cpus[TEAM_MAX_CPUS]; /* the n readers, in the order taken */
};

struct contention_slot {
	uint64_t stamp; /* the sequence number the value was read for; BUSY while written */
	uint64_t value;
};

struct contention_reader {
	struct contention_slot ring[CONTENTION_RING]; /* written by this reader only */
	uint64_t p50, p99, reads, wall, overhead;
	uint64_t first, last; /* TSC: its first read's start, its last read's end */
	uint64_t ordered, cross, backwards, same_cpu_backwards, max_backward, lost;
	bool done, returned;
} __attribute__((aligned(64)));

/* What the readers share.  It lives in the result, which the caller keeps
 * static: a late reader writes into memory that is still there. */
struct contention_shared {
	uint32_t arrive __attribute__((aligned(64)));
	uint64_t word __attribute__((aligned(64))); /* sequence << 16 | CPU of the last publish */
	struct contention_reader reader[TEAM_MAX_CPUS];
};

struct contention_result {
	const char *counter;
	const char *refused;   /* why nothing was measured, or NULL */
	uint32_t reads_per_reader;
	unsigned n_levels;
	struct contention_level level[CONTENTION_MAX_LEVELS];
	uint64_t ordered, backwards, same_cpu_backwards, max_backward; /* over all levels */
	/* per CPU over all levels: backward steps it read, and proven pairs
	 * whose earlier read was another CPU's */
	uint64_t cpu_backwards[TEAM_MAX_CPUS], cpu_cross[TEAM_MAX_CPUS];
	/* the run in progress */
	struct contention_shared shared;
	const struct smp_env *env;
	const struct counter *c;
	struct hist *hists;
	uint16_t hist_of[TEAM_MAX_CPUS];
	unsigned level_n;
	uint64_t wait_cycles;
	uint64_t scratch[4][TEAM_MAX_CPUS]; /* p50s, p99s, first and last reads */
};

/* Measures counter c at every level, readers being the first n running CPUs
 * in contention_order (CPU 0 first, where it is the first of its core), and
 * the siblings' level last.  hists: n_hists histograms lent for the readers (91.6 KB
 * each; N CPUs need N), which caps N.  wait_cycles bounds the barrier, the
 * only wait there is.  Safe with one CPU (one level). */
void contention_measure(struct smp_env *e, const struct counter *c, uint32_t reads_per_reader,
			struct hist *hists, unsigned n_hists, uint64_t wait_cycles, struct contention_result *r);

/* The n CPUs of cpus[] in the order the levels take them: one per package,
 * then one per core, then the remaining SMT threads (ties in cpus[] order).
 * place: by CPU index, NULL when nothing is known. */
void contention_order(const struct team_place *place, const unsigned *cpus, unsigned n, unsigned *out);

/* Two CPUs of cpus[] on one core (the first such pair in cpus[] order):
 * true and out[0..1] set, or false. */
bool contention_siblings(const struct team_place *place, const unsigned *cpus, unsigned n, unsigned *out);

/* The share of the window that readers' [first, last] intervals all cover. */
double contention_overlap(const uint64_t *first, const uint64_t *last, unsigned n);

#endif
