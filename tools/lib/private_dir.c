/* SPDX-License-Identifier: BSD-2-Clause */
/* Directories only this user can write (private_dir.h). */
#include "tools/lib/private_dir.h"
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool private_dir_ok(const struct stat *st, const char *what, char *why, size_t cap)
{
	if (!S_ISDIR(st->st_mode)) {
		snprintf(why, cap, "%s is not a directory", what);
		return false;
	}
	if (st->st_uid != geteuid()) {
		snprintf(why, cap, "%s belongs to user %u, not to this program's user %u: another user could "
			 "replace what it holds", what, (unsigned)st->st_uid, (unsigned)geteuid());
		return false;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, cap, "%s can be written by other users (mode %04o): they could replace what it "
			 "holds (chmod go-w it, or choose a directory only this user can write)", what,
			 (unsigned)(st->st_mode & 07777));
		return false;
	}
	return true;
}

int private_dir_open(int at, const char *name, bool create, const char *what, char *why, size_t cap)
{
	struct stat st;
	int fd, e;

	if (create && mkdirat(at, name, 0755) != 0 && errno != EEXIST) {
		e = errno;
		snprintf(why, cap, "cannot make %s: %s", what, strerror(e));
		errno = e;
		return -1;
	}
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		snprintf(why, cap, "cannot open %s: %s%s", what, strerror(e),
			 e == ELOOP || e == ENOTDIR ? " (not a directory, or a symbolic link, which is not followed)" : "");
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		e = errno;
		snprintf(why, cap, "%s: %s", what, strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	if (!private_dir_ok(&st, what, why, cap)) {
		close(fd);
		errno = EACCES;
		return -1;
	}
	return fd;
}

bool private_dir_of(const char *path, const char *what, char *why, size_t cap)
{
	char *copy = strdup(path);
	struct stat st;

	if (!copy) {
		snprintf(why, cap, "out of memory");
		return false;
	}
	if (stat(dirname(copy), &st)) {
		snprintf(why, cap, "%s: %s", what, strerror(errno));
		free(copy);
		return false;
	}
	free(copy);
	return private_dir_ok(&st, what, why, cap);
}
