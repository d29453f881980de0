/* SPDX-License-Identifier: BSD-2-Clause */
/* Loading tickprobe logs on the host: one file, through tools/lib/logread.h, into
 * runs of good records plus the problems found, each with its line number.
 * Shared by show, export, compare and capture. */
#ifndef TOOLS_LIB_LOGSET_H
#define TOOLS_LIB_LOGSET_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include "tools/lib/logread.h"
#include "tools/lib/logderived.h"

struct lrec {
	uint32_t line;
	uint64_t seq;
	const char *type;          /* points into the parse */
	char *text;                /* the record line as written (no line end) */
	size_t len;
	const struct lr_node *root;
	struct lr_node *nodes;     /* the record's own parse */
	char *strs;
	struct derived derived;    /* members the log leaves out, put back (logderived.h) */
};

struct lprob {
	uint32_t line;             /* 0: about the whole run or file */
	int severity;              /* enum lr_severity */
	char *msg;
};

struct lrun {
	char *name;                /* "FILE", or "FILE#N" when the file holds several runs */
	struct lr_run info;        /* the reader's verdict, final after loading */
	struct lrec *recs;         /* every good record; streamed: the first of each kept type */
	size_t nrecs, caprecs;
	uint64_t seen;             /* good records read, kept or not */
	struct lprob *probs;
	size_t nprobs, capprobs;
	size_t nbad;               /* problems of LR_DAMAGE or worse, kept or not */
	uint64_t probs_dropped;    /* streamed: problems past LOGSET_STREAM_PROBLEMS, counted only */
};

struct logfile {
	char *path;
	struct lrun *runs;
	size_t nruns;
	struct lprob *probs;       /* problems outside any run */
	size_t nprobs, capprobs;
	uint64_t probs_dropped;    /* streamed: past LOGSET_STREAM_PROBLEMS, counted only */
	int status;                /* EXIT_CLEAN, EXIT_UNREADABLE or EXIT_DAMAGED (tools/lib/exit_codes.h) */
	char why[256];             /* when EXIT_UNREADABLE: the reason */
	uint64_t records;          /* good records, every run */
};

/* A streamed file is read this many bytes at a time, and keeps at most this
 * many problems per run (and outside the runs): the rest are counted. */
#define LOGSET_STREAM_CHUNK (64u * 1024u)
#define LOGSET_STREAM_PROBLEMS 64u

/* Reads and checks a whole file; returns f->status.  Never prints. */
int logfile_load(struct logfile *f, const char *path);
/* The same for bytes already in memory, named `name` in messages. */
int logfile_load_mem(struct logfile *f, const char *name, const void *data, size_t n);
/* Reads a log from fd a piece at a time, with memory that does not depend on
 * its length: each good record goes to each(ctx, run, rec) as it comes (rec
 * and its parse valid during the call only), and a run keeps only the first
 * record of each type named in keep (a NULL-ended list; NULL: none), which
 * lrun_first then finds.  r->seen counts every good record.  Returns
 * f->status, as logfile_load. */
int logfile_stream(struct logfile *f, int fd, const char *name, const char *const *keep,
		   void (*each)(void *ctx, struct lrun *r, const struct lrec *rec), void *ctx);
/* A record's own memory (the records of a loaded run are freed with it). */
void lrec_free(struct lrec *rec);
/* Frees the calling thread's reader memory, kept between loads: for a
 * thread that loads and then ends. */
void logfile_load_done(void);
/* Every problem as "prog: FILE:LINE: reason", then the run verdicts that are
 * not clean ("FILE#2: partial: no end record"). */
void logfile_report(const struct logfile *f, FILE *out, const char *prog);
void logfile_free(struct logfile *f);

/* The worse of two exit statuses (2 unreadable beats 3 damaged beats 0). */
int exit_worse(int a, int b);

/* "complete", "partial (no end record)", "damaged (…)": a run's state in words. */
const char *lrun_state(const struct lrun *r, char *buf, size_t cap);
int lrun_damaged(const struct lrun *r);

/* Records of a run. */
const struct lr_node *lrun_first(const struct lrun *r, const char *type);
const struct lr_node *lrun_timer(const struct lrun *r, const char *name);
/* The k-th timer record (0-based) of the boot CPU, NULL past the last: a
 * timer record with a `cpu` member (the table again on another core type,
 * tools/lib/smprec.h) is not one of them. */
const struct lr_node *lrun_timer_at(const struct lrun *r, size_t k);
const char *lrun_boot(const struct lrun *r); /* begin.boot, or NULL */
/* A timer's key across logs: its name, "os:" first for an OS-side clock
 * call (which names a clocksource), so that it never lines up with a
 * hardware counter of the same name; an OS log's bare reads (`tsc`,
 * clocksource null) do line up with the probe's.  And the boot CPU's timer
 * of that key in a run, or NULL. */
void lrun_timer_key(const struct lr_node *t, char *buf, size_t cap);
const struct lr_node *lrun_timer_by_key(const struct lrun *r, const char *key);

/* A timer's per-round values in ns (`rounds[].p50` or `.mean`), malloc'd into
 * *out; returns how many (0 and *out = NULL when none). */
size_t timer_rounds(const struct lr_node *timer, const char *metric, double **out);

/* Number formatting: "%.*f" (integers exact), or with decimals < 0 the
 * number exactly as written in the log; "-" for a missing value. */
const char *fmt_num(char *buf, size_t cap, const struct lr_node *n, int decimals);

#endif
