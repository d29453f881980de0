/* SPDX-License-Identifier: BSD-2-Clause */
/* Inside `tickprobe schedule`: the firmware's half (schedule_efi.c), GRUB's
 * (schedule_grub.c), and what they share with schedule.c: each step said as
 * it is done (or, dry, instead of doing it), and the record of what was done. */
#ifndef TOOLS_SCHEDULE_STEPS_H
#define TOOLS_SCHEDULE_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include "tools/schedule/schedule.h"

struct sched_record {
	char text[2048]; /* key=value lines, for STATE/schedule.state */
	size_t n;
};

void state_put(struct sched_record *r, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A key's value in a record ("" and false when absent). */
bool record_get(const struct sched_record *r, const char *key, char *out, size_t cap);
/* STATE/schedule.state (state.c), read through the held state directory:
 * 1 read, 0 there is none, -1 it cannot be trusted or read (said). */
int state_load(const struct schedule *s, struct sched_record *r);
/* Written (a temporary file, fsync, renamed, the directory fsync'ed) before
 * any firmware variable or GRUB state is touched, said as a step; 0 or a
 * status, said ("nothing was changed"). */
int state_write(const struct schedule *s, const struct sched_record *r);
int state_remove(const struct schedule *s);
void step(const struct schedule *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* argv run with a 60 s bound (said as a step first); 0 or an exit status. */
int step_run(const struct schedule *s, char **argv);

/* This system has the firmware's variables (the efivarfs directory). */
bool efi_present(const struct schedule *s);
/* The arrangements: each fills r, has it written (state_write) and only
 * then changes anything; a failure after that leaves the undoing to the
 * caller, which cancels from the record. */
int efi_arrange(const struct schedule *s, const char *options, struct sched_record *r);
/* Undo what the record says, as far as it was done and is still ours. */
int efi_cancel(const struct schedule *s, const struct sched_record *r);
/* With no record: a BootNext naming tickprobe's entry, and tickprobe's
 * entries outside BootOrder (schedule never puts one there); *found counts
 * what was taken away. */
int efi_sweep(const struct schedule *s, int *found);
int efi_uninstall(const struct schedule *s);
/* The entry BootNext names, or -1. */
int efi_boot_next(const struct schedule *s);

/* GRUB boots this system with the package's entry and a one-shot next_entry. */
bool grub_present(const struct schedule *s, char *why, size_t cap);
int grub_arrange(const struct schedule *s, const char *options, struct sched_record *r);
int grub_cancel(const struct schedule *s, const struct sched_record *r);
/* GRUB's one-shot (next_entry naming tickprobe, tickprobe_once), wherever
 * it came from; *found counts what was unset.  Also --uninstall's. */
int grub_sweep(const struct schedule *s, int *found);
/* next_entry in the environment block ("" when unset). */
void grub_next_entry(const struct schedule *s, char *out, size_t cap);

#endif
