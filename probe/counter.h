/* SPDX-License-Identifier: BSD-2-Clause */
/* A counter as its driver describes it, in the spirit of FreeBSD's struct
 * timecounter, which each driver owns whole.  Three parts:
 *
 *  - struct counter_desc: what the driver knows before it looks at the
 *    machine (name, read, width, nominal rate, the run's flags, prepare):
 *    constant, one per read path ("hpet" and "hpet64" read the same device
 *    two ways and get one each), in the driver's file;
 *  - struct counter_driver: one device's counters, set up together (attach)
 *    and put back in a known state together (settle); the platform hands
 *    the run one list of them, in the order they are measured;
 *  - struct counter: what attach found (the address, the mask, a rate read
 *    from the device), filled once from the desc and constant from then on:
 *    the read functions' argument.
 *
 * What the run finds out about a counter (there, healthy, and why not) is
 * its struct counter_state, kept by the run. */
#ifndef PROBE_COUNTER_H
#define PROBE_COUNTER_H

#include <stddef.h>
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

/* One counter, constant, as its driver's file has it. */
struct counter_desc {
	const char *name;       /* "tsc", "hpet", "acpi-fast", ...: the options' and the records' */
	counter_read_fn read;   /* attach may pick another for the device it finds (MMIO or port) */
	unsigned insns;         /* struct counter's insns */
	const char *method;     /* how a read is done, in words; attach may say more */
	unsigned width;         /* bits (the mask follows); 0 for single port accesses */
	uint64_t nominal_hz;    /* 0: read from the device by attach, or none */
	bool tsc_based;         /* counts TSC cycles: no frequency check of its own */
	bool is_counter;        /* a counter (delta/frequency checks apply), not a bare port access */
	const char *calibrates; /* the tsc record's source name when it can time the TSC
	                         * ("hpet", "pm_timer", "pit"), else NULL */
	const char *rate_from;  /* the counter whose calibration also gives this one's
	                         * rate ("hpet" for "hpet64"); NULL: none, or itself */
	const char *needs;      /* a counter that must be healthy for this one to be worth
	                         * timing ("i8254" for its single port accesses) */
	bool disturbs;          /* leaves its device in an unknown state: its driver's settle follows */
	/* Its rate is measured against the TSC once the TSC is known, though it
	 * does not calibrate the TSC (probe/run_clocks.c): the APIC timer, the
	 * RTC, the paravirtual clocks. */
	bool rated;
	/* A slow read takes samples / samples_div of the samples (0, 1: all):
	 * a whole RTC time read is 26 ISA accesses, 30-50 us on hardware. */
	unsigned samples_div;
	/* Puts the device in the state this counter's reads need, before its
	 * check, its rate, the plan's reads and its measurement, on the CPU
	 * that reads (the APIC timer: counting for the current count,
	 * TSC-deadline mode for the deadline writes); the driver's settle
	 * undoes it.  May be NULL.  ctx is the platform's (probe/platform.h),
	 * handed through: a driver keeps its state in its own struct. */
	void (*prepare)(void *ctx);
};

struct acpi_info;
/* What a driver's attach may use: the firmware's tables, and memory from
 * the platform's allocator (zeroed; NULL when there is none left). */
struct counter_env {
	const struct acpi_info *acpi;
	void *(*alloc)(void *ctx, size_t bytes);
	void *ctx;
};

/* One device's driver: its counters, in the order they are measured. */
struct counter_driver {
	const char *name; /* "HPET": the step "HPET setup" in an exception record */
	const struct counter_desc *counters;
	unsigned n;
	/* Looks at the machine and fills c[0..n-1] (descriptors the driver
	 * keeps in its own struct, constant from then on) and s[0..n-1]
	 * (present, or absent with the reason). */
	void (*attach)(const struct counter_env *env, const struct counter **c, struct counter_state *s);
	/* Back to a known state after the checks and a disturbing counter's
	 * reads; may be NULL.  ctx as for prepare. */
	void (*settle)(void *ctx);
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

/* A descriptor as attach starts it: the desc's, the mask from the width,
 * and no hardware address yet. */
static inline void counter_from_desc(struct counter *c, const struct counter_desc *d)
{
	counter_describe(c, d->name, d->read, d->insns, d->method);
	c->width = d->width;
	c->mask = d->width >= 64 ? ~0ull : d->width ? (1ull << d->width) - 1 : 0;
	c->nominal_hz = d->nominal_hz;
	c->tsc_based = d->tsc_based;
	c->is_counter = d->is_counter;
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
