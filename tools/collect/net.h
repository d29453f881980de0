/* SPDX-License-Identifier: BSD-2-Clause */
/* The collector's sockets: an ADDR:PORT read (an IPv4 literal, as the
 * probe's firmware path has no DNS), bound with a message that says why it
 * could not be. */
#ifndef TOOLS_COLLECT_NET_H
#define TOOLS_COLLECT_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <netinet/in.h>

/* "127.0.0.1:8514" (PORT 0: the kernel picks one).  false when it is not. */
bool net_addr(const char *s, struct sockaddr_in *a);
/* A socket of type SOCK_STREAM (listening) or SOCK_DGRAM bound to a, its
 * port then read back into a; -1 with why. */
int net_listen(int type, struct sockaddr_in *a, char *why, size_t cap);
/* "127.0.0.1:8514" */
const char *net_name(const struct sockaddr_in *a, char *buf, size_t cap);

#endif
