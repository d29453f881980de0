/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading a small file or pipe whole: up to cap bytes, through short reads
 * and EINTR, stopping at the end. */
#ifndef TOOLS_LIB_FDREAD_H
#define TOOLS_LIB_FDREAD_H

#include <stddef.h>
#include <sys/types.h>

/* The bytes read into buf (at most cap; fewer at the end of the file), or -1
 * with errno set when a read failed. */
ssize_t fd_read_upto(int fd, void *buf, size_t cap);

#endif
