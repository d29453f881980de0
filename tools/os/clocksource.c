/* Clocksource discovery, switching and the restore guard (os_clocksource.h). */
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
static volatile sig_atomic_t g_armed, g_switched;
static char g_path[OS_CS_PATH + 32];  /* …/current_clocksource */
static char g_orig[OS_CS_NAME + 1];   /* the original name plus '\n' */
static size_t g_orig_len;
static int g_log_fd = -1;
static const int g_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define NSIGS (sizeof g_sigs / sizeof g_sigs[0])
static struct sigaction g_old[NSIGS];

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

/* Write the original back and read it again: only open/read/write/close. */
static bool restore_raw(void)
{
	char back[OS_CS_NAME + 8];
	ssize_t w, r;
	int fd = open(g_path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return false;
	w = write(fd, g_orig, g_orig_len);
	close(fd);
	if (w != (ssize_t)g_orig_len)
		return false;
	fd = open(g_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	r = read(fd, back, sizeof back);
	close(fd);
	/* The kernel shows "name\n"; a fake file shows what was written. */
	if (r < (ssize_t)g_orig_len - 1)
		return false;
	for (size_t i = 0; i + 1 < g_orig_len; i++)
		if (back[i] != g_orig[i])
			return false;
	return r == (ssize_t)g_orig_len - 1 || back[g_orig_len - 1] == '\n' || back[g_orig_len - 1] == ' ';
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
			if (g_log_fd >= 0)
				put(g_log_fd, parts[i]);
		}
}

static void on_signal(int sig)
{
	char name[OS_CS_NAME + 1];
	size_t i;

	/* SA_RESETHAND already put the default action back; SA_NODEFER lets the
	 * raise() below end the process at once. */
	for (i = 0; i + 1 < g_orig_len && i < OS_CS_NAME; i++)
		name[i] = g_orig[i];
	name[i] = 0;
	if (!g_switched)
		say("tickprobe os: interrupted by ", sig_name(sig), "; no clocksource was changed\n", NULL, NULL);
	else if (restore_raw()) {
		g_switched = 0;
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
	snprintf(g_path, sizeof g_path, "%s/current_clocksource", cs->dir);
	/* NOLINTNEXTLINE(bugprone-not-null-terminated-result): a line for write(), not a string */
	memcpy(g_orig, cs->current, n);
	g_orig[n] = '\n';
	g_orig_len = n + 1;
	g_log_fd = log_fd;
	g_switched = 0;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSIGS; i++) {
		int s = g_sigs[i];
		sigaction(s, NULL, &g_old[i]);
		/* An ignored SIGINT/SIGQUIT (a background job of a script) or SIGHUP
		 * (nohup) cannot end the run, so it stays ignored: nothing to restore. */
		if (g_old[i].sa_handler == SIG_IGN && (s == SIGINT || s == SIGQUIT || s == SIGHUP))
			continue;
		sigaction(s, &sa, NULL);
	}
	g_armed = 1;
}

bool os_cs_switched(void)
{
	return g_switched != 0;
}

int os_cs_switch(const struct os_clocksources *cs, const char *name, char *err, size_t errcap)
{
	char back[OS_CS_NAME];
	bool listed = false;
	ssize_t w;
	size_t n = strlen(name);
	int fd, i;

	if (!g_armed) {
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
	g_switched = 1; /* before the write: a signal during it must restore */
	fd = open(g_path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errcap, "cannot open %s: %s", g_path, strerror(errno));
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
		snprintf(err, errcap, "writing '%s' to %s failed: %s", name, g_path,
			 w < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	close(fd);
	if (os_cs_read_current(cs, back, sizeof back) < 0) {
		snprintf(err, errcap, "cannot read %s back", g_path);
		return -1;
	}
	if (strcmp(back, name)) {
		snprintf(err, errcap, "switching to '%s' did not take: current_clocksource reads back '%s'",
			 name, back);
		return -1;
	}
	return 0;
}

int os_cs_restore(char *err, size_t errcap)
{
	if (!g_switched)
		return 0;
	if (restore_raw()) {
		g_switched = 0;
		return 0;
	}
	snprintf(err, errcap, "could not restore clocksource '%.*s' in %s", (int)(g_orig_len - 1), g_orig, g_path);
	return -1;
}

void os_cs_guard_disarm(void)
{
	char err[OS_CS_PATH + 128];
	size_t i;

	if (!g_armed)
		return;
	if (os_cs_restore(err, sizeof err) < 0)
		fprintf(stderr, "tickprobe os: %s\n", err);
	for (i = 0; i < NSIGS; i++)
		sigaction(g_sigs[i], &g_old[i], NULL);
	g_armed = 0;
}
