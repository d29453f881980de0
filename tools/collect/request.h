/* SPDX-License-Identifier: BSD-2-Clause */
/* What one HTTP request gets (the statuses: http.h), from its method and
 * headers, then its body, with no libmicrohttpd in sight: http.c hands each
 * request's pieces here as MHD reads them.  The head is checked whole
 * (sender_check, tools/collect/sender.h) before the body is looked at, and
 * nothing reaches the per-boot table before it passed. */
#ifndef TOOLS_COLLECT_REQUEST_H
#define TOOLS_COLLECT_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tools/collect/intake.h"
#include "tools/collect/sender.h"

enum http_status {
	HTTP_NO_CONTENT = 204,
	HTTP_BAD_REQUEST = 400,
	HTTP_FORBIDDEN = 403,
	HTTP_METHOD_NOT_ALLOWED = 405,
	HTTP_CONTENT_TOO_LARGE = 413,
	HTTP_SERVICE_UNAVAILABLE = 503,
};

/* A request's method and the headers read (NULL: absent). */
struct request_head {
	const char *method;
	const char *machine; /* X-Tickprobe-Machine */
	const char *boot;    /* X-Tickprobe-Boot */
	const char *token;   /* X-Tickprobe-Token */
	const char *hello;   /* X-Tickprobe-Hello */
	const char *length;  /* Content-Length */
	uint32_t source;     /* the peer's IPv4 address, network order (0: unknown) */
};

struct request {
	struct sender who; /* checked from the head before the body is read */
	char *body;
	size_t len, cap;
	bool too_big;  /* past --max-body: the rest is dropped unread */
	bool answered; /* refused on its head: the body is not looked at */
};

struct answer {
	unsigned status;  /* enum http_status */
	bool close;       /* refused before the body was read: the connection closes */
	char why[256];    /* the answer's text ("" for 204) */
};

/* The head: true when the body is wanted; false with the answer, which
 * goes out before the body is read.  rq is zeroed here. */
bool request_start(struct intake *in, const struct request_head *h, struct request *rq, struct answer *a);
/* A piece of the body: kept up to --max-body, never past it. */
void request_body(struct intake *in, struct request *rq, const void *data, size_t n);
/* The whole body is in: its records taken (now: the monotonic clock) and
 * the answer made.  Not called for a request request_start refused. */
void request_end(struct intake *in, struct request *rq, double now, struct answer *a);
void request_free(struct request *rq);

#endif
