/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe qemu --linux`: a Linux guest and the probe on one machine.
 *
 * 1. The guest: the kernel (linux_kernel.c) with the initramfs
 *    (linux_guest.c) under -kernel/-initrd, console on ttyS0 into
 *    console.log, the OS log on ttyS1 into os.log: two files, so the
 *    kernel's messages never mix with the log.  The command line starts
 *    "console=ttyS0 panic=-1": a panic resets the guest at once, and under
 *    -no-reboot QEMU then exits, so a panic costs seconds, not the timeout.
 * 2. What the guest did, from the two files: the end line /init sends after
 *    the log, the exit status of tickprobe os and the clocksource left; or
 *    the console's "Kernel panic" line; or nothing within the timeout.
 * 3. The probe on the same -machine, -cpu, -smp and -m (qemu_boot_probe).
 * 4. `tickprobe compare bare.log os.log`.
 * The exit status is the log readers': 0 when both logs are complete, 2 when
 * one is missing or unreadable, 3 when one is damaged or cut short. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tools/commands.h"
#include "tools/lib/logset.h"
#include "tools/qemu/linux.h"
#include "tools/qemu/qemu.h"

#define GUEST_CMDLINE "console=ttyS0 panic=-1"
/* Under TCG every vCPU's TSC comes from one host clock, so they agree; but
 * the kernel takes the TSCs of a multi-CPU machine whose vendor is not
 * Intel, without an invariant TSC (QEMU's "max" CPU), as unsynchronised
 * (unsynchronized_tsc() in arch/x86/kernel/tsc.c) and withdraws tsc: seen
 * with -smp 2, "tsc: Marking TSC unstable due to TSCs unsynchronized", and
 * only hpet and acpi_pm left.  tsc=reliable keeps it. */
#define GUEST_CMDLINE_TCG " tsc=reliable"
#define DEFAULT_OS_OPTIONS "--switch --raw-io"

struct guest_result {
	bool ended;             /* the end line came */
	int os_rc;              /* tickprobe os's exit status, -1 unknown */
	char cs_after[64];      /* current_clocksource after the run */
	char panic[256];        /* the console's "Kernel panic" line */
	char last_console[256]; /* the console's last line, for a guest that says nothing */
	long log_bytes;
};

/* Reads what the guest left in its two files. */
static void read_guest(const char *console, const char *oslog, struct guest_result *g)
{
	char line[4096];
	FILE *f;

	memset(g, 0, sizeof *g);
	g->os_rc = -1;
	g->log_bytes = -1;
	if ((f = fopen(oslog, "rb"))) {
		while (fgets(line, sizeof line, f)) {
			line[strcspn(line, "\r\n")] = 0;
			if (!strcmp(line, GUEST_END))
				g->ended = true;
			else if (!strncmp(line, GUEST_RC, strlen(GUEST_RC)))
				g->os_rc = (int)strtol(line + strlen(GUEST_RC), NULL, 10);
			else if (!strncmp(line, GUEST_CS_AFTER, strlen(GUEST_CS_AFTER)))
				snprintf(g->cs_after, sizeof g->cs_after, "%.63s", line + strlen(GUEST_CS_AFTER));
		}
		g->log_bytes = ftell(f);
		fclose(f);
	}
	if ((f = fopen(console, "rb"))) {
		while (fgets(line, sizeof line, f)) {
			char *p = strstr(line, "Kernel panic");
			line[strcspn(line, "\r\n")] = 0;
			if (p && !g->panic[0])
				snprintf(g->panic, sizeof g->panic, "%.255s", p);
			if (line[0])
				snprintf(g->last_console, sizeof g->last_console, "%.255s", line);
		}
		fclose(f);
	}
}

/* The guest's own lines from the console: what /init and tickprobe os said. */
static void show_guest_lines(const char *console)
{
	char line[1024];
	FILE *f = fopen(console, "rb");

	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		const char *p = strstr(line, GUEST_TAG);
		line[strcspn(line, "\r\n")] = 0;
		if (p)
			fprintf(stderr, "  guest: %s\n", p + strlen(GUEST_TAG));
		else if (strstr(line, "tickprobe os: "))
			fprintf(stderr, "  guest: %s\n", strstr(line, "tickprobe os: "));
	}
	fclose(f);
}

static int make_dir(const char *dir)
{
	if (mkdir(dir, 0755) == 0 || errno == EEXIST)
		return 0;
	fprintf(stderr, "tickprobe qemu: --keep %s: %s\n", dir, strerror(errno));
	return -1;
}

/* Boots the guest; fills g.  The QEMU status as spawn_run gives it. */
static int boot_guest(const struct qemu_run *r, const char *kernel, const char *initrd, const char *console,
		      const char *oslog, const char *qemu_out, double *seconds, int *stopped)
{
	struct qemu_argv a = { .n = 0 };
	struct qemu_run guest = *r;
	char append[2048], kern_e[PATH_MAX * 2], initrd_e[PATH_MAX * 2];
	char con[PATH_MAX * 2 + 32], log[PATH_MAX * 2 + 32], e[PATH_MAX * 2];
	int status;
	double t0;

	snprintf(append, sizeof append, "%s%s%s%s", GUEST_CMDLINE, r->kvm ? "" : GUEST_CMDLINE_TCG,
		 r->kernel_cmdline ? " " : "", r->kernel_cmdline ? r->kernel_cmdline : "");
	qemu_escape(kernel, kern_e, sizeof kern_e);
	qemu_escape(initrd, initrd_e, sizeof initrd_e);
	qemu_escape(console, e, sizeof e);
	snprintf(con, sizeof con, "file,id=con,path=%s", e);
	qemu_escape(oslog, e, sizeof e);
	snprintf(log, sizeof log, "file,id=oslog,path=%s", e);
	qemu_args_machine(r, &a);
	qemu_arg(&a, "-kernel");
	qemu_arg(&a, kern_e);
	qemu_arg(&a, "-initrd");
	qemu_arg(&a, initrd_e);
	qemu_arg(&a, "-append");
	qemu_arg(&a, append);
	qemu_arg(&a, "-chardev");
	qemu_arg(&a, con);
	qemu_arg(&a, "-serial");
	qemu_arg(&a, "chardev:con");
	qemu_arg(&a, "-chardev");
	qemu_arg(&a, log);
	qemu_arg(&a, "-serial");
	qemu_arg(&a, "chardev:oslog");
	guest.display = false; /* --display does not go with --linux */
	qemu_args_tail(&guest, &a, false);
	if (qemu_args_show(r, &a))
		return 0;
	t0 = qemu_now();
	status = spawn_run(a.v, r->timeout, NULL, qemu_out, stopped);
	*seconds = qemu_now() - t0;
	return status;
}

/* The first lines QEMU itself printed (its errors), indented. */
static void show_file_head(const char *path, int max)
{
	char line[512];
	FILE *f = fopen(path, "r");

	for (int i = 0; f && i < max && fgets(line, sizeof line, f); i++)
		fprintf(stderr, "    %s", line);
	if (f)
		fclose(f);
}

/* Says how the guest's run ended; returns 0 when it sent a whole log. */
static int judge_guest(const struct qemu_run *r, int status, int stopped, double secs, const struct guest_result *g,
		       const char *qemu_out, const char *kernel)
{
	if (status == -2) {
		fprintf(stderr, "tickprobe qemu: cannot run %s: %s (install qemu-system-x86)\n", r->qemu, strerror(errno));
		return EXIT_UNREADABLE;
	}
	if (g->ended) {
		fprintf(stderr, "tickprobe qemu: Linux guest done in %.1f s: tickprobe os exit %d, %ld log bytes; "
				"current_clocksource after the run: %s\n",
			secs, g->os_rc, g->log_bytes, g->cs_after[0] ? g->cs_after : "(unknown)");
		return 0;
	}
	if (g->panic[0]) {
		fprintf(stderr, "tickprobe qemu: the guest kernel panicked after %.1f s, before it sent its log: %s\n",
			secs, g->panic);
		return EXIT_UNREADABLE;
	}
	if (status == -1 && stopped) {
		fprintf(stderr, "tickprobe qemu: interrupted; the guest was stopped after %.1f s\n", secs);
		return EXIT_UNREADABLE;
	}
	if (status == -1) {
		fprintf(stderr, "tickprobe qemu: the guest sent %s within the timeout of %.0f s; QEMU killed. The "
				"console's last line: %s\n",
			g->log_bytes > 0 ? "only part of its log" : "no log", r->timeout,
			g->last_console[0] ? g->last_console : "(nothing)");
		return g->log_bytes > 0 ? EXIT_DAMAGED : EXIT_UNREADABLE;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0 && !g->last_console[0]) {
		fprintf(stderr, "tickprobe qemu: QEMU could not boot %s (exit %d):\n", kernel, WEXITSTATUS(status));
		show_file_head(qemu_out, 6);
		return EXIT_UNREADABLE;
	}
	fprintf(stderr, "tickprobe qemu: the guest stopped after %.1f s without sending %s log (QEMU %s %d). The "
			"console's last line: %s\n",
		secs, g->log_bytes > 0 ? "all of its" : "its", WIFEXITED(status) ? "exit" : "signal",
		WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), g->last_console[0] ? g->last_console : "(nothing)");
	return g->log_bytes > 0 ? EXIT_DAMAGED : EXIT_UNREADABLE;
}

/* The reader's verdict on one log, said when it is not clean. */
static int log_status(const char *what, const char *path)
{
	struct logfile f;
	int st = logfile_load(&f, path);
	char buf[160];

	if (st == EXIT_UNREADABLE)
		fprintf(stderr, "tickprobe qemu: %s %s: unreadable: %s\n", what, path, f.why);
	else if (!f.nruns) {
		fprintf(stderr, "tickprobe qemu: %s %s: no tickprobe records in it\n", what, path);
		st = EXIT_UNREADABLE;
	} else if (st != EXIT_CLEAN || !f.runs[f.nruns - 1].info.has_end || lrun_damaged(&f.runs[f.nruns - 1])) {
		fprintf(stderr, "tickprobe qemu: %s %s: %s\n", what, path, lrun_state(&f.runs[f.nruns - 1], buf, sizeof buf));
		logfile_report(&f, stderr, "tickprobe qemu");
		st = exit_worse(st, EXIT_DAMAGED);
	}
	logfile_free(&f);
	return st;
}

static void remove_dir(const char *dir, const char *const *names, size_t n)
{
	char p[PATH_MAX + 32];
	for (size_t i = 0; i < n; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

int qemu_linux(const struct qemu_run *r)
{
	static const char *const scratch_files[] = { "initramfs.cpio", "qemu.out", "console.log", "os.log", "bare.log" };
	char tmp[] = "/tmp/tickprobe-linux-XXXXXX", kernel[PATH_MAX], initrd[PATH_MAX + 32], console[PATH_MAX + 32];
	char oslog[PATH_MAX + 32], bare[PATH_MAX + 32], qemu_out[PATH_MAX + 32];
	const char *dir;
	struct guest_files gf;
	struct guest_result g;
	struct qemu_run b;
	int rc, status, stopped = 0, st;
	double secs = 0;

	if (guest_files_find(&gf) != 0 || linux_kernel_find(r->linux_kernel, kernel, sizeof kernel) != 0)
		return EXIT_UNREADABLE;
	if (!mkdtemp(tmp)) {
		fprintf(stderr, "tickprobe qemu: cannot make a temporary directory: %s\n", strerror(errno));
		return EXIT_UNREADABLE;
	}
	if (r->keep && make_dir(r->keep) != 0) {
		rmdir(tmp);
		return EXIT_UNREADABLE;
	}
	dir = r->keep ? r->keep : tmp;
	snprintf(initrd, sizeof initrd, "%s/initramfs.cpio", tmp);
	snprintf(qemu_out, sizeof qemu_out, "%s/qemu.out", tmp);
	snprintf(console, sizeof console, "%s/console.log", dir);
	snprintf(oslog, sizeof oslog, "%s/os.log", dir);
	snprintf(bare, sizeof bare, "%s/bare.log", dir);
	unlink(oslog); /* QEMU appends to nothing: a stale log must not pass for this run's */
	unlink(bare);
	if ((rc = guest_initramfs(initrd, &gf, r->os_options ? r->os_options : DEFAULT_OS_OPTIONS)) != 0) {
		remove_dir(tmp, scratch_files, 5);
		return rc == EXIT_USAGE ? EXIT_USAGE : EXIT_UNREADABLE;
	}
	fprintf(stderr, "tickprobe qemu: Linux guest: %s, %s, %d CPU%s, %d MB, %s; tickprobe os %s\n", kernel,
		r->machine, r->smp > 0 ? r->smp : 1, r->smp > 1 ? "s" : "", r->memory, r->kvm ? "kvm" : "tcg",
		r->os_options ? r->os_options : DEFAULT_OS_OPTIONS);
	status = boot_guest(r, kernel, initrd, console, oslog, qemu_out, &secs, &stopped);
	if (r->dry_run) {
		remove_dir(tmp, scratch_files, 5);
		return EXIT_CLEAN;
	}
	read_guest(console, oslog, &g);
	show_guest_lines(console);
	rc = judge_guest(r, status, stopped, secs, &g, qemu_out, kernel);
	if (rc == 0)
		rc = log_status("the guest's log", oslog);
	if (rc == EXIT_UNREADABLE || (status == -1 && stopped)) {
		fprintf(stderr, "tickprobe qemu: the probe is not booted: there is no OS log to compare it with%s%s\n",
			r->keep ? "; the guest's console is in " : "", r->keep ? console : "");
		if (!r->keep)
			remove_dir(tmp, scratch_files, 5);
		else
			remove_dir(tmp, scratch_files, 2);
		return EXIT_UNREADABLE;
	}

	/* The probe on the same machine; its preset and options as given. */
	b = *r;
	b.linux_guest = false;
	b.out = bare;
	st = qemu_boot_probe(&b);
	if (st != QEMU_RC_OK && st != QEMU_RC_OK_ABSENT)
		fprintf(stderr, "tickprobe qemu: the probe's run did not end well (status %d)\n", st);
	rc = exit_worse(rc, log_status("the probe's log", bare));
	if (rc != EXIT_UNREADABLE) {
		char *cargv[] = { "compare", bare, oslog, NULL };
		fflush(stderr);
		printf("== tickprobe compare %s %s ==\n", bare, oslog);
		fflush(stdout);
		rc = exit_worse(rc, cmd_compare(3, cargv));
		fflush(stdout);
	}
	if (r->keep)
		fprintf(stderr, "tickprobe qemu: kept %s, %s and %s\n", bare, oslog, console);
	remove_dir(tmp, scratch_files, r->keep ? 2 : 5);
	return rc;
}
