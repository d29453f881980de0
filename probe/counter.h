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
 *  - struct counter: its desc, and what attach found (the address, the
 *    mask, another read, a rate read from the device), constant from then
 *    on: the read functions' argument.
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

struct counter_desc;

struct counter {
	/* The first two fields are read by the assembly read functions
	 * (in drivers/): keep them first and keep their offsets (0 and 8). */
	uint64_t hw;   /* port number or physical address the read uses */
	uint64_t mask; /* value mask: 2^width - 1 (the desc's width); 0 for single port accesses */

	const struct counter_desc *desc; /* what it is: name, insns, width, the run's flags */
	/* What attach found, where the device says more than its desc: the
	 * read of the device found (MMIO or port), the method with what it
	 * found, the rate read from the device (the HPET's period).  The
	 * desc's own until attach says otherwise. */
	counter_read_fn read;
	const char *method;
	uint64_t nominal_hz; /* 0: not a counter, or the TSC (calibrated instead) */
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
	unsigned insns;         /* instructions one read executes before its ret: the
	                         * exact cost under qemu -icount shift=0 (0: compiled C) */
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

/* A descriptor as attach starts it: its desc, the mask from the width, the
 * desc's read, method and rate, and no hardware address yet. */
static inline void counter_from_desc(struct counter *c, const struct counter_desc *d)
{
	tp_memset(c, 0, sizeof *c);
	c->desc = d;
	c->read = d->read;
	c->method = d->method;
	c->nominal_hz = d->nominal_hz;
	c->mask = d->width >= 64 ? ~0ull : d->width ? (1ull << d->width) - 1 : 0;
}

/* The counter's bits, as its mask has them (attach may find another width
 * than its desc's: a 32-bit PM timer); 0 for single port accesses. */
static inline unsigned counter_width(const struct counter *c)
{
	return c->mask ? 64u - (unsigned)__builtin_clzll(c->mask) : 0;
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
