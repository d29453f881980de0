/* SPDX-License-Identifier: BSD-2-Clause */
/* The collector's log directory, held open: every machine's folder and every
 * log in it is opened relative to it (openat), never through a symbolic
 * link, and only where no other user can write.  A collector run as root
 * for the syslog port then cannot be steered by whoever can write under
 * --dir into appending to a file elsewhere. */
#ifndef TOOLS_COLLECT_SPOOL_H
#define TOOLS_COLLECT_SPOOL_H

#include <stdbool.h>
#include <stddef.h>

/* --dir: created (with its parents, 0755) when missing, then opened
 * (O_DIRECTORY, O_NOFOLLOW) and checked; the descriptor, or -1 with why. */
int spool_open(const char *path, char *why, size_t cap);

/* DIR/MACHINE, created when create is true and it is missing; its
 * descriptor, or -1 with why. */
int spool_machine(int dirfd, const char *machine, bool create, char *why, size_t cap);

/* A new log in the machine's folder, NNNN.log one past the highest there
 * (O_EXCL: a second collector on the same DIR takes the next one), open for
 * appending and reading; its descriptor, its name in name (at least 16
 * bytes), or -1 with why. */
int spool_new_log(int machine_fd, char *name, size_t name_cap, char *why, size_t cap);

/* DIR/MACHINE/NAME again (a boot heard from after it went silent). */
int spool_reopen(int dirfd, const char *machine, const char *name, char *why, size_t cap);

#endif
