/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe compare --gate BASELINE NEW…` (and `tickprobe qemu --baseline`):
 * a pass/fail verdict for CI.  For each counter of the baseline and each new
 * run, Student's t on the per-round values (as compare does it, ministat's
 * way) says whether the new run is slower; it fails only when it is slower
 * by more than the counter's threshold (a percentage, or nanoseconds) AND the
 * difference is significant at the chosen confidence, so noise alone never
 * fails a run.  A counter healthy in the baseline that is absent or
 * unhealthy in the new run fails; a counter new in the new run is reported
 * and passes.  Written as text, TAP version 13 or JUnit XML. */
#ifndef TOOLS_LIB_GATE_H
#define TOOLS_LIB_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "tools/lib/logset.h"

#define GATE_KEY 128
#define GATE_MAX_THRESHOLDS 64

enum gate_format { GATE_TEXT, GATE_TAP, GATE_JUNIT };

struct gate_threshold {
	char key[GATE_KEY]; /* a counter's key (compare's: "hpet", "os:clock_gettime(MONOTONIC)@tsc"), or "*" */
	double pct;         /* slower by more than this many per cent; < 0: not this kind */
	double ns;          /* or by more than this many ns */
};

struct gate_opts {
	const char *metric;  /* "p50" or "mean": the per-round value */
	int ci;              /* tools/lib/stats.h's confidence index */
	double conf;         /* its level, for the words */
	struct gate_threshold dflt;
	struct gate_threshold per[GATE_MAX_THRESHOLDS];
	size_t nper;
	enum gate_format format;
};

/* "10%" or "25ns" (also "25.5 ns"), into t (its key left alone); false when
 * it is neither. */
bool gate_parse_threshold(const char *s, struct gate_threshold *t);
/* "COUNTER=10%" (--threshold with a counter) into o->per; false with why. */
bool gate_add_threshold(struct gate_opts *o, const char *spec, char *why, size_t cap);
/* A thresholds file: "COUNTER THRESHOLD" a line ("*" for the default), "#"
 * comments, blank lines; false with why (naming the line). */
bool gate_read_thresholds(struct gate_opts *o, const char *path, char *why, size_t cap);

/* p50, 95 %, 10 %, text. */
void gate_defaults(struct gate_opts *o);

/* The last run of new_log against the last of base (`tickprobe qemu
 * --baseline`), written to out_path (stdout when NULL); EXIT_CLEAN,
 * EXIT_REGRESSED, or EXIT_UNREADABLE said on stderr. */
int gate_files(const char *base, const char *new_log, const struct gate_opts *o, const char *out_path);

/* Every check of news[0..n) against base, written to out in o->format.
 * Returns EXIT_CLEAN, or EXIT_REGRESSED when any check failed. */
int gate_run(FILE *out, const struct lrun *base, const struct lrun *const *news, size_t n, const struct gate_opts *o);

#endif
