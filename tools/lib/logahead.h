/* SPDX-License-Identifier: BSD-2-Clause */
/* Log files read and checked ahead, on a thread of their own, while the
 * caller writes the previous ones to the store: reading, CRC-checking and
 * parsing a log is about half of importing it, and a fleet is thousands of
 * logs.  The files come back in the order given, each exactly once. */
#ifndef TOOLS_LIB_LOGAHEAD_H
#define TOOLS_LIB_LOGAHEAD_H

#include <stddef.h>
#include "tools/lib/logset.h"

struct ahead;

/* More work on each file on the loading thread, after it is loaded: it
 * returns what it made of the file, released with `release` when the file
 * is (both may be NULL). */
struct ahead_work {
	void *(*prepare)(void *ctx, const struct logfile *f);
	void (*release)(void *made);
	void *ctx; /* prepare's, used by the loading thread alone */
};

/* Starts loading paths[0..n) (which must outlive it); NULL when out of
 * memory.  Without a thread (it could not be started) the files are loaded
 * as they are asked for, the same files in the same order. */
struct ahead *ahead_start(char *const *paths, size_t n, const struct ahead_work *work);
/* The next file, loaded (its status in f->status), or NULL after the last;
 * *made is what work.prepare made of it.  It is the caller's until the next
 * call, which frees it. */
struct logfile *ahead_next(struct ahead *a, void **made);
/* Stops the thread (at once, if the caller gives up early) and frees all. */
void ahead_stop(struct ahead *a);

#endif
