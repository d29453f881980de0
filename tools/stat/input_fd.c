/* SPDX-License-Identifier: BSD-2-Clause */
/* `tickprobe stat` input from a file descriptor (tools/stat/input.h), read
 * through one 256 KB buffer, which stays in the L2 cache while it is parsed.
 * Mapping the file instead, with MAP_POPULATE or without, took more CPU than
 * read(2) when a 14 MB input was timed both ways. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tools/stat/input.h"

static int feed_read(struct stat_input *in, int fd)
{
	size_t cap = 256 * 1024, have = 0, used;
	char *buf = malloc(cap + 1), *nb;
	int rc = STAT_INPUT_OK;
	ssize_t r;

	if (!buf)
		return STAT_INPUT_NOMEM;
	for (;;) {
		if (have == cap) { /* one line fills the buffer: make room for more of it */
			if (!(nb = realloc(buf, cap * 2 + 1))) {
				rc = STAT_INPUT_NOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + have, cap - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = STAT_INPUT_READ;
			break;
		}
		have += (size_t)r;
		rc = stat_input_feed(in, buf, have, r == 0, &used);
		if (rc != STAT_INPUT_OK || r == 0)
			break;
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	free(buf);
	return rc;
}

int stat_input_fd(struct stat_input *in, int fd)
{
	int rc = feed_read(in, fd);

	if (rc != STAT_INPUT_OK) { /* nothing more will be read */
		free(in->seen);
		in->seen = NULL;
	}
	return rc == STAT_INPUT_OK ? stat_input_finish(in) : rc;
}
