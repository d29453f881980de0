/* SPDX-License-Identifier: BSD-2-Clause */
#include "tools/lib/fdread.h"
#include <errno.h>
#include <unistd.h>

ssize_t fd_read_upto(int fd, void *buf, size_t cap)
{
	size_t got = 0;

	while (got < cap) {
		ssize_t r = read(fd, (char *)buf + got, cap - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}
