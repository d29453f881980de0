/* SPDX-License-Identifier: BSD-2-Clause */
/* Log operands and the places cable-less runs leave their logs (logdir.h). */
#define _GNU_SOURCE /* realpath, getline */
#include "tools/lib/logdir.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tools/lib/exit_codes.h"
#include "tools/lib/logset.h"
#include "tools/lib/textsafe.h"

#define MAX_DEPTH 16 /* a directory loop (a bind mount) must not recurse for ever */

void loglist_push(struct loglist *l, const char *path)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 32;
		l->paths = realloc(l->paths, l->cap * sizeof *l->paths);
		if (!l->paths) {
			fprintf(stderr, "tickprobe: out of memory\n");
			exit(EXIT_UNREADABLE);
		}
	}
	l->paths[l->n] = strdup(path);
	if (!l->paths[l->n]) {
		fprintf(stderr, "tickprobe: out of memory\n");
		exit(EXIT_UNREADABLE);
	}
	l->n++;
}

void loglist_free(struct loglist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	memset(l, 0, sizeof *l);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool is_log_name(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && name[0] != '.' && !strcmp(name + n - 4, ".log");
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "PROG: BEFORE PATH AFTER" on stderr, the path escaped: a name found in a
 * directory is text from outside. */
static void say_path(const char *prog, const char *before, const char *path, const char *after)
{
	fprintf(stderr, "%s: %s", prog, before);
	ts_puts(stderr, path);
	fputs(after, stderr);
}

/* Every *.log below dir, in name order, depth first. */
static int walk(struct loglist *out, const char *dir, int depth, const char *prog)
{
	struct loglist here = { 0 };
	struct dirent *e;
	DIR *d = opendir(dir);
	int status = EXIT_CLEAN;

	if (!d) {
		char why[160];
		snprintf(why, sizeof why, ": %s\n", strerror(errno));
		say_path(prog, "", dir, why);
		return EXIT_UNREADABLE;
	}
	while ((e = readdir(d))) {
		char path[PATH_MAX];
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (is_dir(path) ? depth < MAX_DEPTH : is_log_name(e->d_name))
			loglist_push(&here, path);
	}
	closedir(d);
	if (here.n)
		qsort(here.paths, here.n, sizeof *here.paths, by_name);
	for (size_t i = 0; i < here.n; i++) {
		if (is_dir(here.paths[i]))
			status = exit_worse(status, walk(out, here.paths[i], depth + 1, prog));
		else
			loglist_push(out, here.paths[i]);
	}
	loglist_free(&here);
	return status;
}

int loglist_expand(struct loglist *l, char *const *operands, size_t n, const char *prog)
{
	int status = EXIT_CLEAN;
	for (size_t i = 0; i < n; i++) {
		if (is_dir(operands[i])) {
			size_t before = l->n;
			status = exit_worse(status, walk(l, operands[i], 0, prog));
			if (l->n == before) {
				say_path(prog, "", operands[i], ": no *.log files in it\n");
				status = exit_worse(status, EXIT_UNREADABLE);
			}
		} else {
			loglist_push(l, operands[i]);
		}
	}
	return status;
}

/* /proc/mounts writes a space in a path as \040. */
static void unescape(char *s)
{
	char *o = s;
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' &&
		    s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
}

/* A USB stick or card: the block device (or the disk of a partition) says
 * removable, or sits on a USB bus. */
static bool removable(const char *dev)
{
	char sys[PATH_MAX], real[PATH_MAX], f[PATH_MAX + 16];
	const char *name = strrchr(dev, '/');
	FILE *r;

	if (strncmp(dev, "/dev/", 5) || !name)
		return false;
	snprintf(sys, sizeof sys, "/sys/class/block/%s", name + 1);
	if (!realpath(sys, real))
		return false;
	if (strstr(real, "/usb"))
		return true;
	for (int up = 0; up < 2; up++) {
		int c = '0';
		snprintf(f, sizeof f, "%s%s/removable", real, up ? "/.." : "");
		if ((r = fopen(f, "r"))) {
			c = fgetc(r);
			fclose(r);
		}
		if (c == '1')
			return true;
	}
	return false;
}

size_t logdirs_default(struct loglist *dirs)
{
	static const char *const esp[] = { "/boot/efi/tickprobe/logs", "/efi/tickprobe/logs", "/boot/tickprobe/logs" };
	size_t before = dirs->n, cap = 0;
	char *line = NULL;
	FILE *m;

	for (size_t i = 0; i < sizeof esp / sizeof esp[0]; i++)
		if (is_dir(esp[i]))
			loglist_push(dirs, esp[i]);
	if ((m = fopen("/proc/self/mounts", "r"))) {
		while (getline(&line, &cap, m) > 0) {
			char dev[PATH_MAX], dir[PATH_MAX], logs[PATH_MAX + 32];
			if (sscanf(line, "%4095s %4095s", dev, dir) != 2)
				continue;
			unescape(dev);
			unescape(dir);
			if (!removable(dev) && strncmp(dir, "/media/", 7) && strncmp(dir, "/run/media/", 11))
				continue;
			snprintf(logs, sizeof logs, "%s/tickprobe/logs", dir);
			if (is_dir(logs))
				loglist_push(dirs, logs);
		}
		free(line);
		fclose(m);
	}
	return dirs->n - before;
}

size_t logdirs_os(struct loglist *dirs)
{
	if (!is_dir(LOGDIR_OS))
		return 0;
	loglist_push(dirs, LOGDIR_OS);
	return 1;
}

/* NNNN.log: its number; -1 for any other name. */
static long log_number(const char *path)
{
	const char *b = strrchr(path, '/');
	char *end;
	long v;
	b = b ? b + 1 : path;
	if (*b < '0' || *b > '9')
		return -1;
	v = strtol(b, &end, 10);
	return !strcmp(end, ".log") ? v : -1;
}

/* os-NNNN.log: what `tickprobe schedule --after-boot` measured of the OS,
 * never the probe's newest log. */
static bool is_os_log(const char *path)
{
	const char *b = strrchr(path, '/');
	return !strncmp(b ? b + 1 : path, "os-", 3);
}

static double mtime_of(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec * 1e-9 : -1;
}

char *log_latest(char *const *dirs, size_t ndirs, const char *prog)
{
	struct loglist defaults = { 0 };
	char *best = NULL;
	double best_t = -2;

	if (!ndirs) {
		logdirs_default(&defaults);
		logdirs_os(&defaults);
		dirs = defaults.paths;
		ndirs = defaults.n;
		if (!ndirs)
			fprintf(stderr, "%s: --latest: no log directory here (/boot/efi/tickprobe/logs, or "
					"tickprobe/logs on a mounted stick); name one\n", prog);
	}
	for (size_t i = 0; i < ndirs; i++) {
		struct loglist l = { 0 };
		const char *pick = NULL;
		long top = -1;
		walk(&l, dirs[i], MAX_DEPTH, prog); /* this directory only */
		/* The image numbers its logs: within a directory the highest number
		 * is the newest, whatever the clock said when it was written. */
		for (size_t k = 0; k < l.n; k++)
			if (log_number(l.paths[k]) > top) {
				top = log_number(l.paths[k]);
				pick = l.paths[k];
			}
		if (!pick)
			for (size_t k = 0; k < l.n; k++)
				if (!is_os_log(l.paths[k]) && (!pick || mtime_of(l.paths[k]) > mtime_of(pick)))
					pick = l.paths[k];
		if (pick && mtime_of(pick) > best_t) {
			free(best);
			best = strdup(pick);
			best_t = mtime_of(pick);
		}
		loglist_free(&l);
	}
	if (!best && ndirs)
		say_path(prog, "--latest: no *.log in ", dirs[0], ndirs > 1 ? " and the others\n" : "\n");
	loglist_free(&defaults);
	return best;
}

/* The newest OS log of LOGDIR_OS, when it was written after bare. */
static void push_os_log(struct loglist *l, const char *bare, const char *prog)
{
	struct loglist os = { 0 };
	const char *pick = NULL;

	if (!is_dir(LOGDIR_OS))
		return;
	walk(&os, LOGDIR_OS, MAX_DEPTH, prog); /* this directory only */
	for (size_t k = 0; k < os.n; k++)
		if (is_os_log(os.paths[k]) && (!pick || mtime_of(os.paths[k]) > mtime_of(pick)))
			pick = os.paths[k];
	if (pick && mtime_of(pick) >= mtime_of(bare) && strcmp(pick, bare)) {
		say_path(prog, "--latest: ", pick, " (this system, measured after it)\n");
		loglist_push(l, pick);
	}
	loglist_free(&os);
}

int loglist_from_operands(struct loglist *l, char *const *operands, size_t n, bool latest, const char *prog)
{
	struct loglist dirs = { 0 }, files = { 0 };
	char *newest;
	int status;

	if (!latest)
		return loglist_expand(l, operands, n, prog);
	for (size_t i = 0; i < n; i++)
		loglist_push(is_dir(operands[i]) ? &dirs : &files, operands[i]);
	newest = log_latest(dirs.paths, dirs.n, prog);
	status = newest ? EXIT_CLEAN : EXIT_UNREADABLE;
	if (newest) {
		say_path(prog, "--latest: ", newest, "\n");
		loglist_push(l, newest);
		if (!n)
			push_os_log(l, newest, prog);
	}
	status = exit_worse(status, loglist_expand(l, files.paths, files.n, prog));
	free(newest);
	loglist_free(&dirs);
	loglist_free(&files);
	return status;
}
