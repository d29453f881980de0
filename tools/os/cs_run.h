/* SPDX-License-Identifier: BSD-2-Clause */
/* What keeps two clocksource switchers apart, and what outlives one that
 * was killed: the run directory <root>/run/tickprobe (<root> is "/" except
 * with --sysfs-root, so that a test's fake tree has its own), holding
 *
 *   clocksource.lock     flock()ed by the one process that may switch; it
 *                        holds its process id, for the message of a second
 *   clocksource.restore  the restore record: written (atomically) before the
 *                        first switch, removed once the original is back, so
 *                        that after a SIGKILL the next switcher, or
 *                        `tickprobe os --restore`, finds what to put back
 *
 * The directory and both files are opened without following a link, and the
 * directory must belong to this user and be writable by nobody else: the
 * record says what root writes to current_clocksource. */
#ifndef TOOLS_OS_CS_RUN_H
#define TOOLS_OS_CS_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include "tools/os/clocksource.h"

#define OS_RUN_DIR "run/tickprobe"
#define OS_CS_LOCK "clocksource.lock"
#define OS_CS_RECORD "clocksource.restore"
#define OS_CS_RECORD_MAX 256 /* bytes: a record is three short lines */
#define OS_LOCK_WAIT_DEFAULT 30.0

struct os_cs_run {
	int dir_fd;                /* <root>/run/tickprobe, held; -1 when not open */
	int lock_fd;               /* the lock file, locked; -1 when not held */
	char dir[OS_CS_PATH + 32]; /* its path, for messages */
};

/* What a switcher left behind. */
struct os_cs_record {
	long pid;                  /* the process that switched */
	char original[OS_CS_NAME]; /* the clocksource to put back */
};

/* Opens <root>/run/tickprobe ("/" when root is NULL or ""), making run/ and
 * tickprobe/ (0755) where missing when create is set.  0; 1 when it does not
 * exist and create is not set; -1 with why (a link, another user's, or one
 * others can write). */
int os_run_open(const char *root, bool create, struct os_cs_run *r, char *why, size_t cap);

/* Takes the switch lock: at once, or after waiting up to wait_s seconds
 * (said once on stderr, naming the holder) while another process holds it.
 * 0 when held, -1 with why (the holder, and how long was waited). */
int os_run_lock(struct os_cs_run *r, double wait_s, char *why, size_t cap);

/* Closes the directory and the lock file (which releases the lock). */
void os_run_close(struct os_cs_run *r);

/* The record's text from its fields, and back.  Parsing is strict: the
 * header line, "pid N" (N > 0) and "original NAME" (a clocksource name:
 * letters, digits, '-', '_' and '.'), each once, nothing else.  Parse
 * returns false with why. */
size_t os_cs_record_format(const struct os_cs_record *rec, char *out, size_t cap);
bool os_cs_record_parse(const char *text, size_t n, struct os_cs_record *rec, char *why, size_t cap);

/* Reads the record of the directory dir_fd.  1 found (rec filled), 0 none,
 * -1 unreadable or malformed (why). */
int os_cs_record_read(int dir_fd, struct os_cs_record *rec, char *why, size_t cap);

/* Writes the record for original and this process: a temporary file,
 * fsync, renamed over the record, the directory fsync'ed.  0, or -1 with
 * why (and no record or temporary file left). */
int os_cs_record_write(int dir_fd, const char *original, char *why, size_t cap);

/* For a run that does not switch: whether <root>/run/tickprobe holds a
 * restore record, and whether its switcher is still at work.  Writes a
 * one-line note to note ("" when there is nothing to say). */
void os_run_peek(const char *root, char *note, size_t cap);

#endif
