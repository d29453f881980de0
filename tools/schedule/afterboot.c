/* SPDX-License-Identifier: BSD-2-Clause */
/* The boot after the probe's: import, measure the kernel, compare (afterboot.h). */
#define _GNU_SOURCE
#include "tools/schedule/afterboot.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools/commands.h"
#include "tools/log/logdir.h"
#include "tools/qemu/qemu.h"
#include "tools/schedule/esp.h"
#include "tools/schedule/steps.h"

#define OS_ARGS_MAX 16

static bool is_log(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && name[0] != '.' && !strcmp(name + n - 4, ".log");
}

static long long size_of(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
}

/* "NAME SIZE" is in the seen list: that log, at that size, was imported. */
static bool seen(const char *list, const char *name, long long size)
{
	char line[PATH_MAX + 32], want[PATH_MAX + 32];
	bool found = false;
	FILE *f = fopen(list, "r");

	if (!f)
		return false;
	snprintf(want, sizeof want, "%s %lld\n", name, size);
	while (!found && fgets(line, sizeof line, f))
		found = !strcmp(line, want);
	fclose(f);
	return found;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The logs of dir not in the seen list, in name order. */
static void new_logs(const char *dir, const char *list, struct loglist *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX + 300];

	if (!d)
		return;
	/* cppcheck-suppress readdirCalled ; one thread reads this directory */
	while ((e = readdir(d))) {
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (is_log(e->d_name) && size_of(path) >= 0 && !seen(list, e->d_name, size_of(path)))
			loglist_push(out, path);
	}
	closedir(d);
	if (out->n)
		qsort(out->paths, out->n, sizeof *out->paths, by_name);
}

/* This program, run again with args; its output to out (NULL: ours). */
static int self(char **args, const char *out, double timeout)
{
	char exe[PATH_MAX];
	char *argv[OS_ARGS_MAX + 8 + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	int k = 0, intr, st;

	if (n <= 0)
		return -1;
	exe[n] = 0;
	argv[k++] = exe;
	for (int i = 0; args[i] && k < (int)(sizeof argv / sizeof argv[0]) - 1; i++)
		argv[k++] = args[i];
	argv[k] = NULL;
	st = qemu_spawn(argv, timeout, NULL, out, &intr);
	return st < 0 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int import(const struct schedule *s, const struct loglist *logs, const struct after_boot *a)
{
	char db[PATH_MAX];
	char *args[64 + 4];
	int k, rc = 0;

	snprintf(db, sizeof db, "%s/fleet.db", s->state_dir);
	/* a batch of 60 a call: the ESP holds about 500 logs at most */
	for (size_t i = 0; i < logs->n && rc != -1; i += 60) {
		k = 0;
		args[k++] = "db", args[k++] = "import", args[k++] = "-q", args[k++] = db;
		for (size_t j = i; j < logs->n && j < i + 60; j++)
			args[k++] = logs->paths[j];
		args[k] = NULL;
		int r = self(args, NULL, a->import_timeout);
		rc = r < 0 || r == EXIT_UNREADABLE || r == EXIT_USAGE ? -1 : rc;
	}
	printf("tickprobe schedule --after-boot: %zu new log%s imported into %s%s\n", logs->n, logs->n == 1 ? "" : "s",
	       db, rc ? " (the import failed: see above)" : "");
	return rc ? EXIT_UNREADABLE : 0;
}

/* tickprobe os with the unit's options into os_log; 0 or a status. */
static int measure_os(const struct after_boot *a, const char *os_log)
{
	char opts[256], tmp[PATH_MAX + 400], *args[OS_ARGS_MAX + 4], *save = NULL;
	int k = 0, rc;

	snprintf(opts, sizeof opts, "%s", a->os_options);
	args[k++] = "os";
	for (char *w = strtok_r(opts, " \t", &save); w && k < OS_ARGS_MAX; w = strtok_r(NULL, " \t", &save))
		args[k++] = w;
	snprintf(tmp, sizeof tmp, "%s.new", os_log);
	args[k++] = "-o", args[k++] = tmp, args[k] = NULL;
	rc = self(args, NULL, a->os_timeout);
	if (rc == 0 && rename(tmp, os_log) == 0) {
		printf("tickprobe schedule --after-boot: tickprobe os %s: %s\n", a->os_options, os_log);
		return 0;
	}
	unlink(tmp);
	fprintf(stderr, "tickprobe schedule --after-boot: tickprobe os %s %s\n", a->os_options,
		rc < 0 ? "was stopped or did not start (a timeout?)" : "failed");
	return EXIT_UNREADABLE;
}

/* STATE/latest.txt: which two logs, then their comparison. */
static int write_latest(const struct schedule *s, const char *bare, const char *os_log, const struct after_boot *a)
{
	char latest[PATH_MAX], tmp[PATH_MAX + 8], out[PATH_MAX + 8], buf[8192];
	struct utsname u;
	FILE *f, *c;
	size_t n;
	int rc;
	char *args[] = { "compare", (char *)bare, (char *)os_log, NULL };

	snprintf(latest, sizeof latest, "%s/latest.txt", s->state_dir);
	snprintf(tmp, sizeof tmp, "%s.new", latest);
	snprintf(out, sizeof out, "%s.cmp", latest);
	rc = self(args, out, a->os_timeout);
	uname(&u);
	if (!(f = fopen(tmp, "w")))
		return EXIT_UNREADABLE;
	fprintf(f, "tickprobe: the probe's log %s (bare metal) against %s (Linux %s, the boot after)\n"
		   "tickprobe compare: exit %d\n\n", bare, os_log, u.release, rc);
	if ((c = fopen(out, "r"))) {
		while ((n = fread(buf, 1, sizeof buf, c)) > 0)
			fwrite(buf, 1, n, f);
		fclose(c);
	}
	unlink(out);
	if (fclose(f) != 0 || rename(tmp, latest) != 0) {
		fprintf(stderr, "tickprobe schedule --after-boot: cannot write %s: %s\n", latest, strerror(errno));
		return EXIT_UNREADABLE;
	}
	printf("tickprobe schedule --after-boot: the comparison: %s\n", latest);
	return rc == 0 || rc == EXIT_DAMAGED ? 0 : EXIT_UNREADABLE;
}

/* A copy of each new log in STATE/logs, for users other than root: a
 * Debian ESP is mounted umask=0077. */
static void copy_logs(const struct schedule *s, const struct loglist *logs)
{
	char buf[65536], dest[PATH_MAX + 300];
	size_t n;

	for (size_t i = 0; i < logs->n; i++) {
		FILE *in = fopen(logs->paths[i], "rb"), *out;
		snprintf(dest, sizeof dest, "%s/logs/%s", s->state_dir, strrchr(logs->paths[i], '/') + 1);
		if (!in)
			continue;
		if ((out = fopen(dest, "wb"))) {
			while ((n = fread(buf, 1, sizeof buf, in)) > 0)
				fwrite(buf, 1, n, out);
			if (fclose(out) != 0)
				fprintf(stderr, "tickprobe schedule --after-boot: cannot copy %s to %s\n", logs->paths[i], dest);
		}
		fclose(in);
	}
}

static void mark_seen(const char *list, const struct loglist *logs)
{
	FILE *f = fopen(list, "a");
	if (!f)
		return;
	for (size_t i = 0; i < logs->n; i++) {
		const char *b = strrchr(logs->paths[i], '/');
		fprintf(f, "%s %lld\n", b ? b + 1 : logs->paths[i], size_of(logs->paths[i]));
	}
	fclose(f);
}

/* A schedule whose boot has happened (BootNext or next_entry gone: the
 * firmware or GRUB used it) is over: its record goes, so that --cancel
 * does not undo a later change of someone else's. */
static void forget_used_schedule(const struct schedule *s)
{
	char state[PATH_MAX], method[16], entry[16], next[256];
	bool used;

	schedule_state_path(s, state, sizeof state);
	if (!schedule_state_get(state, "method", method, sizeof method))
		return;
	if (!strcmp(method, "efi")) {
		schedule_state_get(state, "entry", entry, sizeof entry);
		used = efi_boot_next(s) != (int)strtol(entry, NULL, 16);
	} else {
		grub_next_entry(s, next, sizeof next);
		used = strcmp(next, SCHEDULE_GRUB_ENTRY) != 0;
	}
	if (used && unlink(state) == 0)
		printf("tickprobe schedule --after-boot: the scheduled boot has happened; %s removed\n", state);
}

int schedule_after_boot(const struct schedule *s, const struct after_boot *a)
{
	char esp[PATH_MAX], why[PATH_MAX + 200], dir[PATH_MAX + 32], list[PATH_MAX], os_log[PATH_MAX + 300];
	struct loglist logs = { 0 };
	int status;

	forget_used_schedule(s);
	if (!esp_mount(esp, sizeof esp, s->esp, why, sizeof why))
		return 0; /* no ESP mounted: no log can have come */
	snprintf(dir, sizeof dir, "%s/tickprobe/logs", esp);
	snprintf(list, sizeof list, "%s/collected", s->state_dir);
	new_logs(dir, list, &logs);
	if (!logs.n)
		return 0;
	snprintf(os_log, sizeof os_log, "%s/logs", s->state_dir);
	if ((mkdir(s->state_dir, 0755) && errno != EEXIST) || (mkdir(os_log, 0755) && errno != EEXIST)) {
		fprintf(stderr, "tickprobe schedule --after-boot: cannot make %s: %s\n", os_log, strerror(errno));
		loglist_free(&logs);
		return EXIT_UNREADABLE;
	}
	status = import(s, &logs, a);
	copy_logs(s, &logs);
	mark_seen(list, &logs);
	snprintf(os_log, sizeof os_log, "%s/logs/os-%s", s->state_dir, strrchr(logs.paths[logs.n - 1], '/') + 1);
	if (measure_os(a, os_log) == 0)
		status = write_latest(s, logs.paths[logs.n - 1], os_log, a) ? EXIT_UNREADABLE : status;
	else
		status = EXIT_UNREADABLE;
	loglist_free(&logs);
	return status;
}
