/* SPDX-License-Identifier: BSD-2-Clause */
/* Who sends a request or a datagram, as its headers or its syslog fields
 * claim: the machine, the boot, the token, whether it is a hello, and the
 * address the bytes came from.  Every transport hands what it read to
 * sender_check, once, before anything else looks at it; the per-boot table
 * takes records only with a checked struct sender, so no path reaches it with
 * a field missing or unchecked. */
#ifndef TOOLS_COLLECT_SENDER_H
#define TOOLS_COLLECT_SENDER_H

#include <stdbool.h>
#include <stdint.h>
#include "tools/collect/boots.h"
#include "tools/collect/collect.h"

struct sender {
	char machine[BOOTS_MACHINE_MAX + 1]; /* [A-Za-z0-9._-], not starting with a dot */
	char boot[BOOTS_ID_MAX + 1];         /* the same */
	uint32_t source;                     /* the IPv4 address, network order (0: unknown) */
	bool hello;                          /* asks whether it would be taken; no records */
};

enum sender_verdict {
	SENDER_OK,
	SENDER_BAD,     /* a field missing or malformed: 400, or a bad datagram */
	SENDER_REFUSED, /* the token is wrong or missing: 403, or a refused datagram */
};

/* The fields as read (NULL: absent).  SENDER_OK with *s filled, or the
 * verdict with why (a constant string). */
int sender_check(const struct collect_options *o, const char *machine, const char *boot, const char *token,
		 bool hello, uint32_t source, struct sender *s, const char **why);

#endif
