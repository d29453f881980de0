/* SPDX-License-Identifier: BSD-2-Clause */
/* The switch lock and the restore record (tools/os/cs_run.h). */
#define _GNU_SOURCE
#include "tools/os/cs_run.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "tools/lib/fdread.h"
#include "tools/lib/private_dir.h"

#define RECORD_HEADER "tickprobe clocksource restore record 1"
#define RECORD_TMP OS_CS_RECORD ".new"
#define LOCK_POLL_NS 100000000L /* a waiter looks again every 0.1 s */

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void path_under(const char *root, const char *rest, char *out, size_t cap)
{
	size_t rl;

	if (!root || !*root)
		root = "/";
	rl = strlen(root);
	snprintf(out, cap, "%s%s%s", root, root[rl - 1] == '/' ? "" : "/", rest);
}

int os_run_open(const char *root, bool create, struct os_cs_run *r, char *why, size_t cap)
{
	char run_path[OS_CS_PATH + 8];
	const char *top = root && *root ? root : "/";
	int root_fd, run_fd;

	r->dir_fd = -1;
	r->lock_fd = -1;
	path_under(top, OS_RUN_DIR, r->dir, sizeof r->dir);
	path_under(top, "run", run_path, sizeof run_path);
	/* The root itself is the caller's choice ("/", or a test's tree). */
	root_fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root_fd < 0) {
		snprintf(why, cap, "cannot open %s: %s", top, strerror(errno));
		return -1;
	}
	run_fd = private_dir_open(root_fd, "run", create, run_path, why, cap);
	close(root_fd);
	if (run_fd >= 0) {
		r->dir_fd = private_dir_open(run_fd, "tickprobe", create, r->dir, why, cap);
		close(run_fd);
	}
	if (r->dir_fd >= 0)
		return 0;
	/* Missing and not to be made: nothing to hold. */
	return errno == ENOENT && !create ? 1 : -1;
}

/* The process id the lock file holds: its holder's, or 0 when unknown. */
static long lock_holder(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	char *end;
	long pid;

	if (n <= 0)
		return 0;
	buf[n] = 0;
	pid = strtol(buf, &end, 10);
	return end != buf && (*end == '\n' || !*end) && pid > 0 ? pid : 0;
}

static void say_holder(long pid, char *out, size_t cap)
{
	if (pid)
		snprintf(out, cap, "process %ld", pid);
	else
		snprintf(out, cap, "another process");
}

/* 0 when the lock is ours before the deadline; -1 with why. */
static int wait_for_lock(struct os_cs_run *r, int fd, double wait_s, char *why, size_t cap)
{
	double start = now_s();
	bool said = false;
	char who[40];

	while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		double left = start + wait_s - now_s();
		struct timespec nap = { 0, LOCK_POLL_NS };
		if (errno != EWOULDBLOCK && errno != EINTR) {
			snprintf(why, cap, "cannot lock %s/" OS_CS_LOCK ": %s", r->dir, strerror(errno));
			return -1;
		}
		say_holder(lock_holder(fd), who, sizeof who);
		if (left <= 0) {
			snprintf(why, cap, "%s is switching clocksources (it holds %s/" OS_CS_LOCK "); gave up after "
				 "%g s (--lock-wait SECONDS waits longer): two switchers at once would leave the wrong "
				 "clocksource", who, r->dir, wait_s);
			return -1;
		}
		if (!said)
			fprintf(stderr, "tickprobe os: %s is switching clocksources (%s/" OS_CS_LOCK "): waiting up to "
				"%g s for it to finish\n", who, r->dir, wait_s);
		said = true;
		if (left < 0.1)
			nap.tv_nsec = (long)(left * 1e9);
		nanosleep(&nap, NULL);
	}
	return 0;
}

int os_run_lock(struct os_cs_run *r, double wait_s, char *why, size_t cap)
{
	char pid[24];
	struct stat st;
	int n, fd;

	/* 0600: a shared lock by another user would hold every switcher off. */
	fd = openat(r->dir_fd, OS_CS_LOCK, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(why, cap, "cannot open %s/" OS_CS_LOCK ": %s", r->dir, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		snprintf(why, cap, "%s/" OS_CS_LOCK " is not a file of this user's", r->dir);
		close(fd);
		return -1;
	}
	if (wait_for_lock(r, fd, wait_s, why, cap) != 0) {
		close(fd);
		return -1;
	}
	n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
		/* Only the waiters' message loses the holder's id. */
		fprintf(stderr, "tickprobe os: note: cannot write this process's id to %s/" OS_CS_LOCK ": %s\n",
			r->dir, strerror(errno));
	}
	r->lock_fd = fd;
	return 0;
}

void os_run_close(struct os_cs_run *r)
{
	if (r->lock_fd >= 0)
		close(r->lock_fd);
	if (r->dir_fd >= 0)
		close(r->dir_fd);
	r->lock_fd = -1;
	r->dir_fd = -1;
}

size_t os_cs_record_format(const struct os_cs_record *rec, char *out, size_t cap)
{
	int n = snprintf(out, cap, RECORD_HEADER "\npid %ld\noriginal %s\n", rec->pid, rec->original);

	return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
	       c == '.';
}

/* One "key value" line's value: a pid or a clocksource name. */
static bool parse_field(const char *line, size_t n, struct os_cs_record *rec, unsigned *seen, char *why, size_t cap)
{
	if (n > 4 && !memcmp(line, "pid ", 4) && !(*seen & 1)) {
		long pid = 0;
		for (size_t i = 4; i < n; i++) {
			if (line[i] < '0' || line[i] > '9' || pid > 99999999) {
				snprintf(why, cap, "a bad pid line");
				return false;
			}
			pid = pid * 10 + (line[i] - '0');
		}
		rec->pid = pid;
		*seen |= 1;
		if (pid > 0)
			return true;
		snprintf(why, cap, "pid 0");
		return false;
	}
	if (n > 9 && !memcmp(line, "original ", 9) && !(*seen & 2)) {
		size_t len = n - 9;
		if (len >= OS_CS_NAME) {
			snprintf(why, cap, "the original's name is too long");
			return false;
		}
		for (size_t i = 9; i < n; i++)
			if (!name_char(line[i])) {
				snprintf(why, cap, "the original's name holds a character no clocksource has");
				return false;
			}
		memcpy(rec->original, line + 9, len);
		rec->original[len] = 0;
		*seen |= 2;
		return true;
	}
	snprintf(why, cap, "an unexpected line '%.*s'", (int)(n > 40 ? 40 : n), line);
	for (char *p = strchr(why, '\''); p && *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
	return false;
}

bool os_cs_record_parse(const char *text, size_t n, struct os_cs_record *rec, char *why, size_t cap)
{
	size_t hl = strlen(RECORD_HEADER), at;
	unsigned seen = 0;

	memset(rec, 0, sizeof *rec);
	if (n < hl + 1 || memcmp(text, RECORD_HEADER, hl) || text[hl] != '\n') {
		snprintf(why, cap, "not a restore record (its first line is not '" RECORD_HEADER "')");
		return false;
	}
	at = hl + 1;
	while (at < n) {
		const char *nl = memchr(text + at, '\n', n - at);
		if (!nl) {
			snprintf(why, cap, "its last line is cut short");
			return false;
		}
		if (!parse_field(text + at, (size_t)(nl - text) - at, rec, &seen, why, cap))
			return false;
		at = (size_t)(nl - text) + 1;
	}
	if (seen != 3) {
		snprintf(why, cap, "it lacks its %s line", seen & 1 ? "original" : "pid");
		return false;
	}
	return true;
}

int os_cs_record_read(int dir_fd, struct os_cs_record *rec, char *why, size_t cap)
{
	char buf[OS_CS_RECORD_MAX + 1], what[160];
	ssize_t got;
	struct stat st;
	int fd = openat(dir_fd, OS_CS_RECORD, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, cap, "%s", fd < 0 ? strerror(errno) : "not a plain file");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	got = fd_read_upto(fd, buf, sizeof buf);
	close(fd);
	if (got < 0) {
		snprintf(why, cap, "%s", strerror(errno));
		return -1;
	}
	if (got > OS_CS_RECORD_MAX) {
		snprintf(why, cap, "longer than a record can be (%d bytes)", OS_CS_RECORD_MAX);
		return -1;
	}
	if (!os_cs_record_parse(buf, (size_t)got, rec, what, sizeof what)) {
		snprintf(why, cap, "%s", what);
		return -1;
	}
	return 1;
}

static bool write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		s += w;
		n -= (size_t)w;
	}
	return true;
}

int os_cs_record_write(int dir_fd, const char *original, char *why, size_t cap)
{
	struct os_cs_record rec = { .pid = (long)getpid() };
	char text[OS_CS_RECORD_MAX];
	size_t n;
	int fd, e;

	snprintf(rec.original, sizeof rec.original, "%s", original);
	n = os_cs_record_format(&rec, text, sizeof text);
	if (!n) {
		snprintf(why, cap, "the restore record does not fit");
		return -1;
	}
	unlinkat(dir_fd, RECORD_TMP, 0); /* a killed writer's; the lock is ours */
	fd = openat(dir_fd, RECORD_TMP, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(why, cap, "cannot write the restore record " RECORD_TMP ": %s", strerror(errno));
		return -1;
	}
	e = write_all(fd, text, n) && fsync(fd) == 0 ? 0 : (errno ? errno : EIO);
	if (close(fd) != 0 && !e)
		e = errno;
	if (!e && renameat(dir_fd, RECORD_TMP, dir_fd, OS_CS_RECORD) != 0)
		e = errno;
	if (e) {
		unlinkat(dir_fd, RECORD_TMP, 0);
		snprintf(why, cap, "cannot write the restore record " OS_CS_RECORD ": %s", strerror(e));
		return -1;
	}
	if (fsync(dir_fd) != 0) {
		snprintf(why, cap, "cannot make the restore record durable (fsync of its directory): %s", strerror(errno));
		unlinkat(dir_fd, OS_CS_RECORD, 0);
		return -1;
	}
	return 0;
}

void os_run_peek(const char *root, char *note, size_t cap)
{
	char dir[OS_CS_PATH + 32], why[200];
	struct os_cs_record rec;
	int fd, found;

	note[0] = 0;
	path_under(root, OS_RUN_DIR, dir, sizeof dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	found = os_cs_record_read(fd, &rec, why, sizeof why);
	close(fd);
	if (found < 0)
		snprintf(note, cap, "%s/" OS_CS_RECORD " cannot be used (%s): the clocksource in use may not be the "
			 "system's own", dir, why);
	else if (found && (kill((pid_t)rec.pid, 0) == 0 || errno == EPERM))
		snprintf(note, cap, "process %ld is switching clocksources right now (%s/" OS_CS_RECORD "): the "
			 "clocksource in use is its choice, and '%s' comes back when it ends", rec.pid, dir, rec.original);
	else if (found)
		snprintf(note, cap, "process %ld switched the clocksource and ended without putting '%s' back (%s/"
			 OS_CS_RECORD "): the clocksource in use is not the system's own; `sudo tickprobe os "
			 "--restore` puts it back", rec.pid, rec.original, dir);
}
