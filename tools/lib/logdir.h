/* SPDX-License-Identifier: BSD-2-Clause */
/* Where logs are: the LOG operands of every reader, of which a directory
 * stands for every *.log below it, and the places the image leaves its logs
 * on a machine with no serial cable (the ESP's \tickprobe\logs, a stick). */
#ifndef TOOLS_LIB_LOGDIR_H
#define TOOLS_LIB_LOGDIR_H

#include <stdbool.h>
#include <stddef.h>

struct loglist {
	char **paths;
	size_t n, cap;
};

/* Each operand as given when it is a file (or does not exist: its reader
 * then says so), every *.log below it in name order when it is a directory.
 * Returns EXIT_CLEAN, or EXIT_UNREADABLE when a directory could not be read
 * (said on stderr, prog first); what could be listed is kept. */
int loglist_expand(struct loglist *l, char *const *operands, size_t n, const char *prog);

/* The directories a cable-less run leaves its logs in, as far as this
 * system has them mounted: /boot/efi/tickprobe/logs (and /efi, /boot), and
 * tickprobe/logs on every mounted removable or USB volume.  Returns how many. */
size_t logdirs_default(struct loglist *dirs);

/* Where `tickprobe schedule --after-boot` keeps a readable copy of each new
 * log of the ESP (NNNN.log: a Debian ESP is mounted umask=0077, root only)
 * and the OS log it measured on the boot after (os-NNNN.log, never taken for
 * the probe's): pushed onto dirs when it exists; returns how many (0 or 1). */
#define LOGDIR_OS "/var/lib/tickprobe/logs"
size_t logdirs_os(struct loglist *dirs);

/* The newest log of dirs (the ones given, or the default places and
 * LOGDIR_OS when ndirs is 0; no os-*.log): the highest NNNN.log number, else the latest change time.
 * NULL with a message on stderr when there is none. */
char *log_latest(char *const *dirs, size_t ndirs, const char *prog);

/* What a reader reads: loglist_expand of the operands; with latest, the
 * newest log of the DIR operands (of the default places when none is a
 * directory) first, then the file operands.  With latest and no operand at
 * all, the newest OS log of LOGDIR_OS follows when it is newer than that
 * log: the pair a scheduled run left (show --latest shows both, compare
 * --latest compares them). */
int loglist_from_operands(struct loglist *l, char *const *operands, size_t n, bool latest, const char *prog);

void loglist_push(struct loglist *l, const char *path);
void loglist_free(struct loglist *l);

#endif
