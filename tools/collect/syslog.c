/* SPDX-License-Identifier: BSD-2-Clause */
/* The syslog transport (syslog.h): one thread, one UDP socket, one record
 * a datagram; what each datagram gets is datagram.c's. */
#include "tools/collect/syslog.h"
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include "tools/collect/datagram.h"
#include "tools/lib/progress.h"
#include "tools/lib/xalloc.h"

#define DATAGRAM_MAX 65536 /* UDP's own bound, over IPv4: 65507 bytes of payload */

struct syslog_rx {
	int fd;
	struct intake in; /* this thread's alone, but for the counts */
	pthread_t thread;
	atomic_bool stop;
	char buf[DATAGRAM_MAX + 1];
};

static void *run(void *arg)
{
	struct syslog_rx *s = arg;
	struct pollfd pfd = { .fd = s->fd, .events = POLLIN };

	while (!atomic_load(&s->stop)) {
		struct sockaddr_in from;
		socklen_t len = sizeof from;
		ssize_t n;
		if (poll(&pfd, 1, 200) <= 0) /* 200 ms: how long a stop waits */
			continue;
		memset(&from, 0, sizeof from);
		n = recvfrom(s->fd, s->buf, DATAGRAM_MAX, MSG_DONTWAIT, (struct sockaddr *)&from, &len);
		if (n > 0)
			datagram_take(&s->in, s->buf, (size_t)n, from.sin_family == AF_INET ? from.sin_addr.s_addr : 0,
				      progress_now());
	}
	return NULL;
}

struct syslog_rx *syslog_start(int fd, const struct collect_options *o, struct boots *boots,
			       struct collect_counts *counts, char *why, size_t cap)
{
	struct syslog_rx *s = xrealloc(NULL, sizeof *s);
	int err;

	memset(s, 0, sizeof *s);
	s->fd = fd;
	s->in.o = o;
	s->in.boots = boots;
	s->in.counts = counts;
	atomic_init(&s->stop, false);
	if ((err = pthread_create(&s->thread, NULL, run, s))) {
		snprintf(why, cap, "syslog thread: %s", strerror(err));
		free(s);
		return NULL;
	}
	return s;
}

void syslog_stop(struct syslog_rx *s)
{
	if (!s)
		return;
	atomic_store(&s->stop, true);
	pthread_join(s->thread, NULL);
	close(s->fd);
	record_check_free(&s->in.rc);
	free(s);
}
