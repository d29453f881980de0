/* SPDX-License-Identifier: BSD-2-Clause */
/* --after-boot's logs (afterboot.h): which of the ESP's are new, a copy of
 * each in STATE/logs, each imported into STATE/fleet.db, and the list of
 * those done.  Every file is opened relative to a directory held open and
 * never through a link: this runs as root, at every boot. */
#define _GNU_SOURCE
#include "tools/schedule/afterboot.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tools/commands.h"
#include "tools/lib/db_import.h"
#include "tools/lib/db_store.h"
#include "tools/lib/logset.h"

#define SEEN_FILE "collected"
#define SEEN_MAX (1u << 20) /* bytes: a line a log, and the ESP holds a few hundred */

/* The names the probe gives its logs (NNNN.log), and any like them: no
 * leading dot, no character that a line of the seen list or a terminal
 * would take for something else. */
static bool log_name(const char *name)
{
	size_t n = strlen(name);

	if (n <= 4 || n > 200 || name[0] == '.' || strcmp(name + n - 4, ".log"))
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '-'))
			return false;
	}
	return true;
}

/* The seen list, whole (it is small: SEEN_MAX), NUL-terminated; NULL when
 * there is none. */
static char *seen_list(int state_fd)
{
	struct stat st;
	char *text;
	ssize_t got;
	int fd = state_fd < 0 ? -1 : openat(state_fd, SEEN_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > SEEN_MAX || !(text = malloc(SEEN_MAX + 1))) {
		close(fd);
		return NULL;
	}
	got = read(fd, text, SEEN_MAX);
	close(fd);
	text[got > 0 ? got : 0] = 0;
	return text;
}

/* "NAME SIZE" is a line of the list: that log, at that size, was imported. */
static bool seen(const char *list, const char *name, long long size)
{
	char want[300];

	if (!list)
		return false;
	snprintf(want, sizeof want, "%s %lld\n", name, size);
	for (const char *p = list; (p = strstr(p, want)); p++)
		if (p == list || p[-1] == '\n')
			return true;
	return false;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

size_t ab_new_logs(int esp_fd, int state_fd, struct loglist *out, size_t *odd)
{
	char *list = seen_list(state_fd);
	int fd = dup(esp_fd);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;
	struct stat st;

	*odd = 0;
	if (!d) {
		if (fd >= 0)
			close(fd);
		free(list);
		return 0;
	}
	rewinddir(d);
	/* cppcheck-suppress readdirCalled ; one thread reads this directory */
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!log_name(e->d_name)) {
			*odd += strlen(e->d_name) > 4 && !strcmp(e->d_name + strlen(e->d_name) - 4, ".log");
			continue;
		}
		if (fstatat(esp_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		    !seen(list, e->d_name, (long long)st.st_size))
			loglist_push(out, e->d_name);
	}
	closedir(d);
	free(list);
	if (out->n)
		qsort(out->paths, out->n, sizeof *out->paths, by_name);
	return out->n;
}

bool ab_copy(int in, int out)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(in, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return false;
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(out, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return false;
			done += w;
		}
	}
	return true;
}

/* A copy of the log (open as in) in STATE/logs, for users other than root:
 * a Debian ESP is mounted umask=0077.  Written beside, then renamed over. */
static void copy_log(int in, int logs_fd, const char *name)
{
	char tmp[NAME_MAX + 8];
	bool ok;
	int out;

	snprintf(tmp, sizeof tmp, "%s.new", name);
	unlinkat(logs_fd, tmp, 0);
	out = openat(logs_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	ok = out >= 0 && lseek(in, 0, SEEK_SET) == 0 && ab_copy(in, out);
	if (out >= 0 && close(out) != 0)
		ok = false;
	if (ok && renameat(logs_fd, tmp, logs_fd, name) == 0)
		return;
	unlinkat(logs_fd, tmp, 0);
	fprintf(stderr, "tickprobe schedule --after-boot: cannot copy %s to the state's logs/: %s\n", name,
		strerror(errno ? errno : EIO));
}

/* That the log was taken, at its size, so that the next run passes it by. */
static void mark_seen(int state_fd, const char *name, long long size)
{
	char line[300];
	int n = snprintf(line, sizeof line, "%s %lld\n", name, size);
	int fd = openat(state_fd, SEEN_FILE, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, line, (size_t)n) != n)
		fprintf(stderr, "tickprobe schedule --after-boot: cannot add %s to %s: %s\n", name, SEEN_FILE,
			strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* One log imported.  true when it is done with: in the store, or not a log
 * the store can ever take (said); false when the store failed (said), so
 * that the next run tries again. */
static bool import_one(struct importer *im, int fd, const char *path, size_t *stored)
{
	struct import_totals t = { 0 };
	struct logfile lf;
	char why[600] = "";
	int rc = importer_stream(im, fd, path, &lf, &t, why, sizeof why);

	if (rc != EXIT_UNREADABLE && !importer_finish(im, why, sizeof why))
		rc = EXIT_UNREADABLE;
	if (rc == EXIT_UNREADABLE && !why[0]) {
		fprintf(stderr, "tickprobe schedule --after-boot: %s is no log the store can take (%s): left out\n", path,
			lf.why);
		logfile_free(&lf);
		return true;
	}
	logfile_free(&lf);
	if (rc == EXIT_UNREADABLE) {
		fprintf(stderr, "tickprobe schedule --after-boot: %s was not imported: %s; it is tried again at the next "
				"run\n", path, why);
		return false;
	}
	++*stored;
	return true;
}

int ab_take_logs(const struct ab_dirs *d, const struct loglist *logs)
{
	struct import_options o = { .batch = 1, .quiet = true };
	char path[PATH_MAX + 300], why[PATH_MAX + 300];
	struct importer *im = NULL;
	size_t stored = 0, failed = 0;
	struct store st;
	struct stat fs;
	bool has_store = store_open_private(&st, d->db_open, why, sizeof why) == EXIT_CLEAN;

	if (!has_store)
		fprintf(stderr, "tickprobe schedule --after-boot: %s; the logs are tried again at the next run\n", why);
	else if (!(im = importer_new(&st, &o)))
		fprintf(stderr, "tickprobe schedule --after-boot: out of memory\n");
	for (size_t i = 0; i < logs->n; i++) {
		const char *name = logs->paths[i];
		int fd = openat(d->esp_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0 || fstat(fd, &fs) != 0 || !S_ISREG(fs.st_mode)) {
			fprintf(stderr, "tickprobe schedule --after-boot: cannot read %s/%s\n", d->esp_logs, name);
			failed++;
		} else {
			snprintf(path, sizeof path, "%s/%s", d->esp_logs, name);
			copy_log(fd, d->logs_fd, name);
			if (im && lseek(fd, 0, SEEK_SET) == 0 && import_one(im, fd, path, &stored))
				mark_seen(d->state_fd, name, (long long)fs.st_size);
			else
				failed++;
		}
		if (fd >= 0)
			close(fd);
	}
	if (im)
		importer_free(im);
	if (has_store)
		store_close(&st);
	printf("tickprobe schedule --after-boot: %zu new log%s imported into %s%s\n", stored, stored == 1 ? "" : "s",
	       d->db, failed ? " (the others are tried again at the next run: see above)" : "");
	return failed ? EXIT_UNREADABLE : 0;
}
