/* SPDX-License-Identifier: BSD-2-Clause */
/* Which clock is wrong: the verdict of a watch over the clocks (one clock
 * that disagrees with the others, by how much, against which), as the
 * doctor weighs it.  Today it is filled from a bare-metal log's calibration
 * (the TSC timed against the HPET, the PM timer and the PIT, and CPUID leaf
 * 0x15's word); a watch over minutes fills the same struct and the doctor
 * reads it the same way. */
#ifndef TOOLS_DOCTOR_ATTRIBUTE_H
#define TOOLS_DOCTOR_ATTRIBUTE_H

#include <stdbool.h>
#include "tools/lib/logset.h"

#define ATTR_CLOCKS 5

struct attr_clock {
	char name[16];        /* Linux's name: "hpet", "acpi_pm", "pit", "cpuid15" */
	char label[24];       /* in words: "the HPET", "the PM timer", ... */
	double tsc_hz;        /* the TSC's rate as this clock times it */
	double uncertainty_ppm;
};

struct clock_attribution {
	bool known;                /* enough clocks to name one, or to say all agree */
	char clock[16];            /* the clock that disagrees ("" when all agree) */
	char label[24];
	double ppm;                /* its own rate against the others' (+ fast, - slow) */
	double uncertainty_ppm;
	char agree[120];           /* the clocks that agree, in words, the TSC among them */
	double agree_ppm;          /* how far apart they are at most */
	char source[200];          /* what measured it: "the bare-metal log's 20 ms calibration" */
	char why_unknown[200];     /* when not known */
	struct attr_clock clocks[ATTR_CLOCKS];
	int nclocks;
};

/* From a bare-metal run's `tsc` record: its `sources` (Hz the TSC counted
 * against each reference), `error_ppm` and `window_ms`. */
void attribution_from_bare(const struct lrun *r, struct clock_attribution *a);

/* From a watch record (probe/watch.h), the bare-metal watch=DURATION's or
 * `tickprobe os --watch`'s: false when the run has none (a is untouched). */
bool attribution_from_watch(const struct lrun *r, struct clock_attribution *a);

/* The attribution in one sentence ("the HPET runs 7,838 ppm slow against
 * the TSC, the PM timer and the PIT, which agree within 34 ppm"). */
void attribution_sentence(const struct clock_attribution *a, char *out, size_t cap);

#endif
