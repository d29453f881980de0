/* SPDX-License-Identifier: BSD-2-Clause */
/* Clocksource discovery, switching and restoring (tools/os/clocksource.h),
 * on fake sysfs trees made in a temporary directory. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/unit/check.h"
#include "tools/os/clocksource.h"
#include "tools/os/cs_run.h"

static char base[256];

/* A fake root with the clocksource0 directory; NULL content = no file. */
static void tree(const char *name, const char *avail, const char *cur, char *root, size_t cap)
{
	char dir[512], path[600], cmd[700];
	FILE *f;

	snprintf(root, cap, "%s/%s", base, name);
	snprintf(dir, sizeof dir, "%s/sys/devices/system/clocksource/clocksource0", root);
	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
	if (system(cmd) != 0)
		return;
	if (avail) {
		snprintf(path, sizeof path, "%s/available_clocksource", dir);
		f = fopen(path, "w");
		fputs(avail, f);
		fclose(f);
	}
	if (cur) {
		snprintf(path, sizeof path, "%s/current_clocksource", dir);
		f = fopen(path, "w");
		fputs(cur, f);
		fclose(f);
	}
}

/* The tree's run directory (for the restore record), held; -1 on failure.
 * Left open: one a tree, for the life of this test program. */
static int run_dir(const char *root)
{
	struct os_cs_run r;
	char why[OS_CS_PATH + 200];

	if (os_run_open(root, true, &r, why, sizeof why) != 0) {
		check(0, "the run directory of %s: %s", root, why);
		return -1;
	}
	return r.dir_fd;
}

static void file_text(const struct os_clocksources *cs, char *out, size_t cap)
{
	char path[OS_CS_PATH + 32];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof path, "%s/current_clocksource", cs->dir);
	out[0] = 0;
	f = fopen(path, "r");
	if (f) {
		n = fread(out, 1, cap - 1, f);
		fclose(f);
	}
	out[n] = 0;
}

/* The text with its newlines shown as \n, for messages that stay on one line. */
static const char *vis(const char *s)
{
	static char buf[128];
	size_t o = 0;

	for (; *s && o + 3 < sizeof buf; s++) {
		if (*s == '\n') {
			buf[o++] = '\\';
			buf[o++] = 'n';
		} else
			buf[o++] = *s;
	}
	buf[o] = 0;
	return buf;
}

static void test_parse(void)
{
	char names[4][OS_CS_NAME];
	int dropped = -1, n;
	char longname[80];

	n = os_cs_parse_list("tsc hpet acpi_pm\n", names, 4, &dropped);
	check(COND(n == 3) && COND(dropped == 0) && COND(!strcmp(names[0], "tsc")) &&
		      COND(!strcmp(names[2], "acpi_pm")),
	      "parse: plain list gives 3 names (%d, dropped %d)", n, dropped);
	n = os_cs_parse_list("\n\t  kvm-clock \t\t tsc  \r\n\n", names, 4, &dropped);
	check(COND(n == 2) && COND(!strcmp(names[0], "kvm-clock")) && COND(!strcmp(names[1], "tsc")),
	      "parse: tabs, runs of spaces, CR and blank lines (%d)", n);
	n = os_cs_parse_list("", names, 4, &dropped);
	check(COND(n == 0) && COND(dropped == 0), "parse: empty text gives no names");
	n = os_cs_parse_list("a b c d e f", names, 4, &dropped);
	check(COND(n == 4) && COND(dropped == 2), "parse: past the limit names are counted as dropped (%d, %d)", n,
	      dropped);
	memset(longname, 'x', sizeof longname - 1);
	longname[sizeof longname - 1] = 0;
	n = os_cs_parse_list(longname, names, 4, &dropped);
	check(COND(n == 0) && COND(dropped == 1), "parse: a name of 79 characters is dropped, not cut");
}

static void test_discover(void)
{
	static struct os_clocksources cs;
	char root[300], root_slash[310];
	int rc;

	tree("plain", "tsc hpet acpi_pm \n", "tsc\n", root, sizeof root);
	rc = os_cs_discover(root, &cs);
	check(COND(rc == 0) && COND(cs.n == 3) && COND(!strcmp(cs.current, "tsc")) && COND(cs.current_listed) &&
		      COND(!cs.problem[0]),
	      "discover: tsc hpet acpi_pm, current tsc (rc %d, n %d, '%s', problem '%s')", rc, cs.n, cs.current,
	      cs.problem);
	check(!strcmp(cs.available[1], "hpet"), "discover: list order kept ('%s')", cs.available[1]);
	snprintf(root_slash, sizeof root_slash, "%s/", root);
	rc = os_cs_discover(root_slash, &cs);
	check(COND(rc == 0) && COND(cs.n == 3) && COND(!strstr(cs.dir, "//")),
	      "discover: a root ending in / gives the same tree (%s)", cs.dir);

	tree("space", "  \t tsc\t\tkvm-clock   \n\n", "  kvm-clock \n\n", root, sizeof root);
	rc = os_cs_discover(root, &cs);
	check(COND(rc == 0) && COND(cs.n == 2) && COND(!strcmp(cs.current, "kvm-clock")) && COND(cs.current_listed),
	      "discover: whitespace around and between names (n %d, current '%s')", cs.n, cs.current);

	tree("noavail", NULL, "tsc\n", root, sizeof root);
	rc = os_cs_discover(root, &cs);
	check(COND(rc == 0) && COND(cs.n == 0) && COND(!strcmp(cs.current, "tsc")) && COND(!cs.current_listed) &&
		      COND(strstr(cs.problem, "available_clocksource")),
	      "discover: no available_clocksource: current still known, problem says why ('%s')", cs.problem);

	tree("nocur", "tsc hpet\n", NULL, root, sizeof root);
	rc = os_cs_discover(root, &cs);
	check(COND(rc == -1) && COND(strstr(cs.problem, "current_clocksource")),
	      "discover: no current_clocksource fails ('%s')", cs.problem);

	tree("emptycur", "tsc hpet\n", " \n", root, sizeof root);
	rc = os_cs_discover(root, &cs);
	check(COND(rc == -1) && COND(strstr(cs.problem, "empty")), "discover: a blank current_clocksource fails ('%s')",
	      cs.problem);

	tree("stray", "tsc hpet\n", "acpi_pm\n", root, sizeof root);
	rc = os_cs_discover(root, &cs);
	check(COND(rc == 0) && COND(!strcmp(cs.current, "acpi_pm")) && COND(!cs.current_listed) &&
		      COND(strstr(cs.problem, "not in")),
	      "discover: current not in the available list is kept but flagged ('%s')", cs.problem);

	rc = os_cs_discover("/nonexistent-tickprobe-root", &cs);
	check(rc == -1, "discover: a missing tree fails");
}

static void test_switch(void)
{
	static struct os_clocksources cs;
	char root[300], text[64], err[OS_CS_PATH + 128], path[OS_CS_PATH + 32];
	int rc;

	tree("switch", "tsc hpet acpi_pm\n", "tsc\n", root, sizeof root);
	os_cs_discover(root, &cs);

	rc = os_cs_switch(&cs, "hpet", err, sizeof err);
	file_text(&cs, text, sizeof text);
	check(COND(rc == -1) && COND(!strcmp(text, "tsc\n")), "switch: refused before the guard is armed ('%s')", err);

	os_cs_guard_arm(&cs, run_dir(root), -1);
	check(!os_cs_switched(), "switch: nothing switched after arming");
	rc = os_cs_switch(&cs, "hpet", err, sizeof err);
	file_text(&cs, text, sizeof text);
	check(COND(rc == 0) && COND(!strcmp(text, "hpet\n")) && COND(os_cs_switched()),
	      "switch: to hpet writes 'hpet\\n' ('%s')", vis(text));
	rc = os_cs_switch(&cs, "acpi_pm", err, sizeof err);
	file_text(&cs, text, sizeof text);
	check(COND(rc == 0) && COND(!strcmp(text, "acpi_pm\n")), "switch: to acpi_pm replaces the whole file ('%s')",
	      vis(text));

	rc = os_cs_switch(&cs, "bogus", err, sizeof err);
	file_text(&cs, text, sizeof text);
	check(COND(rc == -1) && COND(!strcmp(text, "acpi_pm\n")) && COND(strstr(err, "not an available")),
	      "switch: a name not in the list is refused, file untouched ('%s')", err);

	/* A switch that does not take: the file now swallows writes. */
	snprintf(path, sizeof path, "%s/current_clocksource", cs.dir);
	unlink(path);
	if (symlink("/dev/null", path) != 0)
		perror("symlink");
	rc = os_cs_switch(&cs, "hpet", err, sizeof err);
	check(rc == -1, "switch: a write that does not read back is a failure ('%s')", err);
	rc = os_cs_restore(err, sizeof err);
	check(COND(rc == -1) && COND(os_cs_switched()),
	      "restore: a restore that does not read back fails and stays pending ('%s')", err);
	unlink(path);
	close(open(path, O_WRONLY | O_CREAT, 0644));

	rc = os_cs_restore(err, sizeof err);
	file_text(&cs, text, sizeof text);
	check(COND(rc == 0) && COND(!strcmp(text, "tsc\n")) && COND(!os_cs_switched()),
	      "restore: the original is back ('%s')", vis(text));
	rc = os_cs_restore(err, sizeof err);
	check(rc == 0, "restore: a second restore has nothing to do");
	os_cs_guard_disarm();
}

/* Rewrites a fake tree's available_clocksource, as the kernel does when it
 * registers tsc and withdraws tsc-early. */
static void set_available(const struct os_clocksources *cs, const char *text)
{
	char path[OS_CS_PATH + 32];
	FILE *f;

	snprintf(path, sizeof path, "%s/available_clocksource", cs->dir);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The original can no longer be selected: tsc-early, withdrawn during the
 * run.  The restore leaves the system as the kernel would have it (tsc),
 * not a name the kernel no longer has. */
static void test_withdrawn(void)
{
	static struct os_clocksources cs;
	char root[300], text[64], err[OS_CS_PATH + 256];
	int rc;

	tree("early", "tsc-early hpet acpi_pm\n", "tsc-early\n", root, sizeof root);
	os_cs_discover(root, &cs);
	os_cs_guard_arm(&cs, run_dir(root), -1);
	rc = os_cs_switch(&cs, "hpet", err, sizeof err);
	check(rc == 0, "withdrawn: switched from tsc-early to hpet ('%s')", rc ? err : "");
	set_available(&cs, "tsc hpet acpi_pm\n");
	rc = os_cs_restore(err, sizeof err);
	file_text(&cs, text, sizeof text);
	check(COND(rc == 0) && COND(!strcmp(text, "tsc\n")),
	      "withdrawn: tsc-early gone, restore leaves tsc (rc %d, '%s')", rc, vis(text));
	check(COND(!strcmp(os_cs_restored_instead(), "tsc")) && COND(!os_cs_switched()),
	      "withdrawn: the restore says the kernel's choice is tsc ('%s')", os_cs_restored_instead());
	os_cs_guard_disarm();

	/* Still available: the original, and nothing said about a choice. */
	tree("kept", "tsc-early hpet\n", "tsc-early\n", root, sizeof root);
	os_cs_discover(root, &cs);
	os_cs_guard_arm(&cs, run_dir(root), -1);
	os_cs_switch(&cs, "hpet", err, sizeof err);
	rc = os_cs_restore(err, sizeof err);
	file_text(&cs, text, sizeof text);
	check(COND(rc == 0) && COND(!strcmp(text, "tsc-early\n")) && COND(!os_cs_restored_instead()[0]),
	      "withdrawn: tsc-early still listed is restored itself ('%s', instead '%s')", vis(text),
	      os_cs_restored_instead());
	os_cs_guard_disarm();

	/* Gone with no known successor: a failure that says what to do, and
	 * the original written back. */
	tree("gone", "acpi_pm hpet\n", "acpi_pm\n", root, sizeof root);
	os_cs_discover(root, &cs);
	os_cs_guard_arm(&cs, run_dir(root), -1);
	os_cs_switch(&cs, "hpet", err, sizeof err);
	set_available(&cs, "hpet tsc\n");
	rc = os_cs_restore(err, sizeof err);
	file_text(&cs, text, sizeof text);
	check(COND(rc == -1) && COND(strstr(err, "by hand")) && COND(!strcmp(text, "acpi_pm\n")) &&
		      COND(os_cs_switched()),
	      "withdrawn: no successor: the restore fails and says so ('%s', file '%s')", err, vis(text));
	/* Said once: disarm does not say it again, nor try again. */
	fflush(stdout);
	{
		int fds[2], saved = dup(2);
		char said[512] = "";
		ssize_t got;
		if (pipe(fds) == 0) {
			dup2(fds[1], 2);
			os_cs_guard_disarm();
			fflush(stderr);
			dup2(saved, 2);
			close(fds[1]);
			got = read(fds[0], said, sizeof said - 1);
			said[got > 0 ? got : 0] = 0;
			close(fds[0]);
			check(!strstr(said, "could not restore"), "withdrawn: disarm after a reported failure says nothing ('%s')",
			      vis(said));
		}
		close(saved);
	}

	/* The signal path: tsc-early withdrawn, then SIGTERM. */
	tree("early-signal", "tsc-early hpet\n", "tsc-early\n", root, sizeof root);
	os_cs_discover(root, &cs);
	fflush(stdout);
	{
		int status = 0;
		pid_t pid = fork();
		if (pid == 0) {
			int devnull = open("/dev/null", O_WRONLY);
			dup2(devnull, 2);
			os_cs_guard_arm(&cs, run_dir(root), -1);
			if (os_cs_switch(&cs, "hpet", err, sizeof err) != 0)
				_exit(3);
			set_available(&cs, "tsc hpet\n");
			raise(SIGTERM);
			_exit(4);
		}
		waitpid(pid, &status, 0);
		file_text(&cs, text, sizeof text);
		check(COND(WIFSIGNALED(status)) && COND(!strcmp(text, "tsc\n")),
		      "withdrawn: SIGTERM after tsc-early went leaves tsc (status 0x%x, '%s')", status, vis(text));
	}
}

/* The signal path: a child switches, then is hit by SIGTERM. */
static void test_signal(void)
{
	static struct os_clocksources cs;
	char root[300], text[64], err[256];
	int status = 0;
	pid_t pid;

	tree("signal", "tsc hpet\n", "tsc\n", root, sizeof root);
	os_cs_discover(root, &cs);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, 2); /* the handler's message is not this test's output */
		os_cs_guard_arm(&cs, run_dir(root), -1);
		if (os_cs_switch(&cs, "hpet", err, sizeof err) != 0)
			_exit(3);
		raise(SIGTERM);
		_exit(4); /* not reached: the handler re-raises with the default action */
	}
	waitpid(pid, &status, 0);
	file_text(&cs, text, sizeof text);
	check(COND(WIFSIGNALED(status)) && COND(WTERMSIG(status) == SIGTERM),
	      "signal: the process still dies of SIGTERM (status 0x%x)", status);
	check(!strcmp(text, "tsc\n"), "signal: SIGTERM after a switch restores the original ('%s')", vis(text));
}

int main(void)
{
	char cmd[300];

	snprintf(base, sizeof base, "/tmp/tickprobe-test-os.XXXXXX");
	if (!mkdtemp(base)) {
		check(0, "mkdtemp");
		return check_done();
	}
	test_parse();
	test_discover();
	test_switch();
	test_signal();
	test_withdrawn();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	if (system(cmd) != 0)
		check(0, "cleanup of %s", base);
	return check_done();
}
