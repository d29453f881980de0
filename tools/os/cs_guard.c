/* SPDX-License-Identifier: BSD-2-Clause */
/* The restore guard: switching, restoring, and the signal handler that
 * restores before the process dies (tools/os/clocksource.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tools/os/clocksource.h"
#include "tools/os/cs_run.h"

/* The guard's state lives in static storage so that the signal handler can
 * use it without calling anything that is not async-signal-safe. */
static struct {
	volatile sig_atomic_t armed, switched, recorded;
	int dying;                   /* set by the first handler to run: a second waits for the end */
	pid_t owner;                 /* the process that armed it: a forked child never restores */
	int reported;                /* a failed restore was already said: disarm does not say it again */
	int run_fd;                  /* the run directory holding the restore record; -1: none */
	char path[OS_CS_PATH + 32];  /* …/current_clocksource */
	char avail[OS_CS_PATH + 32]; /* …/available_clocksource */
	char orig[OS_CS_NAME + 1];   /* the original name plus '\n' */
	char orig_name[OS_CS_NAME];  /* the same as a string */
	size_t orig_len;
	int log_fd;                  /* -1: none */
	bool caught[NSIG];           /* the handler is installed for this signal */
	struct sigaction old[NSIG];
	char names[NSIG][24];        /* "SIGUSR1", "SIGRTMIN+3": for the handler's message */
	char instead[OS_CS_NAME];    /* the restore's outcome: the kernel's choice, when not the original */
} guard = { .log_fd = -1, .run_fd = -1 };

/* Whether sig can be caught and its default action ends the process: every
 * signal whose action in signal(7) is "Term" or "Core", the real-time ones
 * included; not those whose default is to be ignored, to stop or to go on. */
static bool ends_process(int sig)
{
	switch (sig) {
	case SIGKILL:
	case SIGSTOP:
	case SIGCHLD:
	case SIGCONT:
	case SIGURG:
	case SIGWINCH:
	case SIGTSTP:
	case SIGTTIN:
	case SIGTTOU:
		return false;
	default:
		return true;
	}
}

static size_t slen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

static void put(int fd, const char *s)
{
	size_t n = slen(s);
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* A clocksource the kernel withdraws once a better one of the same counter
 * is ready: tsc-early (registered at boot from a quick calibration) gives
 * way to tsc after the refined calibration (arch/x86/kernel/tsc.c), and
 * cannot be selected again.  Used when the kernel itself does not say what
 * it would choose (a fake tree, where current_clocksource is a plain file). */
static const char *const g_successor[][2] = { { "tsc-early", "tsc" } };

static bool write_line(const char *line, size_t n)
{
	ssize_t w;
	int fd = open(guard.path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return false;
	w = write(fd, line, n);
	close(fd);
	return w == (ssize_t)n;
}

/* The first word of a small file into out (NUL-terminated); its length. */
static size_t read_word(const char *path, char *out, size_t cap)
{
	char buf[256];
	size_t i = 0, n = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	out[0] = 0;
	if (fd < 0)
		return 0;
	r = read(fd, buf, sizeof buf);
	close(fd);
	if (r <= 0)
		return 0;
	while (i < (size_t)r && os_cs_space(buf[i]))
		i++;
	while (i < (size_t)r && !os_cs_space(buf[i]) && n + 1 < cap)
		out[n++] = buf[i++];
	out[n] = 0;
	return n;
}

static bool same(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* Whether name (len bytes) is in available_clocksource now: 1 yes, 0 no,
 * -1 the list cannot be read. */
static int listed_now(const char *name, size_t len)
{
	char buf[1024];
	ssize_t r;
	size_t i = 0;
	int fd = open(guard.avail, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	r = read(fd, buf, sizeof buf);
	close(fd);
	if (r < 0)
		return -1;
	while (i < (size_t)r) {
		size_t s;
		while (i < (size_t)r && os_cs_space(buf[i]))
			i++;
		s = i;
		while (i < (size_t)r && !os_cs_space(buf[i]))
			i++;
		if (i - s == len && same(buf + s, name, len))
			return 1;
	}
	return 0;
}

/* Writes name and reads it back: the kernel shows "name\n", a fake file
 * what was written. */
static bool select_name(const char *name, size_t len)
{
	char line[OS_CS_NAME + 1], back[OS_CS_NAME + 8];

	if (len >= OS_CS_NAME)
		return false;
	for (size_t i = 0; i < len; i++)
		line[i] = name[i];
	line[len] = '\n';
	if (!write_line(line, len + 1))
		return false;
	return read_word(guard.path, back, sizeof back) == len && same(back, name, len);
}

/* Puts the system back as the kernel would have it without this run; only
 * open/read/write/close, so the signal handler can call it.
 *  - The original, when it can still be selected: written and read back.
 *  - Otherwise (the kernel withdrew it, or will not take it) the override
 *    is cleared: a write of "\n" makes sysfs_get_uname() store an empty
 *    override_name and clocksource_select() pick the best clocksource
 *    (kernel/time/clocksource.c); what it picked is read back and must be
 *    listed.  guard.instead gets its name.
 *  - Where that read-back says nothing usable (a fake tree), the original's
 *    successor (tsc-early -> tsc), when listed, is written and read back. */
static bool restore_raw(void)
{
	size_t n = guard.orig_len - 1;
	char back[OS_CS_NAME + 8];
	size_t len;
	int listed = listed_now(guard.orig, n);

	guard.instead[0] = 0;
	if (listed != 0 && select_name(guard.orig, n))
		return true;
	if (write_line("\n", 1) && (len = read_word(guard.path, back, sizeof back)) > 0 && len < OS_CS_NAME &&
	    listed_now(back, len) != 0) {
		for (size_t i = 0; i <= len; i++)
			guard.instead[i] = back[i];
		return true;
	}
	for (size_t k = 0; k < sizeof g_successor / sizeof g_successor[0]; k++) {
		const char *from = g_successor[k][0], *to = g_successor[k][1];
		if (slen(from) != n || !same(from, guard.orig, n) || listed_now(to, slen(to)) != 1)
			continue;
		if (select_name(to, slen(to))) {
			for (size_t i = 0; i <= slen(to); i++)
				guard.instead[i] = to[i];
			return true;
		}
	}
	/* Nothing took: leave the original written, as the old code did. */
	write_line(guard.orig, guard.orig_len);
	return false;
}

/* The restore record goes once nothing is left to restore. */
static void drop_record(void)
{
	if (guard.recorded && guard.run_fd >= 0)
		unlinkat(guard.run_fd, OS_CS_RECORD, 0);
	guard.recorded = 0;
}

static void say(const char *a, const char *b, const char *c, const char *d, const char *e)
{
	const char *parts[5] = { a, b, c, d, e };
	for (int i = 0; i < 5; i++)
		if (parts[i]) {
			put(2, parts[i]);
			if (guard.log_fd >= 0)
				put(guard.log_fd, parts[i]);
		}
}

/* Ends the process with sig's default action, as if it had not been caught. */
static void die_of(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t one;

	sigaction(sig, &dfl, NULL);
	/* sig is blocked while its handler runs: unblocked, it ends the process
	 * as soon as it is raised. */
	sigemptyset(&one);
	sigaddset(&one, sig);
	pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
}

static void on_signal(int sig)
{
	const char *sn = guard.names[sig], *name = guard.orig_name;

	if (getpid() != guard.owner)
		die_of(sig);
	/* Another thread is restoring already, and ends the process when done. */
	if (__atomic_exchange_n(&guard.dying, 1, __ATOMIC_SEQ_CST))
		for (;;)
			pause();
	if (!guard.switched) {
		drop_record();
		say("tickprobe os: interrupted by ", sn, "; no clocksource was changed\n", NULL, NULL);
	} else if (restore_raw()) {
		guard.switched = 0;
		drop_record();
		if (guard.instead[0]) {
			say("tickprobe os: interrupted by ", sn, "; clocksource '", name, "' can no longer be selected: ");
			say("the kernel's own choice '", guard.instead, "' restored\n", NULL, NULL);
		} else
			say("tickprobe os: interrupted by ", sn, "; clocksource restored to '", name, "'\n");
	} else {
		say("tickprobe os: interrupted by ", sn, "; FAILED to restore clocksource '", name, "': ");
		say("its restore record stays; `tickprobe os --restore` tries again\n", NULL, NULL, NULL, NULL);
	}
	die_of(sig);
}

/* The paths and the original, for a switch (arm) or a recovery. */
static void target(const char *dir, const char *original)
{
	size_t n = strlen(original);

	if (n > OS_CS_NAME - 1)
		n = OS_CS_NAME - 1;
	snprintf(guard.path, sizeof guard.path, "%s/current_clocksource", dir);
	snprintf(guard.avail, sizeof guard.avail, "%s/available_clocksource", dir);
	/* NOLINTNEXTLINE(bugprone-not-null-terminated-result): a line for write(), not a string */
	memcpy(guard.orig, original, n);
	guard.orig[n] = '\n';
	guard.orig_len = n + 1;
	snprintf(guard.orig_name, sizeof guard.orig_name, "%.*s", (int)n, original);
	guard.switched = 0;
	guard.recorded = 0;
	guard.reported = 0;
	guard.dying = 0;
	guard.instead[0] = 0;
}

static void name_signal(int sig)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(guard.names[sig], sizeof guard.names[sig], "SIG%s", abbrev);
	else if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(guard.names[sig], sizeof guard.names[sig], "SIGRTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(guard.names[sig], sizeof guard.names[sig], "signal %d", sig);
}

void os_cs_guard_arm(const struct os_clocksources *cs, int run_fd, int log_fd)
{
	struct sigaction sa;

	target(cs->dir, cs->current);
	guard.run_fd = run_fd;
	guard.log_fd = log_fd;
	guard.owner = getpid();
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (int s = 1; s < NSIG; s++)
		if (ends_process(s))
			sigaddset(&sa.sa_mask, s); /* no second handler in this thread while one restores */
	for (int s = 1; s < NSIG; s++) {
		guard.caught[s] = false;
		/* glibc keeps a few real-time signals for itself: those fail here. */
		if (!ends_process(s) || sigaction(s, NULL, &guard.old[s]) != 0)
			continue;
		/* An ignored signal cannot end the run (SIGINT of a script's
		 * background job, SIGHUP under nohup, SIGPIPE): it stays ignored. */
		if (guard.old[s].sa_handler == SIG_IGN)
			continue;
		name_signal(s);
		if (sigaction(s, &sa, NULL) == 0)
			guard.caught[s] = true;
	}
	guard.armed = 1;
}

bool os_cs_switched(void)
{
	return guard.switched != 0;
}

/* The restore record, before the first write to current_clocksource. */
static int record_first(char *err, size_t errcap)
{
	char why[OS_CS_PATH + 128];

	if (guard.recorded)
		return 0;
	if (guard.run_fd < 0) {
		snprintf(err, errcap, "refusing to switch without a restore record");
		return -1;
	}
	if (os_cs_record_write(guard.run_fd, guard.orig_name, why, sizeof why) != 0) {
		snprintf(err, errcap, "refusing to switch: %s", why);
		return -1;
	}
	guard.recorded = 1;
	return 0;
}

int os_cs_switch(const struct os_clocksources *cs, const char *name, char *err, size_t errcap)
{
	char back[OS_CS_NAME], line[OS_CS_NAME + 1];
	ssize_t w;
	size_t n = strlen(name);
	int fd;

	if (!guard.armed) {
		snprintf(err, errcap, "refusing to switch without the restore guard");
		return -1;
	}
	if (!os_cs_listed(cs, name) || n >= OS_CS_NAME) {
		snprintf(err, errcap, "'%s' is not an available clocksource", name);
		return -1;
	}
	if (record_first(err, errcap) != 0)
		return -1;
	guard.switched = 1; /* before the write: a signal during it must restore */
	fd = open(guard.path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errcap, "cannot open %s: %s", guard.path, strerror(errno));
		return -1;
	}
	/* NOLINTNEXTLINE(bugprone-not-null-terminated-result): a line for write() */
	memcpy(line, name, n);
	line[n] = '\n';
	w = write(fd, line, n + 1);
	if (w != (ssize_t)(n + 1)) {
		snprintf(err, errcap, "writing '%s' to %s failed: %s", name, guard.path,
			 w < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	close(fd);
	if (os_cs_read_current(cs, back, sizeof back) < 0) {
		snprintf(err, errcap, "cannot read %s back", guard.path);
		return -1;
	}
	if (strcmp(back, name)) {
		snprintf(err, errcap, "switching to '%s' did not take: current_clocksource reads back '%s'",
			 name, back);
		return -1;
	}
	return 0;
}

const char *os_cs_restored_instead(void)
{
	return guard.instead;
}

int os_cs_restore(char *err, size_t errcap)
{
	if (!guard.switched) {
		drop_record();
		return 0;
	}
	if (restore_raw()) {
		guard.switched = 0;
		drop_record();
		return 0;
	}
	snprintf(err, errcap, "could not restore clocksource '%s' in %s, nor let the kernel choose one: "
		 "write a name from available_clocksource to it by hand%s", guard.orig_name, guard.path,
		 guard.recorded ? ", or run `tickprobe os --restore` (its restore record stays)" : "");
	guard.reported = 1;
	return -1;
}

void os_cs_guard_disarm(void)
{
	char err[OS_CS_PATH + 256];

	if (!guard.armed)
		return;
	if (guard.switched && !guard.reported && os_cs_restore(err, sizeof err) < 0)
		fprintf(stderr, "tickprobe os: %s\n", err);
	if (!guard.switched)
		drop_record();
	for (int s = 1; s < NSIG; s++)
		if (guard.caught[s])
			sigaction(s, &guard.old[s], NULL);
	guard.armed = 0;
}

int os_cs_recover(const struct os_clocksources *cs, int run_fd, const char *original, char *msg, size_t cap)
{
	char before[OS_CS_NAME];
	bool ok;

	if (guard.armed) {
		snprintf(msg, cap, "a recovery while a switch is under way");
		return -1;
	}
	if (os_cs_read_current(cs, before, sizeof before) < 0)
		snprintf(before, sizeof before, "?");
	target(cs->dir, original);
	guard.run_fd = run_fd;
	guard.recorded = 1;
	guard.switched = 1;
	ok = restore_raw();
	guard.switched = 0;
	if (!ok) {
		guard.recorded = 0; /* kept on disk, for the next try */
		snprintf(msg, cap, "'%s' is in use and '%s' could not be put back, nor the kernel's own choice: the "
			 "restore record stays; write a name from available_clocksource to %s by hand, then run "
			 "`tickprobe os --restore` again", before, original, guard.path);
		return -1;
	}
	drop_record();
	if (guard.instead[0])
		snprintf(msg, cap, "'%s' was in use; '%s' can no longer be selected, so the kernel's own choice '%s' "
			 "is in use now", before, original, guard.instead);
	else if (!strcmp(before, original))
		snprintf(msg, cap, "'%s' is in use already", original);
	else
		snprintf(msg, cap, "'%s' was in use; '%s' is back", before, original);
	return 0;
}
