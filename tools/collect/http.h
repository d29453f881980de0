/* SPDX-License-Identifier: BSD-2-Clause */
/* The HTTP transport of tickprobe collect (the wire format: docs/collect.md,
 * "What a sender sends"): a POST per record, or several `\n`-separated, with
 * the sender's machine and boot in X-Tickprobe-Machine and
 * X-Tickprobe-Boot.  204 taken, 400 not a record or a bad CRC (dropped and
 * counted), 403 a wrong or missing token, 405 not a POST, 413 a body over
 * --max-body (refused on its Content-Length, before it is read), 503 a
 * memory bound.  A hello (X-Tickprobe-Hello, empty body) gets 204 when the
 * sender would be taken. */
#ifndef TOOLS_COLLECT_HTTP_H
#define TOOLS_COLLECT_HTTP_H

#include <stddef.h>
#include "tools/collect/collect.h"

struct boots;
struct http;

/* Serves on listen_fd (bound and listening; MHD closes it at the stop).
 * NULL with why when MHD cannot start. */
struct http *http_start(int listen_fd, const struct collect_options *o, struct boots *boots,
			struct collect_counts *counts, char *why, size_t cap);
/* Cuts the connections whose request is not whole in COLLECT_REQUEST_S
 * (now: the monotonic clock, tools/lib/progress.h). */
void http_watch(struct http *h, double now);
/* No more requests: every connection closed, the thread joined. */
void http_stop(struct http *h);

#endif
