/* SPDX-License-Identifier: BSD-2-Clause */
/* The schedule's record, STATE/schedule.state, in a directory held open
 * (steps.h): root reads it back to decide which firmware variables to undo,
 * so the directory must be root's alone and nothing in it is reached
 * through a link. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tools/commands.h"
#include "tools/lib/private_dir.h"
#include "tools/schedule/steps.h"

#define STATE_FILE "schedule.state"
#define STATE_TMP STATE_FILE ".new"
#define STATE_HEAD "# what `tickprobe schedule` did; `tickprobe schedule --cancel` undoes it\n"

void state_put(struct sched_record *r, const char *key, const char *fmt, ...)
{
	va_list ap;
	if (r->n >= sizeof r->text)
		return;
	r->n += (size_t)snprintf(r->text + r->n, sizeof r->text - r->n, "%s=", key);
	va_start(ap, fmt);
	if (r->n < sizeof r->text)
		r->n += (size_t)vsnprintf(r->text + r->n, sizeof r->text - r->n, fmt, ap);
	va_end(ap);
	if (r->n < sizeof r->text)
		r->n += (size_t)snprintf(r->text + r->n, sizeof r->text - r->n, "\n");
}

bool record_get(const struct sched_record *r, const char *key, char *out, size_t cap)
{
	size_t kl = strlen(key), at = 0;

	out[0] = 0;
	while (at < r->n) {
		const char *line = r->text + at, *nl = memchr(line, '\n', r->n - at);
		size_t len = nl ? (size_t)(nl - line) : r->n - at;
		if (len > kl && !strncmp(line, key, kl) && line[kl] == '=') {
			snprintf(out, cap, "%.*s", (int)(len - kl - 1), line + kl + 1);
			return true;
		}
		at += len + 1;
	}
	return false;
}

/* A final component that is a link is followed only when it is this
 * user's, in a directory only this user can write (an administrator's
 * link to another disk), never one another user could have made. */
static bool link_ok(const char *path, char *why, size_t cap)
{
	struct stat st;
	char what[PATH_MAX + 40];

	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
		return true;
	if (st.st_uid != geteuid()) {
		snprintf(why, cap, "--state-dir %s is a symbolic link of user %u's: not followed", path,
			 (unsigned)st.st_uid);
		return false;
	}
	snprintf(what, sizeof what, "the directory of the link --state-dir %s", path);
	return private_dir_of(path, what, why, cap);
}

int schedule_state_dir(const struct schedule *s, bool create, char *why, size_t cap)
{
	char what[PATH_MAX + 20];
	struct stat st;
	int fd;

	snprintf(what, sizeof what, "--state-dir %s", s->state_dir);
	if (create && mkdir(s->state_dir, 0755) != 0 && errno != EEXIST) {
		snprintf(why, cap, "cannot make %s: %s", s->state_dir, strerror(errno));
		return -1;
	}
	if (!link_ok(s->state_dir, why, cap))
		return -1;
	fd = open(s->state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && !create)
		return -2;
	if (fd < 0) {
		snprintf(why, cap, "cannot open %s: %s", s->state_dir, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !private_dir_ok(&st, what, why, cap)) {
		close(fd);
		return -1;
	}
	return fd;
}

int state_load(const struct schedule *s, struct sched_record *r)
{
	char why[PATH_MAX + 300];
	struct stat st;
	int dir = schedule_state_dir(s, false, why, sizeof why), fd;
	ssize_t got;

	r->n = 0;
	if (dir == -2)
		return 0;
	if (dir < 0) {
		fprintf(stderr, "tickprobe schedule: %s\n", why);
		return -1;
	}
	fd = openat(dir, STATE_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	close(dir);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size >= (off_t)sizeof r->text) {
		fprintf(stderr, "tickprobe schedule: %s/" STATE_FILE ": %s\n", s->state_dir,
			fd < 0 ? strerror(errno) : "not a record schedule wrote (not a plain file, or too long)");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	got = read(fd, r->text, sizeof r->text - 1);
	close(fd);
	if (got < 0) {
		fprintf(stderr, "tickprobe schedule: %s/" STATE_FILE ": %s\n", s->state_dir, strerror(errno));
		return -1;
	}
	r->n = (size_t)got;
	r->text[r->n] = 0;
	return 1;
}

int state_write(const struct schedule *s, const struct sched_record *r)
{
	char why[PATH_MAX + 300];
	int dir, fd, e = 0;
	size_t hl = strlen(STATE_HEAD);

	step(s, "record what is to be done in %s/" STATE_FILE ", before any of it", s->state_dir);
	if (s->dry_run)
		return 0;
	if ((dir = schedule_state_dir(s, true, why, sizeof why)) < 0) {
		fprintf(stderr, "tickprobe schedule: %s; nothing was changed\n", why);
		return EXIT_UNREADABLE;
	}
	unlinkat(dir, STATE_TMP, 0);
	fd = openat(dir, STATE_TMP, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		e = errno;
	else if (write(fd, STATE_HEAD, hl) != (ssize_t)hl || write(fd, r->text, r->n) != (ssize_t)r->n || fsync(fd) != 0)
		e = errno ? errno : EIO;
	if (fd >= 0 && close(fd) != 0 && !e)
		e = errno;
	if (!e && (renameat(dir, STATE_TMP, dir, STATE_FILE) != 0 || fsync(dir) != 0))
		e = errno;
	if (e) {
		unlinkat(dir, STATE_TMP, 0);
		fprintf(stderr, "tickprobe schedule: cannot write %s/" STATE_FILE ": %s; nothing was changed\n",
			s->state_dir, strerror(e));
	}
	close(dir);
	return e ? EXIT_UNREADABLE : 0;
}

int state_remove(const struct schedule *s)
{
	char why[PATH_MAX + 300];
	struct stat st;
	int dir = schedule_state_dir(s, false, why, sizeof why), rc = 0;

	if (dir == -2)
		return 0;
	if (dir < 0) {
		fprintf(stderr, "tickprobe schedule: %s\n", why);
		return EXIT_UNREADABLE;
	}
	if (fstatat(dir, STATE_FILE, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		close(dir);
		return 0;
	}
	step(s, "remove %s/" STATE_FILE, s->state_dir);
	if (!s->dry_run && unlinkat(dir, STATE_FILE, 0) != 0 && errno != ENOENT) {
		fprintf(stderr, "tickprobe schedule: cannot remove %s/" STATE_FILE ": %s\n", s->state_dir, strerror(errno));
		rc = EXIT_UNREADABLE;
	}
	close(dir);
	return rc;
}
