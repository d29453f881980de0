/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe schedule` through GRUB (steps.h): grub-reboot to the package's
 * entry, and the probe's options as tickprobe_once in the environment block,
 * which the entry (/etc/grub.d/25_tickprobe) adds to its command line and
 * clears as it boots, as GRUB's own header clears next_entry. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tools/commands.h"
#include "tools/schedule/steps.h"

/* The GRUB environment block: one sector or two of "key=value" lines. */
static bool env_get(const struct schedule *s, const char *key, char *out, size_t cap)
{
	char path[PATH_MAX];

	/* grubenv's "key=value" lines read as the state file's are */
	snprintf(path, sizeof path, "%s/grub/grubenv", s->boot_dir);
	return schedule_state_get(path, key, out, cap);
}

void grub_next_entry(const struct schedule *s, char *out, size_t cap)
{
	env_get(s, "next_entry", out, cap);
}

/* grub.cfg holds the package's entry, written by a 25_tickprobe that knows
 * tickprobe_once, and GRUB's header clears next_entry when it uses it:
 * without that, grub-reboot would boot the probe at every start. */
bool grub_present(const struct schedule *s, char *why, size_t cap)
{
	char path[PATH_MAX], line[1024];
	bool entry = false, once = false, clears = false;
	FILE *f;

	snprintf(path, sizeof path, "%s/grub/grub.cfg", s->boot_dir);
	if (!(f = fopen(path, "r"))) {
		snprintf(why, cap, "no %s: GRUB does not boot this system", path);
		return false;
	}
	while (fgets(line, sizeof line, f)) {
		entry |= strstr(line, "menuentry 'tickprobe'") && strstr(line, "'" SCHEDULE_GRUB_ENTRY "' {");
		once |= strstr(line, "tickprobe_once") != NULL;
		clears |= strstr(line, "save_env next_entry") != NULL;
	}
	fclose(f);
	if (!entry || !once)
		snprintf(why, cap, "%s has no tickprobe entry that takes scheduled options: run `sudo update-grub` "
				   "(the package's /etc/grub.d/25_tickprobe writes it)", path);
	else if (!clears)
		snprintf(why, cap, "%s does not clear next_entry when it boots it (no `save_env next_entry`): "
				   "grub-reboot would not be for one boot only", path);
	return entry && once && clears;
}

static int editenv(const struct schedule *s, const char *verb, const char *arg)
{
	char env[PATH_MAX];
	char *argv[] = { "grub-editenv", env, (char *)verb, (char *)arg, NULL };
	snprintf(env, sizeof env, "%s/grub/grubenv", s->boot_dir);
	return step_run(s, argv);
}

int grub_arrange(const struct schedule *s, const char *options, struct sched_record *r)
{
	char dir[PATH_MAX + 32], before[256], once[SCHEDULE_OPTIONS_MAX + 32];
	char *reboot[] = { "grub-reboot", dir, SCHEDULE_GRUB_ENTRY, NULL };
	int status;

	snprintf(dir, sizeof dir, "--boot-directory=%s", s->boot_dir);
	grub_next_entry(s, before, sizeof before);
	snprintf(once, sizeof once, "tickprobe_once=%s", options);
	state_put(r, "method", "grub");
	state_put(r, "boot_dir", "%s", s->boot_dir);
	state_put(r, "next_entry_before", "%s", before);
	if ((status = state_write(s, r)) || (status = step_run(s, reboot)))
		return status;
	return editenv(s, "set", once);
}

/* tickprobe_once unset, when it is set. */
static int unset_once(const struct schedule *s, int *found)
{
	char v[300];

	if (!env_get(s, "tickprobe_once", v, sizeof v))
		return 0;
	++*found;
	return editenv(s, "unset", "tickprobe_once");
}

int grub_cancel(const struct schedule *s, const struct sched_record *r)
{
	char before[256], now[256], set[300];
	int status = 0, found = 0;

	record_get(r, "next_entry_before", before, sizeof before);
	grub_next_entry(s, now, sizeof now);
	if (strcmp(now, SCHEDULE_GRUB_ENTRY)) {
		step(s, "leave next_entry: it is not %s (the scheduled boot has happened, it was changed, or it was "
			"never set)", SCHEDULE_GRUB_ENTRY);
	} else if (before[0]) {
		snprintf(set, sizeof set, "next_entry=%s", before);
		status = editenv(s, "set", set);
	} else {
		status = editenv(s, "unset", "next_entry");
	}
	return status ? status : unset_once(s, &found);
}

int grub_sweep(const struct schedule *s, int *found)
{
	char env[PATH_MAX], v[300];
	struct stat st;
	int status = 0;

	snprintf(env, sizeof env, "%s/grub/grubenv", s->boot_dir);
	if (stat(env, &st) != 0)
		return 0;
	grub_next_entry(s, v, sizeof v);
	if (!strncmp(v, SCHEDULE_GRUB_ENTRY, strlen(SCHEDULE_GRUB_ENTRY))) {
		++*found;
		status = editenv(s, "unset", "next_entry");
	}
	return status ? status : unset_once(s, found);
}
