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
void step(const struct schedule *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* argv run with a 60 s bound (said as a step first); 0 or an exit status. */
int step_run(const struct schedule *s, char **argv);

/* This system has the firmware's variables (the efivarfs directory). */
bool efi_present(const struct schedule *s);
int efi_arrange(const struct schedule *s, const char *options, struct sched_record *r);
int efi_cancel(const struct schedule *s, const char *state);
int efi_uninstall(const struct schedule *s);
/* The entry BootNext names, or -1. */
int efi_boot_next(const struct schedule *s);

/* GRUB boots this system with the package's entry and a one-shot next_entry. */
bool grub_present(const struct schedule *s, char *why, size_t cap);
int grub_arrange(const struct schedule *s, const char *options, struct sched_record *r);
int grub_cancel(const struct schedule *s, const char *state);
int grub_uninstall(const struct schedule *s);
/* next_entry in the environment block ("" when unset). */
void grub_next_entry(const struct schedule *s, char *out, size_t cap);

#endif
