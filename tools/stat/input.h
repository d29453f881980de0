/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading `tickprobe stat` input: ministat's line rules turned into numbers.
 * Kept apart from the command so that a fuzz harness can drive it over
 * arbitrary bytes without a file (stat_input_parse), and so that the command
 * can stream a file through it in chunks (stat_input_fd) without holding it. */
#ifndef TOOLS_STAT_INPUT_H
#define TOOLS_STAT_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct stat_values {
	double *v; /* malloc'd; the caller frees */
	size_t n, cap;
};

/* Return values of the functions below. */
#define STAT_INPUT_OK 0
#define STAT_INPUT_INVALID (-1) /* a wanted column is not a number: bad_line says where */
#define STAT_INPUT_NOMEM (-2)
#define STAT_INPUT_READ (-3) /* read(2) failed: errno says why */

/* Where the numbers go, a batch at a time; returns 0 when out of memory
 * (the reading stops with STAT_INPUT_NOMEM).  count NULL: v[0, n) once each,
 * in input order.  Otherwise v[i] count[i] more times, in no order: the
 * repeats of short lines the line cache saw again (never a zero, so the
 * order of the zeros' signs is the order of the calls without counts). */
typedef int (*stat_input_sink)(void *ctx, const double *v, const uint64_t *count, size_t n);

#define STAT_INPUT_BATCH 512

/* The line cache: a line of at most 8 bytes with its '\n' (any line of
 * "1050.4"-sized numbers), seen before, is counted by its bytes, without
 * parsing it again.  256 KB of slots, at most half full. */
#define STAT_INPUT_CACHE_SLOTS 8192
struct stat_line_seen {
	uint64_t text;  /* the line's bytes up to its '\n', zeros past it; 0: free */
	double v;
	uint64_t count; /* repeats after the first */
	uint64_t pad;
};

/* One reading in progress.  Fill it with stat_input_init. */
struct stat_input {
	const unsigned char *delim; /* 256 flags: the delimiter characters */
	int column;                 /* 1-based */
	int fast;                   /* plain one-number lines may skip the general rules */
	size_t line;                /* lines read so far; on STAT_INPUT_INVALID, the bad one */
	size_t nvalues;             /* values read so far */
	double sum;                 /* their sum, in input order (ministat's Avg adds so) */
	double last;                /* the last value read */
	struct stat_line_seen *seen; /* the line cache, or NULL */
	size_t nseen, hits, misses;
	int seen_off;               /* the cache misses more than it hits: not asked */
	stat_input_sink sink;
	void *ctx;
	size_t nbatch;
	double batch[STAT_INPUT_BATCH];
};

/* Mark every character of `delim` (a NUL-terminated string) in set[256]. */
void stat_input_delims(unsigned char set[256], const char *delim);

void stat_input_init(struct stat_input *in, const unsigned char delim[256], int column,
		     stat_input_sink sink, void *ctx);

/* Turns the line cache on; without memory for it, reading goes on without. */
void stat_input_use_cache(struct stat_input *in);

/* The lines of buf[0, len): every one when at_eof, else those ended by a
 * newline; *used says how many bytes were consumed (the rest is an unfinished
 * line, to be given again with more bytes after it).  buf[len] must exist
 * and be writable; buf[0, len] is as it was on return. */
int stat_input_feed(struct stat_input *in, char *buf, size_t len, int at_eof, size_t *used);

/* Hands the last batch and the line cache's counts to the sink and frees
 * the cache. */
int stat_input_finish(struct stat_input *in);

/* All of fd through `in`, read in chunks (a line longer than a chunk grows
 * the buffer), then stat_input_finish. */
int stat_input_fd(struct stat_input *in, int fd);

/* Append the values of column `column` (1-based) of buf[0, len) to out.
 * buf must be writable and have a byte at buf[len]; its bytes are restored
 * before return.  Lines are split on the characters marked in delim. */
int stat_input_parse(char *buf, size_t len, const unsigned char delim[256], int column,
		     struct stat_values *out, size_t *bad_line);

/* [s, e) as a number, all of it, as strtod reads it: 1 and *out, or 0 when
 * it is not one.  *e must be writable (it is put back). */
int stat_input_number(char *s, char *e, double *out);

#endif
