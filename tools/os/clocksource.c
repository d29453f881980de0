/* SPDX-License-Identifier: BSD-2-Clause */
/* Clocksource discovery, switching and the restore guard (tools/os/clocksource.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tools/os/clocksource.h"

#define CS_SUBDIR "sys/devices/system/clocksource/clocksource0"

/* The guard's state lives in static storage so the signal handler can use it
 * without calling anything that is not async-signal-safe. */
static const int g_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define NSIGS (sizeof g_sigs / sizeof g_sigs[0])
static struct {
	volatile sig_atomic_t armed, switched;
	int reported;              /* a failed restore was already said: disarm does not say it again */
	char path[OS_CS_PATH + 32];  /* …/current_clocksource */
	char avail[OS_CS_PATH + 32]; /* …/available_clocksource */
	char orig[OS_CS_NAME + 1];   /* the original name plus '\n' */
	size_t orig_len;
	int log_fd;                /* -1: none */
	struct sigaction old[NSIGS];
	char instead[OS_CS_NAME];  /* the restore's outcome: the kernel's choice, when not the original */
} guard = { .log_fd = -1 };

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int os_cs_parse_list(const char *text, char (*names)[OS_CS_NAME], int max, int *dropped)
{
	int n = 0, drop = 0;
	const char *p = text;

	while (*p) {
		const char *s;
		size_t len;
		while (*p && is_space(*p))
			p++;
		if (!*p)
			break;
		s = p;
		while (*p && !is_space(*p))
			p++;
		len = (size_t)(p - s);
		if (len >= OS_CS_NAME || n >= max) {
			drop++;
			continue;
		}
		memcpy(names[n], s, len);
		names[n][len] = 0;
		n++;
	}
	if (dropped)
		*dropped = drop;
	return n;
}

/* Whole small file into buf (NUL-terminated).  -1 with errno on failure. */
static int read_small(const char *path, char *buf, size_t cap)
{
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (got + 1 < cap) {
		ssize_t r = read(fd, buf + got, cap - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	buf[got] = 0;
	close(fd);
	return 0;
}

static void trim_first(const char *text, char *out, size_t cap)
{
	char one[1][OS_CS_NAME];
	int dropped = 0;

	out[0] = 0;
	if (os_cs_parse_list(text, one, 1, &dropped) == 1)
		snprintf(out, cap, "%s", one[0]);
}

int os_cs_read_current(const struct os_clocksources *cs, char *out, size_t cap)
{
	char path[OS_CS_PATH + 32], buf[256];

	snprintf(path, sizeof path, "%s/current_clocksource", cs->dir);
	if (read_small(path, buf, sizeof buf) < 0)
		return -1;
	trim_first(buf, out, cap);
	return out[0] ? 0 : -1;
}

int os_cs_discover(const char *root, struct os_clocksources *cs)
{
	char path[OS_CS_PATH + 32], buf[1024];
	size_t rl;
	int i;

	memset(cs, 0, sizeof *cs);
	if (!root || !*root)
		root = "/";
	rl = strlen(root);
	snprintf(cs->dir, sizeof cs->dir, "%s%s" CS_SUBDIR, root, root[rl - 1] == '/' ? "" : "/");

	snprintf(path, sizeof path, "%s/available_clocksource", cs->dir);
	if (read_small(path, buf, sizeof buf) == 0)
		cs->n = os_cs_parse_list(buf, cs->available, OS_CS_MAX, &cs->dropped);
	else
		snprintf(cs->problem, sizeof cs->problem, "cannot read %s: %s", path, strerror(errno));

	snprintf(path, sizeof path, "%s/current_clocksource", cs->dir);
	if (read_small(path, buf, sizeof buf) < 0) {
		snprintf(cs->problem, sizeof cs->problem, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	trim_first(buf, cs->current, sizeof cs->current);
	if (!cs->current[0]) {
		snprintf(cs->problem, sizeof cs->problem, "%s is empty", path);
		return -1;
	}
	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->available[i], cs->current))
			cs->current_listed = true;
	if (!cs->current_listed && !cs->problem[0])
		snprintf(cs->problem, sizeof cs->problem,
			 "current clocksource '%s' is not in available_clocksource", cs->current);
	return 0;
}

/* --- the signal-safe part ----------------------------------------------- */

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
	while (i < (size_t)r && is_space(buf[i]))
		i++;
	while (i < (size_t)r && !is_space(buf[i]) && n + 1 < cap)
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
		while (i < (size_t)r && is_space(buf[i]))
			i++;
		s = i;
		while (i < (size_t)r && !is_space(buf[i]))
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

static const char *sig_name(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	case SIGQUIT: return "SIGQUIT";
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGABRT: return "SIGABRT";
	default: return "a signal";
	}
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

static void on_signal(int sig)
{
	char name[OS_CS_NAME + 1];
	size_t i;

	/* SA_RESETHAND already put the default action back; SA_NODEFER lets the
	 * raise() below end the process at once. */
	for (i = 0; i + 1 < guard.orig_len && i < OS_CS_NAME; i++)
		name[i] = guard.orig[i];
	name[i] = 0;
	if (!guard.switched)
		say("tickprobe os: interrupted by ", sig_name(sig), "; no clocksource was changed\n", NULL, NULL);
	else if (restore_raw()) {
		guard.switched = 0;
		if (guard.instead[0]) {
			say("tickprobe os: interrupted by ", sig_name(sig), "; clocksource '", name,
			    "' can no longer be selected: ");
			say("the kernel's own choice '", guard.instead, "' restored\n", NULL, NULL);
		} else
			say("tickprobe os: interrupted by ", sig_name(sig), "; clocksource restored to '", name, "'\n");
	} else
		say("tickprobe os: interrupted by ", sig_name(sig), "; FAILED to restore clocksource '", name,
		    "': write it to current_clocksource by hand\n");
	raise(sig);
}

void os_cs_guard_arm(const struct os_clocksources *cs, int log_fd)
{
	struct sigaction sa;
	size_t i, n = strlen(cs->current);

	if (n > OS_CS_NAME - 1)
		n = OS_CS_NAME - 1;
	snprintf(guard.path, sizeof guard.path, "%s/current_clocksource", cs->dir);
	snprintf(guard.avail, sizeof guard.avail, "%s/available_clocksource", cs->dir);
	/* NOLINTNEXTLINE(bugprone-not-null-terminated-result): a line for write(), not a string */
	memcpy(guard.orig, cs->current, n);
	guard.orig[n] = '\n';
	guard.orig_len = n + 1;
	guard.log_fd = log_fd;
	guard.switched = 0;
	guard.reported = 0;
	guard.instead[0] = 0;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSIGS; i++) {
		int s = g_sigs[i];
		sigaction(s, NULL, &guard.old[i]);
		/* An ignored SIGINT/SIGQUIT (a background job of a script) or SIGHUP
		 * (nohup) cannot end the run, so it stays ignored: nothing to restore. */
		if (guard.old[i].sa_handler == SIG_IGN && (s == SIGINT || s == SIGQUIT || s == SIGHUP))
			continue;
		sigaction(s, &sa, NULL);
	}
	guard.armed = 1;
}

bool os_cs_switched(void)
{
	return guard.switched != 0;
}

int os_cs_switch(const struct os_clocksources *cs, const char *name, char *err, size_t errcap)
{
	char back[OS_CS_NAME];
	bool listed = false;
	ssize_t w;
	size_t n = strlen(name);
	int fd, i;

	if (!guard.armed) {
		snprintf(err, errcap, "refusing to switch without the restore guard");
		return -1;
	}
	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->available[i], name))
			listed = true;
	if (!listed) {
		snprintf(err, errcap, "'%s' is not an available clocksource", name);
		return -1;
	}
	guard.switched = 1; /* before the write: a signal during it must restore */
	fd = open(guard.path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errcap, "cannot open %s: %s", guard.path, strerror(errno));
		return -1;
	}
	{
		char line[OS_CS_NAME + 1];
		/* NOLINTNEXTLINE(bugprone-not-null-terminated-result): a line for write() */
		memcpy(line, name, n);
		line[n] = '\n';
		w = write(fd, line, n + 1);
	}
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
	if (!guard.switched)
		return 0;
	if (restore_raw()) {
		guard.switched = 0;
		return 0;
	}
	snprintf(err, errcap, "could not restore clocksource '%.*s' in %s, nor let the kernel choose one: "
		 "write a name from available_clocksource to it by hand", (int)(guard.orig_len - 1), guard.orig, guard.path);
	guard.reported = 1;
	return -1;
}

void os_cs_guard_disarm(void)
{
	char err[OS_CS_PATH + 256];
	size_t i;

	if (!guard.armed)
		return;
	if (guard.switched && !guard.reported && os_cs_restore(err, sizeof err) < 0)
		fprintf(stderr, "tickprobe os: %s\n", err);
	for (i = 0; i < NSIGS; i++)
		sigaction(g_sigs[i], &guard.old[i], NULL);
	guard.armed = 0;
}

int os_cs_refresh(struct os_clocksources *cs)
{
	char path[OS_CS_PATH + 32], buf[1024];

	snprintf(path, sizeof path, "%s/available_clocksource", cs->dir);
	if (read_small(path, buf, sizeof buf) < 0)
		return -1;
	cs->n = os_cs_parse_list(buf, cs->available, OS_CS_MAX, &cs->dropped);
	return 0;
}
