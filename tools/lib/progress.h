/* SPDX-License-Identifier: BSD-2-Clause */
/* One live progress line on a terminal, for the commands that take from
 * 10 s to minutes (qemu, qemu --linux, os, db import): what is being
 * measured, n of N, and the time left.  Drawn on stderr with a carriage
 * return, at most 4 times a second; on a pipe or with --quiet nothing at
 * all is written, so their output stays what it is without it.  A command
 * clears the line (progress_clear) before it prints a line of its own. */
#ifndef TOOLS_LIB_PROGRESS_H
#define TOOLS_LIB_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

struct progress {
	FILE *to;          /* NULL: off (not a terminal, or --quiet) */
	const char *who;   /* "tickprobe qemu" */
	double last;       /* when it was last drawn (CLOCK_MONOTONIC s) */
	size_t width;      /* of the line on the screen; 0: none */
};

/* On when to is a terminal and quiet is false. */
void progress_init(struct progress *p, const char *who, FILE *to, bool quiet);
/* What is happening now: n of total (total 0: not counted), and seconds
 * left (< 0: not known).  force draws even within 0.25 s of the last. */
void progress_show(struct progress *p, const char *what, unsigned n, unsigned total, double left_s, bool force);
/* CLOCK_MONOTONIC in seconds, for the time left. */
double progress_now(void);
/* The line wiped, so that the next output starts on a clean line. */
void progress_clear(struct progress *p);

#endif
