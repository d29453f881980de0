/* SPDX-License-Identifier: BSD-2-Clause */
/* A counter descriptor, in the spirit of FreeBSD's struct timecounter: what
 * the counter is called, how one read is done, its width and its nominal
 * frequency.  One descriptor per read path: "hpet" and "hpet64" read the same
 * device two ways and get one each.
 *
 * The descriptor is filled once, by its driver's setup, and is constant for
 * the rest of the run; what the run finds out about the counter (there, and
 * healthy, and why not) is its struct counter_state, kept by the run. */
#ifndef PROBE_COUNTER_H
#define PROBE_COUNTER_H

#include <stdint.h>
#include <stdbool.h>
#include "lib/fmt.h"
#include "lib/util.h"

struct counter;
/* A read: returns the counter value (or the byte read).  Takes the descriptor
 * so that one function serves every device of its kind. */
typedef uint64_t (*counter_read_fn)(const struct counter *c);

struct counter {
	/* The first two fields are read by the assembly read functions
	 * (in drivers/): keep them first and keep their offsets (0 and 8). */
	uint64_t hw;   /* port number or physical address the read uses */
	uint64_t mask; /* value mask: 2^width - 1; 0 for single port accesses */

	const char *name;     /* "tsc", "hpet", "acpi-fast", ... */
	counter_read_fn read;
	const char *method;   /* how a read is done, in words, for the log */
	uint64_t nominal_hz;  /* 0: not a counter, or the TSC (calibrated instead) */
	unsigned width;       /* bits; 0 for single port accesses */
	unsigned insns;       /* instructions one read executes before its ret: the
	                       * exact cost under qemu -icount shift=0 */
	bool tsc_based;       /* counts TSC cycles: no frequency check of its own */
	bool is_counter;      /* a counter (delta/frequency checks apply), not a bare port access */
};

#define COUNTER_TEXT 112

/* What a run finds out about one counter. */
struct counter_state {
	bool present;              /* the hardware is there */
	bool healthy;              /* and it passed the checks */
	char reason[COUNTER_TEXT]; /* why not, when !present or !healthy */
	char note[COUNTER_TEXT];   /* something worth saying even when healthy */
	/* Absent because this kind of machine has no such thing (a CPUID bit
	 * clear, another hypervisor, the APIC's other mode), not because
	 * something failed: the run is not ok-absent for it unless counters=
	 * names it. */
	bool by_design;
};

#define COUNTER_HW_OFFSET 0
#define COUNTER_MASK_OFFSET 8
_Static_assert(__builtin_offsetof(struct counter, hw) == COUNTER_HW_OFFSET, "read functions load hw at 0");
_Static_assert(__builtin_offsetof(struct counter, mask) == COUNTER_MASK_OFFSET, "read functions load mask at 8");

/* A fresh descriptor: zero but for what every read path has. */
static inline void counter_describe(struct counter *c, const char *name, counter_read_fn read,
				    unsigned insns, const char *method)
{
	tp_memset(c, 0, sizeof *c);
	c->name = name;
	c->read = read;
	c->insns = insns;
	c->method = method;
}

/* A fresh state: present until its driver finds otherwise, not yet checked. */
static inline void counter_state_init(struct counter_state *s)
{
	tp_memset(s, 0, sizeof *s);
	s->present = true;
}

/* The hardware is not there, and why.  counter_not_here: not there by the
 * machine's design (a CPUID bit clear, another hypervisor), which alone does
 * not make a run ok-absent. */
static inline void counter_absent(struct counter_state *s, const char *why)
{
	s->present = false;
	tp_snprintf(s->reason, sizeof s->reason, "%s", why);
}

static inline void counter_not_here(struct counter_state *s, const char *why)
{
	counter_absent(s, why);
	s->by_design = true;
}

#endif
