/* SPDX-License-Identifier: BSD-2-Clause */
/* What one syslog datagram gets (the format: datagram.c), with no socket
 * or thread in sight: syslog.c hands each datagram here.  Its fields are
 * parsed and checked whole (sender_check, tools/collect/sender.h) before
 * its record is looked at, and nothing reaches the per-boot table before
 * they passed.  UDP has no answer: what is turned away is counted. */
#ifndef TOOLS_COLLECT_DATAGRAM_H
#define TOOLS_COLLECT_DATAGRAM_H

#include <stddef.h>
#include <stdint.h>
#include "tools/collect/intake.h"

enum datagram_verdict {
	DATAGRAM_TAKEN,   /* stored, held until the gap before it fills, or a copy dropped */
	DATAGRAM_BAD,     /* not one of ours, a bad field or record, or refused by the table as wrong */
	DATAGRAM_REFUSED, /* a wrong or missing token */
	DATAGRAM_BUSY,    /* a bound of the table: the sender's second pass brings it again */
	DATAGRAM_DROPPED, /* its boot's log is cut at --max-log-bytes, or cannot be written */
};

/* buf[0..n) (edited in place); source: the sender's IPv4 address, network
 * order; now: the monotonic clock.  Returns the verdict, counted. */
int datagram_take(struct intake *in, char *buf, size_t n, uint32_t source, double now);

#endif
