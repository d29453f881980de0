/* SPDX-License-Identifier: BSD-2-Clause */
/* The switch lock, the restore record and the signals that restore
 * (tools/os/cs_run.h, tools/os/clocksource.h), on fake trees made in a
 * temporary directory. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tests/unit/check.h"
#include "tools/os/clocksource.h"
#include "tools/os/cs_run.h"

#define CS_SUB "sys/devices/system/clocksource/clocksource0"

static char base[256];

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		check(0, "write %s", path);
		return;
	}
	fputs(text, f);
	fclose(f);
}

/* A fake root with clocksource0; its path into root. */
static void tree(const char *name, const char *avail, const char *cur, char *root, size_t cap)
{
	char path[600];

	snprintf(root, cap, "%s/%s", base, name);
	mkdir(root, 0755);
	snprintf(path, sizeof path, "%s/sys", root);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/sys/devices", root);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/sys/devices/system", root);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/sys/devices/system/clocksource", root);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/" CS_SUB, root);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/" CS_SUB "/available_clocksource", root);
	put_file(path, avail);
	snprintf(path, sizeof path, "%s/" CS_SUB "/current_clocksource", root);
	put_file(path, cur);
}

static void current(const char *root, char *out, size_t cap)
{
	char path[600];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof path, "%s/" CS_SUB "/current_clocksource", root);
	out[0] = 0;
	if ((f = fopen(path, "r"))) {
		n = fread(out, 1, cap - 1, f);
		fclose(f);
	}
	out[n] = 0;
}

static bool record_exists(const char *root)
{
	char path[600];
	struct stat st;

	snprintf(path, sizeof path, "%s/" OS_RUN_DIR "/" OS_CS_RECORD, root);
	return lstat(path, &st) == 0;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void test_record_text(void)
{
	static const char *const bad[] = {
		"",
		"tickprobe clocksource restore record 2\npid 1\noriginal tsc\n",
		"tickprobe clocksource restore record 1",
		"tickprobe clocksource restore record 1\noriginal tsc\n",
		"tickprobe clocksource restore record 1\npid 12\n",
		"tickprobe clocksource restore record 1\npid 12\npid 13\noriginal tsc\n",
		"tickprobe clocksource restore record 1\npid 0\noriginal tsc\n",
		"tickprobe clocksource restore record 1\npid 12a\noriginal tsc\n",
		"tickprobe clocksource restore record 1\npid -3\noriginal tsc\n",
		"tickprobe clocksource restore record 1\npid 12\noriginal ../tsc\n",
		"tickprobe clocksource restore record 1\npid 12\noriginal ts c\n",
		"tickprobe clocksource restore record 1\npid 12\noriginal 0123456789abcdef0123456789abcdef\n",
		"tickprobe clocksource restore record 1\npid 12\noriginal tsc\nextra 1\n",
		"tickprobe clocksource restore record 1\npid 12\noriginal tsc",
		"tickprobe clocksource restore record 1\npid 99999999999\noriginal tsc\n",
		"tickprobe clocksource restore record 1\npid 12\noriginal \x1b[31m\n",
	};
	struct os_cs_record rec = { .pid = 4242 }, back;
	char text[OS_CS_RECORD_MAX], why[200];
	size_t n;
	int wrong = 0;

	snprintf(rec.original, sizeof rec.original, "tsc-early");
	n = os_cs_record_format(&rec, text, sizeof text);
	check(COND(n > 0) && COND(os_cs_record_parse(text, n, &back, why, sizeof why)) && COND(back.pid == 4242) &&
		      COND(!strcmp(back.original, "tsc-early")),
	      "record: format then parse gives pid 4242 and tsc-early back");
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		why[0] = 0;
		if (os_cs_record_parse(bad[i], strlen(bad[i]), &back, why, sizeof why) || !why[0]) {
			printf("  accepted, or refused without a reason: case %zu\n", i);
			wrong++;
		}
	}
	check(!wrong, "record: %zu malformed records refused, each with a reason (%d wrong)", sizeof bad / sizeof bad[0],
	      wrong);
	memcpy(text, "tickprobe clocksource restore record 1\npid 12\noriginal t\0c\n", 59);
	check(!os_cs_record_parse(text, 59, &back, why, sizeof why), "record: a NUL inside a name is refused (%s)", why);
}

static void test_run_dir(void)
{
	char root[300], path[600], why[OS_CS_PATH + 200];
	struct os_cs_run r;
	struct os_cs_record rec;
	struct stat st;
	int rc;

	snprintf(root, sizeof root, "%s/none", base);
	mkdir(root, 0755);
	rc = os_run_open(root, false, &r, why, sizeof why);
	check(rc == 1, "run dir: missing and not to be made: 1 (%d)", rc);
	rc = os_run_open(root, true, &r, why, sizeof why);
	snprintf(path, sizeof path, "%s/" OS_RUN_DIR, root);
	check(COND(rc == 0) && COND(stat(path, &st) == 0) && COND(S_ISDIR(st.st_mode)) && COND(!(st.st_mode & 022)),
	      "run dir: made, writable by its owner only (rc %d, %s)", rc, rc ? why : "");
	check(os_cs_record_read(r.dir_fd, &rec, why, sizeof why) == 0, "record: none yet: 0");
	check(COND(os_cs_record_write(r.dir_fd, "acpi_pm", why, sizeof why) == 0) &&
		      COND(os_cs_record_read(r.dir_fd, &rec, why, sizeof why) == 1) && COND(rec.pid == getpid()) &&
		      COND(!strcmp(rec.original, "acpi_pm")),
	      "record: written, read back: this pid, acpi_pm");
	snprintf(path, sizeof path, "%s/" OS_RUN_DIR "/" OS_CS_RECORD ".new", root);
	check(access(path, F_OK) != 0, "record: no temporary file left beside it");
	snprintf(path, sizeof path, "%s/" OS_RUN_DIR "/" OS_CS_RECORD, root);
	unlink(path);
	if (symlink("/etc/hostname", path) != 0)
		check(0, "symlink");
	check(os_cs_record_read(r.dir_fd, &rec, why, sizeof why) == -1, "record: a symbolic link is not followed (%s)",
	      why);
	unlink(path);
	{
		char big[OS_CS_RECORD_MAX + 40];
		memset(big, 'x', sizeof big - 1);
		big[sizeof big - 1] = 0;
		put_file(path, big);
	}
	check(COND(os_cs_record_read(r.dir_fd, &rec, why, sizeof why) == -1) && COND(strstr(why, "longer")),
	      "record: an over-long file is refused (%s)", why);
	unlink(path);
	os_run_close(&r);

	snprintf(path, sizeof path, "%s/" OS_RUN_DIR, root);
	chmod(path, 0777);
	rc = os_run_open(root, true, &r, why, sizeof why);
	check(COND(rc == -1) && COND(strstr(why, "other users")), "run dir: one others can write is refused (%s)", why);
	chmod(path, 0755);

	snprintf(root, sizeof root, "%s/linked", base);
	mkdir(root, 0755);
	snprintf(path, sizeof path, "%s/run", root);
	if (symlink(base, path) != 0)
		check(0, "symlink");
	rc = os_run_open(root, true, &r, why, sizeof why);
	check(COND(rc == -1) && COND(strstr(why, "symbolic link")),
	      "run dir: a run/ that is a link is not followed (%s)", why);
}

static void test_lock(void)
{
	char root[300], why[OS_CS_PATH + 400], want[40];
	struct os_cs_run a, b;
	double t0, took;
	int status = 0;
	pid_t pid;

	snprintf(root, sizeof root, "%s/lock", base);
	mkdir(root, 0755);
	if (os_run_open(root, true, &a, why, sizeof why) || os_run_open(root, true, &b, why, sizeof why)) {
		check(0, "lock: open the run dir: %s", why);
		return;
	}
	check(os_run_lock(&a, 0, why, sizeof why) == 0, "lock: the first switcher takes it at once");
	fflush(stdout);
	{
		int saved = dup(2), null = open("/dev/null", O_WRONLY);
		dup2(null, 2); /* the waiting line is not this test's output */
		t0 = now_s();
		check(os_run_lock(&b, 0.3, why, sizeof why) == -1, "lock: a second is refused once its wait is over");
		took = now_s() - t0;
		dup2(saved, 2);
		close(saved);
		close(null);
	}
	snprintf(want, sizeof want, "process %ld", (long)getpid());
	check(COND(strstr(why, want)) && COND(strstr(why, "gave up after 0.3 s")) && COND(strstr(why, "--lock-wait")),
	      "lock: the refusal names the holder and --lock-wait (%s)", why);
	check(COND(took >= 0.29) && COND(took < 5), "lock: it waited its 0.3 s, bounded (%.2f s)", took);
	os_run_close(&a);
	check(os_run_lock(&b, 0, why, sizeof why) == 0, "lock: free again once the holder closed it");
	os_run_close(&b);

	/* A holder that finishes while the second waits: the second goes on. */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct os_cs_run c;
		struct timespec hold = { 0, 400000000 };
		if (os_run_open(root, true, &c, why, sizeof why) || os_run_lock(&c, 0, why, sizeof why))
			_exit(3);
		nanosleep(&hold, NULL);
		_exit(0);
	}
	{
		struct timespec nap = { 0, 100000000 };
		nanosleep(&nap, NULL); /* the child takes the lock first */
	}
	os_run_open(root, true, &a, why, sizeof why);
	fflush(stdout);
	{
		int saved = dup(2), null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		t0 = now_s();
		status = os_run_lock(&a, 10, why, sizeof why);
		took = now_s() - t0;
		dup2(saved, 2);
		close(saved);
		close(null);
	}
	check(COND(status == 0) && COND(took > 0.1) && COND(took < 5),
	      "lock: a waiter gets it when the holder ends (%.2f s)", took);
	os_run_close(&a);
	waitpid(pid, &status, 0);
	check(COND(WIFEXITED(status)) && COND(WEXITSTATUS(status) == 0), "lock: the holder ran (status 0x%x)", status);
}

/* A child arms, switches to hpet, then gets sig; pre: SIG_IGN it first. */
static int switched_then(const char *root, int sig, bool ignore_first)
{
	static struct os_clocksources cs;
	struct rlimit none = { 0, 0 };
	char err[OS_CS_PATH + 200];
	struct os_cs_run r;
	int status = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		setrlimit(RLIMIT_CORE, &none); /* the fault signals: no core file */
		/* Else the default, whatever this test inherited: a shell's
		 * background job starts with INT and QUIT ignored. */
		signal(sig, ignore_first ? SIG_IGN : SIG_DFL);
		if (os_cs_discover(root, &cs) || os_run_open(root, true, &r, err, sizeof err) ||
		    os_run_lock(&r, 0, err, sizeof err))
			_exit(3);
		os_cs_guard_arm(&cs, r.dir_fd, -1);
		if (os_cs_switch(&cs, "hpet", err, sizeof err) != 0 || !record_exists(root))
			_exit(4);
		raise(sig);
		if (os_cs_restore(err, sizeof err) != 0)
			_exit(5);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return status;
}

static void test_signals(void)
{
	const int sigs[] = { SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGHUP, SIGINT, SIGTERM,
			     SIGQUIT, SIGPIPE, SIGSEGV, SIGBUS, SIGSYS, SIGTRAP, SIGSTKFLT, SIGPWR, SIGIO, SIGRTMIN,
			     SIGRTMIN + 5, SIGRTMAX };
	char root[300], text[64], name[16];
	int wrong = 0;

	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		int st;
		snprintf(name, sizeof name, "sig%d", sigs[i]);
		tree(name, "tsc hpet acpi_pm\n", "tsc\n", root, sizeof root);
		st = switched_then(root, sigs[i], false);
		current(root, text, sizeof text);
		if (!WIFSIGNALED(st) || WTERMSIG(st) != sigs[i] || strcmp(text, "tsc\n") || record_exists(root)) {
			printf("  signal %d (%s): status 0x%x, current '%.10s', record %s\n", sigs[i], strsignal(sigs[i]), st,
			       text, record_exists(root) ? "left" : "gone");
			wrong++;
		}
	}
	check(!wrong, "signals: each of %zu signals that end a process by default (Term and Core, real-time too) "
		      "restores tsc, removes the record and still ends the process by that signal (%d wrong)",
	      sizeof sigs / sizeof sigs[0], wrong);

	tree("ignored", "tsc hpet\n", "tsc\n", root, sizeof root);
	{
		int st = switched_then(root, SIGUSR1, true);
		current(root, text, sizeof text);
		check(COND(WIFEXITED(st)) && COND(WEXITSTATUS(st) == 0) && COND(!strcmp(text, "tsc\n")) &&
			      COND(!record_exists(root)),
		      "signals: one ignored before arming stays ignored; the run goes on and restores (status 0x%x)",
		      st);
	}
}

/* A child of the switcher (os forks helpers) never touches the clocksource. */
static void test_forked_child(void)
{
	static struct os_clocksources cs;
	char root[300], text[64], err[OS_CS_PATH + 200];
	struct os_cs_run r;
	int st = 0;
	pid_t pid;

	tree("fork", "tsc hpet\n", "tsc\n", root, sizeof root);
	if (os_cs_discover(root, &cs) || os_run_open(root, true, &r, err, sizeof err)) {
		check(0, "fork: setup");
		return;
	}
	os_cs_guard_arm(&cs, r.dir_fd, -1);
	os_cs_switch(&cs, "hpet", err, sizeof err);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		raise(SIGUSR1);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	current(root, text, sizeof text);
	check(COND(WIFSIGNALED(st)) && COND(WTERMSIG(st) == SIGUSR1) && COND(!strcmp(text, "hpet\n")) &&
		      COND(record_exists(root)),
	      "fork: a forked child dies of SIGUSR1 without restoring; the switcher's record stays ('%s')", text);
	check(COND(os_cs_restore(err, sizeof err) == 0) && COND(!record_exists(root)),
	      "fork: the switcher restores, record gone");
	os_cs_guard_disarm();
	os_run_close(&r);
}

static void test_recover(void)
{
	static struct os_clocksources cs;
	char root[300], text[64], msg[OS_CS_PATH + 400];
	struct os_cs_run r;
	int rc;

	tree("recover", "tsc hpet acpi_pm\n", "hpet\n", root, sizeof root);
	if (os_cs_discover(root, &cs) || os_run_open(root, true, &r, msg, sizeof msg) ||
	    os_cs_record_write(r.dir_fd, "tsc", msg, sizeof msg)) {
		check(0, "recover: setup: %s", msg);
		return;
	}
	rc = os_cs_recover(&cs, r.dir_fd, "tsc", msg, sizeof msg);
	current(root, text, sizeof text);
	check(COND(rc == 0) && COND(!strcmp(text, "tsc\n")) && COND(!record_exists(root)) &&
		      COND(strstr(msg, "'hpet' was in use")),
	      "recover: tsc put back, the record removed, said (%s)", msg);

	/* The original gone with no successor: the record stays for a later try. */
	tree("recover-gone", "hpet\n", "hpet\n", root, sizeof root);
	os_run_close(&r);
	if (os_cs_discover(root, &cs) || os_run_open(root, true, &r, msg, sizeof msg) ||
	    os_cs_record_write(r.dir_fd, "acpi_pm", msg, sizeof msg)) {
		check(0, "recover: setup 2: %s", msg);
		return;
	}
	rc = os_cs_recover(&cs, r.dir_fd, "acpi_pm", msg, sizeof msg);
	check(COND(rc == -1) && COND(record_exists(root)) && COND(strstr(msg, "record stays")),
	      "recover: a failure keeps the record and says so (%s)", msg);
	os_run_close(&r);
}

/* Without a run directory there is no record, so no switch. */
static void test_no_record(void)
{
	static struct os_clocksources cs;
	char root[300], text[64], err[OS_CS_PATH + 200];
	int rc;

	tree("norecord", "tsc hpet\n", "tsc\n", root, sizeof root);
	os_cs_discover(root, &cs);
	os_cs_guard_arm(&cs, -1, -1);
	rc = os_cs_switch(&cs, "hpet", err, sizeof err);
	current(root, text, sizeof text);
	check(COND(rc == -1) && COND(!strcmp(text, "tsc\n")) && COND(strstr(err, "restore record")),
	      "no record: the switch is refused, nothing written (%s)", err);
	os_cs_guard_disarm();
}

int main(void)
{
	char cmd[300];

	snprintf(base, sizeof base, "/tmp/tickprobe-test-cs-run.XXXXXX");
	if (!mkdtemp(base)) {
		check(0, "mkdtemp");
		return check_done();
	}
	test_record_text();
	test_run_dir();
	test_lock();
	test_signals();
	test_forked_child();
	test_recover();
	test_no_record();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	if (system(cmd) != 0)
		check(0, "cleanup of %s", base);
	return check_done();
}
