/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe schedule`: one boot into the probe at the next restart, then
 * back (docs/server.md).
 *
 *   UEFI  a Boot#### entry for \EFI\tickprobe\tickprobe.efi on the ESP with
 *         the probe's options (an existing one is reused), made the one-time
 *         BootNext; BootOrder is never written.  The firmware deletes BootNext
 *         as it starts the entry, so the boot after is the installed system's
 *         whatever the probe does.
 *   GRUB  `grub-reboot tickprobe` (GRUB clears next_entry as it boots it) and
 *         the options in the GRUB environment block as tickprobe_once, which
 *         the package's entry (/etc/grub.d/25_tickprobe) uses and clears.
 *
 * What is to be done is written to STATE/schedule.state before anything is
 * changed (state.c), so that --cancel undoes exactly that, and a step that
 * fails has what was done before it undone at once; with no record,
 * --cancel looks for what schedule makes.  --dry-run prints the same steps
 * and does none. */
#ifndef TOOLS_SCHEDULE_SCHEDULE_H
#define TOOLS_SCHEDULE_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>

#define SCHEDULE_APP_PATH "\\EFI\\tickprobe\\tickprobe.efi"
#define SCHEDULE_DESCRIPTION "tickprobe"
#define SCHEDULE_GRUB_ENTRY "tickprobe"
#define SCHEDULE_OPTIONS_MAX 256

enum schedule_method { METHOD_AUTO, METHOD_EFI, METHOD_GRUB };

struct schedule {
	const char *efivars;   /* /sys/firmware/efi/efivars */
	const char *esp;       /* the ESP's mount point; NULL: the package's search */
	const char *disk;      /* with partition: the ESP's disk, when sysfs cannot tell */
	unsigned partition;
	const char *boot_dir;  /* /boot: grub/grub.cfg and grub/grubenv */
	const char *state_dir; /* /var/lib/tickprobe */
	const char *preset;    /* NULL: the probe's default */
	long runs;             /* 0: not given */
	enum schedule_method method;
	bool dry_run, reboot, quiet;
};

/* The probe's options for the scheduled boot: "preset=P runs=N after=reboot". */
void schedule_options(const struct schedule *s, char *out, size_t cap);

/* Each returns an exit status (tools/commands.h), having said what it did
 * (or, with dry_run, would do) on stdout and any problem on stderr. */
int schedule_arrange(const struct schedule *s);
int schedule_cancel(const struct schedule *s);
/* Every trace of schedule: tickprobe's Boot#### entries (and a BootNext or
 * BootOrder item naming one), GRUB's one-shot, the record.  The package's
 * prerm runs it before removal. */
int schedule_uninstall(const struct schedule *s);

/* A "key=value" file's key ("" when absent): GRUB's environment block. */
bool schedule_state_get(const char *path, const char *key, char *out, size_t cap);
/* The state directory, held: made (0755) first when create is set; a
 * link as its last component followed only when it is this user's in a
 * directory only this user can write; refused when the directory is not
 * this user's alone (root undoes firmware changes from what it holds).
 * The descriptor; -2 when it does not exist and create is not set; -1
 * with why. */
int schedule_state_dir(const struct schedule *s, bool create, char *why, size_t cap);

#endif
