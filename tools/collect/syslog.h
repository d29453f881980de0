/* SPDX-License-Identifier: BSD-2-Clause */
/* The syslog transport of tickprobe collect: RFC 5424 over UDP, one record
 * a datagram (the format: tools/collect/syslog.c).  A datagram that is not
 * one, with a wrong token, or whose record fails its check is dropped and
 * counted (UDP has no answer to give). */
#ifndef TOOLS_COLLECT_SYSLOG_H
#define TOOLS_COLLECT_SYSLOG_H

#include <stddef.h>
#include "tools/collect/collect.h"

struct boots;
struct syslog_rx;

/* Receives on fd (a bound UDP socket, closed at the stop) on a thread of
 * its own; NULL with why when the thread cannot start. */
struct syslog_rx *syslog_start(int fd, const struct collect_options *o, struct boots *boots,
			       struct collect_counts *counts, char *why, size_t cap);
void syslog_stop(struct syslog_rx *s);

#endif
