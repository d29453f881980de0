/* SPDX-License-Identifier: BSD-2-Clause */
/* The boot after the probe's: take the new logs, measure the kernel,
 * compare (afterboot.h). */
#define _GNU_SOURCE
#include "tools/schedule/afterboot.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools/commands.h"
#include "tools/lib/private_dir.h"
#include "tools/lib/spawn.h"
#include "tools/schedule/esp.h"
#include "tools/schedule/steps.h"

#define OS_ARGS_MAX 16

/* This program, run again with args; its output to out (NULL: ours). */
static int self(char **args, const char *out, double timeout)
{
	char exe[PATH_MAX];
	char *argv[OS_ARGS_MAX + 8];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	int k = 0, intr, st;

	if (n <= 0)
		return -1;
	exe[n] = 0;
	argv[k++] = exe;
	for (int i = 0; args[i] && k < (int)(sizeof argv / sizeof argv[0]) - 1; i++)
		argv[k++] = args[i];
	argv[k] = NULL;
	st = spawn_run(argv, timeout, NULL, out, &intr);
	return st < 0 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A new file name.new in dir_fd for a child to write: its descriptor (left
 * open across exec, for the child), and in path a name for it that the
 * child opens without a path through the state directory. */
static int child_file(int dir_fd, const char *name, char *path, size_t cap)
{
	char tmp[NAME_MAX + 16];
	int fd;

	snprintf(tmp, sizeof tmp, "%s.new", name);
	unlinkat(dir_fd, tmp, 0);
	fd = openat(dir_fd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
	snprintf(path, cap, "/proc/self/fd/%d", fd);
	return fd;
}

/* name.new renamed over name (done) or removed. */
static bool child_done(int dir_fd, int fd, const char *name, bool keep)
{
	char tmp[NAME_MAX + 16];

	snprintf(tmp, sizeof tmp, "%s.new", name);
	close(fd);
	if (keep && renameat(dir_fd, tmp, dir_fd, name) == 0)
		return true;
	unlinkat(dir_fd, tmp, 0);
	return false;
}

/* tickprobe os with the unit's options into logs/name; 0 or a status. */
static int measure_os(const struct schedule *s, int logs_fd, const char *name, const struct after_boot *a)
{
	char opts[256], out[64], *args[OS_ARGS_MAX + 4], *save = NULL;
	int k = 0, rc, fd = child_file(logs_fd, name, out, sizeof out);

	if (fd < 0) {
		fprintf(stderr, "tickprobe schedule --after-boot: cannot write logs/%s: %s\n", name, strerror(errno));
		return EXIT_UNREADABLE;
	}
	snprintf(opts, sizeof opts, "%s", a->os_options);
	args[k++] = "os";
	for (char *w = strtok_r(opts, " \t", &save); w && k < OS_ARGS_MAX; w = strtok_r(NULL, " \t", &save))
		args[k++] = w;
	args[k++] = "-o";
	args[k++] = out;
	args[k] = NULL;
	rc = self(args, NULL, a->os_timeout);
	if (child_done(logs_fd, fd, name, rc == 0)) {
		printf("tickprobe schedule --after-boot: tickprobe os %s: %s/logs/%s\n", a->os_options, s->state_dir, name);
		return 0;
	}
	fprintf(stderr, "tickprobe schedule --after-boot: tickprobe os %s %s\n", a->os_options,
		rc < 0 ? "was stopped or did not start (a timeout?)" : "failed");
	return EXIT_UNREADABLE;
}

/* latest.txt.new: the head, then the comparison (read from cmp_fd). */
static bool compose_latest(int state_fd, int cmp_fd, const char *head, size_t n)
{
	int fd;
	bool ok;

	unlinkat(state_fd, "latest.txt.new", 0);
	fd = openat(state_fd, "latest.txt.new", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return false;
	ok = write(fd, head, n) == (ssize_t)n && lseek(cmp_fd, 0, SEEK_SET) == 0 && ab_copy(cmp_fd, fd);
	if (close(fd) != 0)
		ok = false;
	if (ok && renameat(state_fd, "latest.txt.new", state_fd, "latest.txt") == 0)
		return true;
	unlinkat(state_fd, "latest.txt.new", 0);
	return false;
}

/* STATE/latest.txt: which two logs, then their comparison. */
static int write_latest(const struct schedule *s, int state_fd, const char *bare, const char *os_log,
			const struct after_boot *a)
{
	char out[64], head[PATH_MAX * 2 + 400];
	char *args[] = { "compare", (char *)bare, (char *)os_log, NULL };
	struct utsname u;
	int fd = child_file(state_fd, "latest.cmp", out, sizeof out), rc, n;
	bool ok;

	if (fd < 0) {
		fprintf(stderr, "tickprobe schedule --after-boot: cannot write in %s: %s\n", s->state_dir, strerror(errno));
		return EXIT_UNREADABLE;
	}
	rc = self(args, out, a->os_timeout);
	uname(&u);
	n = snprintf(head, sizeof head, "tickprobe: the probe's log %s (bare metal) against %s (Linux %s, the boot "
		     "after)\ntickprobe compare: exit %d\n\n", bare, os_log, u.release, rc);
	ok = n > 0 && (size_t)n < sizeof head && compose_latest(state_fd, fd, head, (size_t)n);
	child_done(state_fd, fd, "latest.cmp", false);
	if (!ok) {
		fprintf(stderr, "tickprobe schedule --after-boot: cannot write %s/latest.txt: %s\n", s->state_dir,
			strerror(errno ? errno : EIO));
		return EXIT_UNREADABLE;
	}
	printf("tickprobe schedule --after-boot: the comparison: %s/latest.txt\n", s->state_dir);
	return rc == 0 || rc == EXIT_DAMAGED ? 0 : EXIT_UNREADABLE;
}

/* A schedule whose boot has happened (BootNext or next_entry gone: the
 * firmware or GRUB used it) is over: its record goes, so that --cancel
 * does not undo a later change of someone else's. */
static void forget_used_schedule(const struct schedule *s)
{
	struct schedule quiet = *s;
	struct sched_record r;
	char method[16], entry[16], next[256];
	bool used;

	if (state_load(s, &r) != 1 || !record_get(&r, "method", method, sizeof method))
		return;
	if (!strcmp(method, "efi")) {
		record_get(&r, "entry", entry, sizeof entry);
		used = efi_boot_next(s) != (int)strtol(entry, NULL, 16);
	} else {
		grub_next_entry(s, next, sizeof next);
		used = strcmp(next, SCHEDULE_GRUB_ENTRY) != 0;
	}
	quiet.quiet = true;
	if (used && state_remove(&quiet) == 0)
		printf("tickprobe schedule --after-boot: the scheduled boot has happened; %s/schedule.state removed\n",
		       s->state_dir);
}

/* STATE/logs, made if missing, held; -1 with why said. */
static int logs_dir(const struct schedule *s, int state_fd)
{
	char why[PATH_MAX + 300], what[PATH_MAX + 20];
	int fd;

	snprintf(what, sizeof what, "%s/logs", s->state_dir);
	fd = private_dir_open(state_fd, "logs", true, what, why, sizeof why);
	if (fd < 0)
		fprintf(stderr, "tickprobe schedule --after-boot: %s\n", why);
	return fd;
}

/* The path of the directory fd holds, with every link resolved (the
 * kernel's name for it); false when it has none. */
static bool held_path(int fd, char *out, size_t cap)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	n = readlink(link, out, cap - 1);
	if (n <= 0 || (size_t)n >= cap - 1 || out[0] != '/')
		return false;
	out[n] = 0;
	return true;
}

/* The new logs taken, the kernel measured, the two compared. */
static int take(const struct schedule *s, const struct after_boot *a, const char *esp_logs, int esp_fd, int state_fd,
		const struct loglist *logs)
{
	char db[PATH_MAX + 16], db_open[PATH_MAX + 16], real[PATH_MAX];
	char bare[PATH_MAX + 300], os_name[NAME_MAX + 8], os_log[PATH_MAX + 300];
	const char *newest = logs->paths[logs->n - 1];
	struct ab_dirs d = { esp_logs, esp_fd, state_fd, logs_dir(s, state_fd), db, db };
	int status;

	if (d.logs_fd < 0)
		return EXIT_UNREADABLE;
	snprintf(db, sizeof db, "%s/fleet.db", s->state_dir);
	if (held_path(state_fd, real, sizeof real)) {
		snprintf(db_open, sizeof db_open, "%s/fleet.db", real);
		d.db_open = db_open;
	}
	status = ab_take_logs(&d, logs);
	snprintf(os_name, sizeof os_name, "os-%s", newest);
	snprintf(bare, sizeof bare, "%s/%s", esp_logs, newest);
	snprintf(os_log, sizeof os_log, "%s/logs/%s", s->state_dir, os_name);
	if (measure_os(s, d.logs_fd, os_name, a) == 0)
		status = write_latest(s, state_fd, bare, os_log, a) ? EXIT_UNREADABLE : status;
	else
		status = EXIT_UNREADABLE;
	close(d.logs_fd);
	return status;
}

int schedule_after_boot(const struct schedule *s, const struct after_boot *a)
{
	char esp[PATH_MAX], why[PATH_MAX + 300], esp_logs[PATH_MAX + 32];
	struct loglist logs = { 0 };
	int esp_fd, state_fd, status;
	size_t odd = 0;

	forget_used_schedule(s);
	if (!esp_mount(esp, sizeof esp, s->esp, why, sizeof why))
		return 0; /* no ESP mounted: no log can have come */
	snprintf(esp_logs, sizeof esp_logs, "%s/tickprobe/logs", esp);
	esp_fd = open(esp_logs, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (esp_fd < 0)
		return 0; /* no log directory: no log has come */
	state_fd = schedule_state_dir(s, false, why, sizeof why);
	if (state_fd == -1) {
		fprintf(stderr, "tickprobe schedule --after-boot: %s\n", why);
		close(esp_fd);
		return EXIT_UNREADABLE;
	}
	ab_new_logs(esp_fd, state_fd, &logs, &odd);
	if (odd)
		fprintf(stderr, "tickprobe schedule --after-boot: %zu *.log file%s in %s with names the probe does not "
				"give passed by\n", odd, odd == 1 ? "" : "s", esp_logs);
	if (state_fd < 0 && logs.n)
		state_fd = schedule_state_dir(s, true, why, sizeof why);
	if (!logs.n || state_fd < 0) {
		if (logs.n)
			fprintf(stderr, "tickprobe schedule --after-boot: %s\n", why);
		status = logs.n ? EXIT_UNREADABLE : 0;
	} else
		status = take(s, a, esp_logs, esp_fd, state_fd, &logs);
	if (state_fd >= 0)
		close(state_fd);
	close(esp_fd);
	loglist_free(&logs);
	return status;
}
