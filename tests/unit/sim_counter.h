/* SPDX-License-Identifier: BSD-2-Clause */
/* A simulated platform for probe/measure.c on the host: a TSC that moves
 * only when something reads it or a counter, counters whose value follows
 * from that TSC (so their true rate is known exactly), and timing brackets
 * that return scripted costs.  Everything is deterministic.
 *
 * The fake TSC counts SIM_TSC_HZ cycles a second; a counter of nominal
 * frequency f reads floor(tsc * f / SIM_TSC_HZ) plus an offset, masked to its
 * width, at the moment its read ends. */
#ifndef TESTS_SIM_COUNTER_H
#define TESTS_SIM_COUNTER_H

#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <stdlib.h>
#include "probe/counter.h"
#include "probe/hist.h"
#include "probe/measure.h"
#include "tests/unit/xorshift.h"

#define SIM_TSC_HZ 1000000000ull
#define SIM_MAX_GLITCHES 4096

static uint64_t sim_now;            /* the fake TSC */
static uint64_t sim_tsc_step = 10;  /* cycles one TSC read takes */

static inline uint64_t sim_tsc(void)
{
	sim_now += sim_tsc_step;
	return sim_now;
}

enum sim_kind {
	SIM_RATE,     /* follows the fake TSC at hz */
	SIM_CONST,    /* always value */
	SIM_SCRIPT,   /* script[0], script[1], ..., then the last one again */
	SIM_PER_READ, /* value, value+1, ...: counts reads, not time */
};

struct sim_counter {
	struct counter c; /* first, so a read function can cast back */
	struct counter_desc desc; /* c's, which a test may change */
	struct counter_state st;
	enum sim_kind kind;
	uint64_t hz, offset;
	uint64_t read_cost;  /* cycles one read takes */
	uint64_t jitter;     /* plus 0..jitter-1 more, pseudo-random */
	uint64_t stop_at;    /* SIM_RATE: frozen from this TSC on (0: never) */
	uint64_t slow_from;  /* from this TSC on (0: never), a read takes slow_cost */
	uint64_t slow_cost;
	uint64_t stall_read;  /* this read (counted from 1; 0: none) is held off... */
	uint64_t stall_cost;  /* ...this many cycles more... */
	uint64_t stall_every; /* ...and so is every this many reads after it (0: once) */
	bool down;           /* counts down; the read negates it, as drivers/i8254.c does */
	uint64_t value;
	const uint64_t *script;
	size_t n_script;
	uint64_t glitch_every, glitch_by; /* every Nth read comes back glitch_by ticks early */
	/* what the reads did */
	uint64_t reads, last, wraps_seen, first_wrap_read;
	uint64_t rng;
	uint64_t glitch_at[SIM_MAX_GLITCHES]; /* read index of each glitch */
	size_t n_glitch;
};

/* Whether the read now being made is one of those held off. */
static inline bool sim_stalled(const struct sim_counter *s)
{
	if (!s->stall_read || s->reads < s->stall_read)
		return false;
	return s->reads == s->stall_read || (s->stall_every && (s->reads - s->stall_read) % s->stall_every == 0);
}

static inline uint64_t sim_read(const struct counter *cc)
{
	struct sim_counter *s = (struct sim_counter *)(uintptr_t)cc;
	uint64_t v = 0, idx = s->reads++;

	sim_now += s->slow_from && sim_now >= s->slow_from ? s->slow_cost : s->read_cost;
	if (sim_stalled(s))
		sim_now += s->stall_cost;
	if (s->jitter) {
		sim_now += xorshift64(&s->rng) % s->jitter;
	}
	switch (s->kind) {
	case SIM_RATE: {
		uint64_t t = s->stop_at && sim_now > s->stop_at ? s->stop_at : sim_now;
		uint64_t ticks = (uint64_t)((unsigned __int128)t * s->hz / SIM_TSC_HZ);
		v = s->down ? (uint64_t)0 - ((s->offset - ticks) & s->c.mask) : s->offset + ticks;
		break;
	}
	case SIM_CONST:
		v = s->value;
		break;
	case SIM_SCRIPT:
		v = s->script[idx < s->n_script ? idx : s->n_script - 1];
		break;
	case SIM_PER_READ:
		v = s->value++;
		break;
	}
	if (s->glitch_every && idx % s->glitch_every == s->glitch_every - 1) {
		v -= s->glitch_by;
		if (s->n_glitch < SIM_MAX_GLITCHES)
			s->glitch_at[s->n_glitch++] = idx;
	}
	v &= s->c.mask;
	if (idx && v < s->last && !s->glitch_every && !s->wraps_seen++)
		s->first_wrap_read = idx;
	s->last = v;
	return v;
}

static inline void sim_counter_init(struct sim_counter *s, const char *name, enum sim_kind kind, unsigned width,
			     uint64_t hz)
{
	memset(s, 0, sizeof *s);
	s->desc = (struct counter_desc){ .name = name,
					 .read = sim_read,
					 .insns = 3,
					 .method = "simulated read",
					 .width = width,
					 .nominal_hz = hz,
					 .is_counter = true };
	counter_from_desc(&s->c, &s->desc);
	s->c.hw = 0xfed000f0;
	counter_state_init(&s->st);
	s->kind = kind;
	s->hz = hz;
	s->read_cost = 1000; /* 1 us: a PM timer or HPET read on real hardware */
	s->rng = 0x9e3779b97f4a7c15ull;
}

/* ---- brackets ----------------------------------------------------------- */

static const uint64_t *sim_br_script; /* costs the bracket returns in turn */
static size_t sim_br_n, sim_br_pos;
static uint64_t sim_br_default = 50;  /* after the script */
static uint64_t sim_br_calls;
static uint64_t sim_block_k, sim_block_calls;
static uint64_t sim_smi_next = 41;
static bool sim_smi_fail_after; /* the second SMI read fails */
static int sim_smi_calls;

static inline uint64_t sim_bracket(counter_read_fn fn, const struct counter *c)
{
	sim_br_calls++;
	fn(c);
	return sim_br_pos < sim_br_n ? sim_br_script[sim_br_pos++] : sim_br_default;
}

/* k back-to-back reads: 7 cycles each plus 3 for the bracket. */
static inline uint64_t sim_block(counter_read_fn fn, const struct counter *c, uint64_t k)
{
	(void)fn;
	(void)c;
	sim_block_calls++;
	sim_block_k = k;
	return 7 * k + 3;
}

static inline uint64_t sim_empty(const struct counter *c)
{
	(void)c;
	return 0;
}

static inline bool sim_smi(uint64_t *count)
{
	if (sim_smi_calls++ && sim_smi_fail_after)
		return false;
	*count = sim_smi_next++;
	return true;
}

static inline void sim_bracket_script(const uint64_t *costs, size_t n)
{
	sim_br_script = costs;
	sim_br_n = n;
	sim_br_pos = 0;
	sim_br_calls = 0;
	sim_block_k = sim_block_calls = 0;
	sim_smi_next = 41;
	sim_smi_calls = 0;
	sim_smi_fail_after = false;
}

/* A histogram on the heap (struct hist is about 90 KB), empty. */
static inline struct hist *sim_hist(void)
{
	struct hist *h = malloc(sizeof *h);
	hist_init(h);
	return h;
}

/* xorshift64: the same numbers on every run. */
static uint64_t sim_rand_state = 88172645463325252ull;
static inline uint64_t sim_rand(void)
{
	return xorshift64(&sim_rand_state);
}

static inline void sim_clock(struct probe_clock *pc)
{
	memset(pc, 0, sizeof *pc);
	pc->tsc = sim_tsc;
	pc->bracket = sim_bracket;
	pc->block = sim_block;
	pc->empty = sim_empty;
	pc->bracket_name = "sim";
	pc->smi_count = sim_smi;
	pc->max_wait_cycles = SIM_TSC_HZ; /* 1 s of fake time */
	pc->max_wait_loops = 1000000;
	sim_tsc_step = 10;
}

#endif
