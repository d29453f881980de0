/* SPDX-License-Identifier: BSD-2-Clause */
/* What a receiving thread hands every request (request.h) and every
 * datagram (datagram.h) to: the options, the per-boot table, the counts and
 * the thread's own scratch for the record check.  What a request or a
 * datagram gets is decided there, apart from the sockets, the threads and
 * libmicrohttpd (http.c, syslog.c), so that the fuzz harness
 * (tests/fuzz/fuzz_collect.c) drives the very functions the server calls. */
#ifndef TOOLS_COLLECT_INTAKE_H
#define TOOLS_COLLECT_INTAKE_H

#include "tools/collect/collect.h"
#include "tools/collect/record.h"

struct boots;

struct intake {
	const struct collect_options *o;
	struct boots *boots;
	struct collect_counts *counts;
	struct record_check rc; /* the receiving thread's alone */
};

#endif
