/* SPDX-License-Identifier: BSD-2-Clause */
/* The kernel's clock call lined up with the bare hardware read beneath it.
 *
 * A `tickprobe os` log (begin.boot "linux") times clock calls that name the
 * clocksource the kernel used; a bare-metal log times the counter itself.
 * Pairing the two gives what the kernel path adds on top of one read: the
 * OS call's per-round values minus the hardware read's, with Student's t at
 * the chosen confidence (tools/lib/stats.h).  `tickprobe compare` prints these
 * rows as text and `tickprobe report` as an HTML table, from this one unit,
 * so the two always agree. */
#ifndef TOOLS_LIB_LINEUP_H
#define TOOLS_LIB_LINEUP_H

#include <stddef.h>
#include "tools/lib/logset.h"

/* The clock call whose path through the kernel compare and report split
 * into the hardware read, user space and the kernel's share. */
#define LINEUP_CALL "clock_gettime(MONOTONIC)"

/* The hardware counter a Linux clocksource reads ("acpi_pm" -> "acpi-fast",
 * "tsc-early" -> "tsc"), or NULL when the probe has none (kvm-clock). */
const char *lineup_counter(const char *clocksource);

/* A run from `tickprobe os` (begin.boot is "linux"). */
int lineup_is_os(const struct lrun *r);

/* The runs of loaded files that compare and report use, in file order:
 * those with records, in a schema this reader knows.  Fills out[0..cap) and
 * returns how many. */
size_t lineup_runs(const struct logfile *files, size_t nfiles, const struct lrun **out, size_t cap);

struct lineup_row {
	const char *clocksource;  /* the OS timer's clocksource ("acpi_pm") */
	const char *call;         /* the clock call it timed; NULL when the log names none */
	const char *counter;      /* the hardware counter under it ("acpi-fast") */
	size_t os_log, hw_log;    /* indexes into the runs given */
	const struct lrun *os_run, *hw_run;
	size_t os_n, hw_n;        /* per-round values found in each */
	int tested;               /* both have 2 rounds or more: the numbers below are set */
	double os_p50, hw_p50;    /* medians of the per-round values, ns */
	double diff, err;         /* mean OS minus mean hardware, and its confidence half-width */
	int significant;          /* |diff| > err */
	/* The same counter read from user space, in the OS log (its raw
	 * timer: `tsc` always, `hpet` and `acpi-fast` with --raw-io). */
	size_t user_n;            /* its per-round values; 0: not in the log */
	int user_tested;          /* user_n and os_n both 2 or more: the three below are set */
	double user_p50;          /* median of its per-round values, ns */
	double user_diff, user_err; /* mean OS call minus mean user-space read, and the half-width */
	int user_significant;
};

struct lineup {
	struct lineup_row *rows;
	size_t n;
};

/* Every pairing of an OS clock call that reads a counter (not
 * MONOTONIC_COARSE or time()) with a bare-metal log that has its counter, in order: OS log, its timers, then the hardware logs.  metric is
 * the per-round value ("p50" or "mean"); conf_index a stats_conf_index.
 * Returns 0, or -1 when out of memory (out is then empty).  lineup_free
 * releases the rows; the strings point into the runs. */
int lineup_build(const struct lrun *const *runs, size_t nruns, const char *metric, int conf_index,
		 struct lineup *out);
void lineup_free(struct lineup *l);

/* The probe's `contention` record for counter in a bare-metal run, or NULL. */
const struct lr_node *lineup_hw_contention(const struct lrun *r, const char *counter);

/* A contention record's `readers` entry with n readers, or NULL (also for
 * a NULL record). */
const struct lr_node *lineup_readers_n(const struct lr_node *rec, double n);

#endif
