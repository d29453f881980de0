/* SPDX-License-Identifier: BSD-2-Clause */
/* The sockets and the token (net.h, collect.h). */
#include "tools/collect/net.h"
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "tools/collect/collect.h"

#define LISTEN_BACKLOG 512 /* 200 senders connecting at once fit */
#define UDP_BUFFER (4 << 20) /* a burst of datagrams; the kernel caps it at net.core.rmem_max */

bool net_addr(const char *s, struct sockaddr_in *a)
{
	const char *colon = strrchr(s, ':');
	char host[INET_ADDRSTRLEN], *end;
	unsigned long port;

	if (!colon || colon == s || (size_t)(colon - s) >= sizeof host || !colon[1])
		return false;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = 0;
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (*end || errno || port > 65535 || colon[1] == '-' || colon[1] == '+')
		return false;
	memset(a, 0, sizeof *a);
	a->sin_family = AF_INET;
	a->sin_port = htons((uint16_t)port);
	return inet_pton(AF_INET, host, &a->sin_addr) == 1;
}

const char *net_name(const struct sockaddr_in *a, char *buf, size_t cap)
{
	char host[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
	snprintf(buf, cap, "%s:%u", host, (unsigned)ntohs(a->sin_port));
	return buf;
}

int net_listen(int type, struct sockaddr_in *a, char *why, size_t cap)
{
	int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0), one = 1, size = UDP_BUFFER;
	socklen_t len = sizeof *a;
	char name[32];

	if (fd < 0) {
		snprintf(why, cap, "socket: %s", strerror(errno));
		return -1;
	}
	if (type == SOCK_STREAM)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one); /* a restart within TIME_WAIT */
	else
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
	net_name(a, name, sizeof name);
	if (bind(fd, (const struct sockaddr *)a, sizeof *a) || (type == SOCK_STREAM && listen(fd, LISTEN_BACKLOG)) ||
	    getsockname(fd, (struct sockaddr *)a, &len)) {
		snprintf(why, cap, "cannot listen on %s (%s): %s%s", name, type == SOCK_STREAM ? "TCP" : "UDP",
			 strerror(errno), errno == EADDRINUSE ? " (another collector, or another program, has it)" : "");
		close(fd);
		return -1;
	}
	return fd;
}

bool collect_token_ok(const struct collect_options *o, const char *given)
{
	size_t n, k;
	unsigned diff = 0;

	if (!o->token)
		return true;
	if (!given)
		return false;
	n = strlen(o->token);
	if (strlen(given) != n)
		return false;
	for (k = 0; k < n; k++)
		diff |= (unsigned char)(o->token[k] ^ given[k]);
	return diff == 0;
}
