/* SPDX-License-Identifier: BSD-2-Clause */
/* Linux clocksources for `tickprobe os`: which exist, which is in use, and
 * switching between them without ever leaving the system changed.
 *
 * The kernel lists them in
 *   <root>/sys/devices/system/clocksource/clocksource0/available_clocksource
 *   <root>/sys/devices/system/clocksource/clocksource0/current_clocksource
 * where <root> is "/" except in tests, which point it at a fake tree (there
 * current_clocksource is a plain file, so a switch "takes" by construction).
 *
 * A switch arms a guard first (cs_guard.c): the original name and the
 * file's path are kept in static storage, and every signal that can be
 * caught and whose default action ends the process (signal(7)'s "Term" and
 * "Core": SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
 * SIGXCPU, SIGVTALRM, SIGPROF, the fault signals, the real-time signals, …)
 * gets a handler that writes the original back with open/write/close (all
 * async-signal-safe), removes the restore record, says so on stderr, and
 * re-raises the signal with its default action.  os_cs_restore() does the
 * same on normal and error paths.  A signal that was ignored when the guard
 * was armed stays ignored: it cannot end the run (`tickprobe os` ignores
 * SIGPIPE and SIGXFSZ itself, so that a closed pipe or a full disk is an
 * error it reports and restores after).  SIGKILL cannot be caught: the
 * restore record (cs_run.h), written before the first switch, lets the next
 * switcher or `tickprobe os --restore` put the original back. */
#ifndef TOOLS_OS_CLOCKSOURCE_H
#define TOOLS_OS_CLOCKSOURCE_H

#include <stdbool.h>
#include <stddef.h>

#define OS_CS_MAX 16   /* real systems list 1..4 (tsc hpet acpi_pm; kvm-clock, hyperv_clocksource_tsc_page) */
#define OS_CS_NAME 32  /* the kernel's CS_NAME_LEN is 32 including the NUL */
#define OS_CS_PATH 4096

struct os_clocksources {
	char dir[OS_CS_PATH];      /* …/clocksource0 */
	int n;                     /* names in available[] */
	char available[OS_CS_MAX][OS_CS_NAME];
	int dropped;               /* names past OS_CS_MAX or too long, ignored */
	char current[OS_CS_NAME];  /* as read at discovery */
	bool current_listed;       /* current is one of available[] */
	char problem[OS_CS_PATH + 200];       /* why discovery failed, or a note ("" when none) */
};

/* The characters that separate names in the kernel's lists. */
bool os_cs_space(char c);

/* Split a whitespace-separated list (spaces, tabs, newlines, any amount) into
 * names.  Returns how many were kept (at most max); *dropped counts the rest
 * and names of OS_CS_NAME or more characters. */
int os_cs_parse_list(const char *text, char (*names)[OS_CS_NAME], int max, int *dropped);

/* Read both files under root ("/" when NULL or "").  Returns 0 when the
 * current clocksource is known (available may then be empty or not list it:
 * current_listed says which, problem explains), -1 when current_clocksource
 * could not be read or is empty (problem says why). */
int os_cs_discover(const char *root, struct os_clocksources *cs);

/* Read current_clocksource of the directory cs->dir, trimmed. 0 or -1. */
int os_cs_read_current(const struct os_clocksources *cs, char *out, size_t cap);

/* Whether name is one of cs's available clocksources. */
bool os_cs_listed(const struct os_clocksources *cs, const char *name);

/* Remember cs->current as the original and install the signal handlers.
 * run_fd: the run directory (cs_run.h) the restore record goes in, held
 * and locked by the caller; -1 allows no switch.  log_fd (or -1) also gets
 * a one-line human note if a signal ends the run. */
void os_cs_guard_arm(const struct os_clocksources *cs, int run_fd, int log_fd);

/* Write name to current_clocksource and read it back.  Returns 0 when it
 * took, -1 otherwise with err filled ("…reads back 'tsc'").  The guard must be
 * armed first, and the first switch writes the restore record before it
 * touches current_clocksource (the switch is refused otherwise). */
int os_cs_switch(const struct os_clocksources *cs, const char *name, char *err, size_t errcap);

/* Put the system back as the kernel would have it: the original if a
 * switch happened, verified; when the original can no longer be selected
 * (the kernel replaced tsc-early with tsc), the kernel's own choice, made
 * by clearing the override (a write of "\n") and read back, or on a fake
 * tree the original's known successor.  0 when nothing was needed or the
 * restore took, -1 otherwise (err says why, and what to do). */
int os_cs_restore(char *err, size_t errcap);

/* After a restore that took: the clocksource in use when it is not the
 * original (the kernel's choice), else "". */
const char *os_cs_restored_instead(void);

/* Re-read available_clocksource into cs (a clocksource may have come or
 * gone since discovery: tsc replaces tsc-early).  0, or -1 when unreadable. */
int os_cs_refresh(struct os_clocksources *cs);

/* True after a switch until a successful restore. */
bool os_cs_switched(void);

/* Restore (if needed and not already tried and reported) and put the
 * signal actions back as they were. */
void os_cs_guard_disarm(void);

/* After a switcher that ended without restoring (a restore record found,
 * its lock free): put original back in cs's tree as os_cs_restore() would,
 * and remove the record from run_fd.  Not while the guard is armed.  0 with
 * msg saying what was in use and what is now, or -1 with msg saying why
 * (the record then stays). */
int os_cs_recover(const struct os_clocksources *cs, int run_fd, const char *original, char *msg, size_t cap);

#endif
