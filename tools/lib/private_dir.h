/* SPDX-License-Identifier: BSD-2-Clause */
/* Whether a directory is safe for a program that may run as root to write
 * in: owned by the program's user and writable by nobody else, so that no
 * other user can swap what it holds for a link to a file elsewhere. */
#ifndef TOOLS_LIB_PRIVATE_DIR_H
#define TOOLS_LIB_PRIVATE_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* st: the directory's (fstat of a descriptor held, or lstat); what names it
 * in the reason written to why when it is not safe. */
bool private_dir_ok(const struct stat *st, const char *what, char *why, size_t cap);

/* name under the directory at (AT_FDCWD: a path), made (0755) first when
 * create is set, opened without following a link, and held only when it is
 * private_dir_ok: its descriptor, or -1 with why written (and errno the
 * open's: ENOENT when it is missing, EACCES when it is not private). */
int private_dir_open(int at, const char *name, bool create, const char *what, char *why, size_t cap);

/* The same for the directory a file is in (path's dirname, not following a
 * final symbolic link). */
bool private_dir_of(const char *path, const char *what, char *why, size_t cap);

#endif
