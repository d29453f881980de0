/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe schedule`: the choice of firmware or GRUB, the steps, the
 * record and the reboot (schedule.h). */
#define _GNU_SOURCE
#include "tools/schedule/schedule.h"
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools/commands.h"
#include "tools/lib/spawn.h"
#include "tools/schedule/steps.h"

#define TOOL_TIMEOUT 60.0 /* grub-reboot, grub-editenv, systemctl: each well under a second */

void schedule_options(const struct schedule *s, char *out, size_t cap)
{
	size_t k = 0;
	out[0] = 0;
	if (s->preset)
		k += (size_t)snprintf(out + k, cap - k, "preset=%s ", s->preset);
	if (s->runs && k < cap)
		k += (size_t)snprintf(out + k, cap - k, "runs=%ld ", s->runs);
	if (k < cap)
		snprintf(out + k, cap - k, "after=reboot");
}

void step(const struct schedule *s, const char *fmt, ...)
{
	va_list ap;
	if (s->quiet)
		return;
	printf("  %s", s->dry_run ? "would " : "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

int step_run(const struct schedule *s, char **argv)
{
	char line[1024];
	size_t k = 0;
	int intr, st;

	for (int i = 0; argv[i] && k < sizeof line; i++)
		k += (size_t)snprintf(line + k, sizeof line - k, "%s%s", i ? " " : "", argv[i]);
	step(s, "run %s", line);
	if (s->dry_run)
		return 0;
	st = spawn_run(argv, TOOL_TIMEOUT, NULL, NULL, &intr);
	if (st == -2)
		fprintf(stderr, "tickprobe schedule: cannot run %s: %s\n", argv[0], strerror(errno));
	else if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		fprintf(stderr, "tickprobe schedule: `%s` failed%s\n", line, st < 0 ? " (timed out)" : "");
	return st == 0 ? 0 : EXIT_UNREADABLE;
}

bool schedule_state_get(const char *path, const char *key, char *out, size_t cap)
{
	char line[1024];
	size_t kl = strlen(key);
	bool found = false;
	FILE *f = fopen(path, "r");

	out[0] = 0;
	if (!f)
		return false;
	while (!found && fgets(line, sizeof line, f))
		if (!strncmp(line, key, kl) && line[kl] == '=') {
			line[strcspn(line, "\n")] = 0;
			snprintf(out, cap, "%s", line + kl + 1);
			found = true;
		}
	fclose(f);
	return found;
}

/* The method asked for, or the firmware's when this system has its
 * variables, else GRUB's; METHOD_AUTO with a message when neither. */
static enum schedule_method pick_method(const struct schedule *s)
{
	char why[PATH_MAX + 200];
	if (s->method == METHOD_EFI && !efi_present(s))
		fprintf(stderr, "tickprobe schedule: --method efi: no %s (not booted through UEFI?)\n", s->efivars);
	else if (s->method == METHOD_GRUB && !grub_present(s, why, sizeof why))
		fprintf(stderr, "tickprobe schedule: --method grub: %s\n", why);
	else if (s->method != METHOD_AUTO)
		return s->method;
	else if (efi_present(s))
		return METHOD_EFI;
	else if (grub_present(s, why, sizeof why))
		return METHOD_GRUB;
	else
		fprintf(stderr, "tickprobe schedule: no way to choose the next boot here: no %s (this system did not "
				"boot through UEFI), and %s\n", s->efivars, why);
	return METHOD_AUTO;
}

static int reboot_now(const struct schedule *s)
{
	char *systemd[] = { "systemctl", "reboot", NULL }, *plain[] = { "reboot", NULL };
	if (!s->dry_run)
		sync(); /* the record and the ESP's files before anything stops */
	return step_run(s, access("/run/systemd/system", F_OK) == 0 ? systemd : plain);
}

/* The record's steps undone, as far as they were done; the record goes
 * when that worked. */
static int cancel_record(const struct schedule *s, const struct sched_record *r)
{
	char method[16];
	int status;

	record_get(r, "method", method, sizeof method);
	status = !strcmp(method, "efi") ? efi_cancel(s, r) : !strcmp(method, "grub") ? grub_cancel(s, r) : -1;
	if (status == -1) {
		fprintf(stderr, "tickprobe schedule: the record names no method schedule uses ('%s')\n", method);
		return EXIT_UNREADABLE;
	}
	return status ? status : state_remove(s);
}

/* A step of the arrangement failed after the record was written: what was
 * done is undone from the record, as --cancel would. */
static int undo_failed(const struct schedule *s, int status)
{
	struct sched_record r;

	if (s->dry_run || state_load(s, &r) != 1)
		return status;
	if (!s->quiet)
		printf("tickprobe schedule: a step failed; undoing what was done:\n");
	if (cancel_record(s, &r))
		fprintf(stderr, "tickprobe schedule: the undoing failed too; its record stays in %s: `tickprobe schedule "
				"--cancel` tries again\n", s->state_dir);
	else if (!s->quiet)
		printf("tickprobe schedule: undone: nothing of this schedule is left\n");
	return status;
}

int schedule_arrange(const struct schedule *s)
{
	char options[SCHEDULE_OPTIONS_MAX];
	enum schedule_method m = pick_method(s);
	struct sched_record r = { .n = 0 };
	int status;

	if (m == METHOD_AUTO)
		return EXIT_UNREADABLE;
	/* A series reboots into BootCurrent (the probe sets BootNext to it): from
	 * GRUB that is GRUB, whose default is this system, so boot 2 of N would
	 * never come. */
	if (m == METHOD_GRUB && s->runs > 1) {
		fprintf(stderr, "tickprobe schedule: --runs %ld needs the firmware's BootNext (--method efi, on UEFI): "
				"through GRUB only the first boot of a series would be the probe's\n", s->runs);
		return EXIT_USAGE;
	}
	schedule_options(s, options, sizeof options);
	status = state_load(s, &r);
	if (status < 0)
		return EXIT_UNREADABLE;
	if (status == 1) {
		if (!s->quiet)
			printf("tickprobe schedule: a schedule is still pending (%s/schedule.state): undoing it first\n",
			       s->state_dir);
		if ((status = cancel_record(s, &r)))
			return status;
	}
	if (!s->quiet)
		printf("tickprobe schedule%s: through %s, the next boot runs tickprobe (%s), the one after it this "
		       "system again:\n", s->dry_run ? " --dry-run" : "", m == METHOD_EFI ? "the firmware's BootNext" :
		       "GRUB's grub-reboot", options);
	r.n = 0;
	state_put(&r, "options", "%s", options);
	status = m == METHOD_EFI ? efi_arrange(s, options, &r) : grub_arrange(s, options, &r);
	if (status)
		return undo_failed(s, status);
	if (s->reboot)
		return reboot_now(s);
	if (!s->quiet)
		printf("tickprobe schedule: %s at the next restart (sudo reboot)\n",
		       s->dry_run ? "nothing was changed; without --dry-run tickprobe would run" : "tickprobe runs");
	return 0;
}

/* No record: what schedule makes, found where it would be. */
static int cancel_unrecorded(const struct schedule *s)
{
	int status = 0, found = 0;

	if (!s->quiet)
		printf("tickprobe schedule --cancel%s: no record in %s; looking for what schedule makes (a BootNext "
		       "naming tickprobe's entry, tickprobe's entries outside BootOrder, GRUB's one-shot):\n",
		       s->dry_run ? " --dry-run" : "", s->state_dir);
	if (efi_present(s))
		status = efi_sweep(s, &found);
	status = grub_sweep(s, &found) ? EXIT_UNREADABLE : status;
	if (!found && !s->quiet)
		printf("tickprobe schedule: nothing to cancel\n");
	return status;
}

int schedule_cancel(const struct schedule *s)
{
	struct sched_record r;
	int got = state_load(s, &r);

	if (got < 0)
		return EXIT_UNREADABLE;
	if (!got)
		return cancel_unrecorded(s);
	if (!s->quiet)
		printf("tickprobe schedule --cancel%s: undoing %s/schedule.state:\n", s->dry_run ? " --dry-run" : "",
		       s->state_dir);
	return cancel_record(s, &r);
}

int schedule_uninstall(const struct schedule *s)
{
	int status = 0, found = 0;

	if (!s->quiet)
		printf("tickprobe schedule --uninstall%s:\n", s->dry_run ? " --dry-run" : "");
	if (efi_present(s))
		status = efi_uninstall(s);
	status = grub_sweep(s, &found) ? EXIT_UNREADABLE : status;
	return state_remove(s) ? EXIT_UNREADABLE : status;
}
