/* SPDX-License-Identifier: BSD-2-Clause */
/* The log directory, held open (spool.h). */
#include "tools/collect/spool.h"
#include "tools/lib/private_dir.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LOG_NUMBER_MAX 9999999u

static bool make_parents(const char *path)
{
	size_t n = strlen(path);
	char *p = malloc(n + 1);
	bool ok = p != NULL;

	if (!p)
		return false;
	memcpy(p, path, n + 1);
	for (char *s = p + 1; ok && *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		ok = !mkdir(p, 0755) || errno == EEXIST;
		*s = '/';
	}
	ok = ok && (!mkdir(p, 0755) || errno == EEXIST);
	free(p);
	return ok;
}

int spool_open(const char *path, char *why, size_t cap)
{
	char what[300];

	snprintf(what, sizeof what, "--dir %s", path);
	if (!make_parents(path)) {
		snprintf(why, cap, "%s: %s", what, strerror(errno));
		return -1;
	}
	return private_dir_open(AT_FDCWD, path, false, what, why, cap);
}

int spool_machine(int dirfd, const char *machine, bool create, char *why, size_t cap)
{
	char what[120];

	snprintf(what, sizeof what, "the folder %s", machine);
	return private_dir_open(dirfd, machine, create, what, why, cap);
}

/* One past the highest NNNN.log in the folder. */
static unsigned next_number(int machine_fd)
{
	int fd = dup(machine_fd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	unsigned next = 0;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((e = readdir(d))) {
		char *end;
		unsigned long n = strtoul(e->d_name, &end, 10);
		if (end != e->d_name && e->d_name[0] != '-' && !strcmp(end, ".log") && n < LOG_NUMBER_MAX && n >= next)
			next = (unsigned)n + 1;
	}
	closedir(d);
	return next;
}

int spool_new_log(int machine_fd, char *name, size_t name_cap, char *why, size_t cap)
{
	int fd = -1;

	for (unsigned next = next_number(machine_fd); next <= LOG_NUMBER_MAX; next++) {
		snprintf(name, name_cap, "%04u.log", next);
		fd = openat(machine_fd, name, O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0)
		snprintf(why, cap, "%s: %s", name, strerror(errno));
	return fd;
}

int spool_reopen(int dirfd, const char *machine, const char *name, char *why, size_t cap)
{
	int mfd = spool_machine(dirfd, machine, false, why, cap), fd;
	struct stat st;

	if (mfd < 0)
		return -1;
	fd = openat(mfd, name, O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		snprintf(why, cap, "%s/%s: %s", machine, name, strerror(errno));
	else if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		snprintf(why, cap, "%s/%s: no longer this collector's log file", machine, name);
		close(fd);
		fd = -1;
	}
	close(mfd);
	return fd;
}
