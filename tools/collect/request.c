/* SPDX-License-Identifier: BSD-2-Clause */
/* One HTTP request's answer (request.h). */
#include "tools/collect/request.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/collect/boots.h"
#include "tools/lib/xalloc.h"

#define LENGTH_DIGITS_MAX 19 /* below 2^63: what strtoull reads exactly */

static void say(struct answer *a, unsigned status, bool close, const char *why)
{
	a->status = status;
	a->close = close;
	snprintf(a->why, sizeof a->why, "%s", why ? why : "");
}

/* Content-Length, when given, is digits only: its value, or -1. */
static long long body_length(const char *s)
{
	size_t n;

	if (!s)
		return 0;
	n = strspn(s, "0123456789");
	if (!n || n > LENGTH_DIGITS_MAX || s[n])
		return -1;
	return (long long)strtoull(s, NULL, 10);
}

bool request_start(struct intake *in, const struct request_head *h, struct request *rq, struct answer *a)
{
	long long length = body_length(h->length);
	const char *why = NULL;
	int verdict;

	memset(rq, 0, sizeof *rq);
	memset(a, 0, sizeof *a);
	collect_count(&in->counts->http_requests);
	rq->answered = true;
	if (!h->method || strcmp(h->method, "POST")) {
		say(a, HTTP_METHOD_NOT_ALLOWED, true, "records are POSTed");
		return false;
	}
	verdict = sender_check(in->o, h->machine, h->boot, h->token, h->hello != NULL, h->source, &rq->who, &why);
	if (verdict == SENDER_REFUSED) {
		collect_count(&in->counts->http_refused);
		say(a, HTTP_FORBIDDEN, true, why);
		return false;
	}
	if (verdict != SENDER_OK || length < 0) {
		collect_count(&in->counts->http_bad);
		say(a, HTTP_BAD_REQUEST, true, verdict != SENDER_OK ? why : "Content-Length is not a number");
		return false;
	}
	if (length > in->o->max_body) {
		collect_count(&in->counts->http_too_large);
		say(a, HTTP_CONTENT_TOO_LARGE, true, "body over the collector's --max-body");
		return false;
	}
	rq->answered = false;
	return true;
}

void request_body(struct intake *in, struct request *rq, const void *data, size_t n)
{
	size_t max = (size_t)in->o->max_body, want = rq->len + n;

	if (rq->answered || rq->too_big || !n)
		return;
	if (n > max || want > max) { /* a body without a length, past the bound: never kept */
		rq->too_big = true;
		request_free(rq);
		return;
	}
	if (want > rq->cap) { /* doubling, but never past the bound */
		rq->cap = want > 2 * rq->cap ? want : 2 * rq->cap;
		if (rq->cap > max)
			rq->cap = max;
		rq->body = xrealloc(rq->body, rq->cap);
	}
	memcpy(rq->body + rq->len, data, n);
	rq->len = want;
}

/* One line of the body: 0 taken, else the status it earns. */
static unsigned one_record(struct intake *in, const struct sender *who, char *s, size_t n, double now, char *why,
			   size_t cap)
{
	struct record_info info;

	if (!record_check(&in->rc, s, &n, &info, why, cap))
		return HTTP_BAD_REQUEST;
	switch (boots_take(in->boots, who, info.seq, info.is_end, s, n, now)) {
	case TAKE_STORED:
	case TAKE_HELD:
	case TAKE_DUPLICATE:
		return 0;
	case TAKE_MIXED:
		snprintf(why, cap, "boot %s is another machine's", who->boot);
		return HTTP_BAD_REQUEST;
	case TAKE_PAST_END:
		snprintf(why, cap, "seq %llu is past the boot's end record", (unsigned long long)info.seq);
		return HTTP_BAD_REQUEST;
	case TAKE_FAILED:
		boots_error(in->boots, why, cap);
		return HTTP_SERVICE_UNAVAILABLE;
	case TAKE_CUT:
		snprintf(why, cap, "the boot's log reached the collector's --max-log-bytes: it is kept as it is");
		return HTTP_CONTENT_TOO_LARGE;
	case TAKE_SOURCE:
		snprintf(why, cap, "too many boots in progress from this address (--max-boots-per-source)");
		return HTTP_SERVICE_UNAVAILABLE;
	default:
		snprintf(why, cap, "too busy: the bound on records held out of order, or on boots in progress");
		return HTTP_SERVICE_UNAVAILABLE;
	}
}

/* An empty body: a hello, or nothing to take. */
static void hello(struct intake *in, struct request *rq, double now, struct answer *a)
{
	if (!rq->who.hello) {
		collect_count(&in->counts->http_bad);
		say(a, HTTP_BAD_REQUEST, false, "empty body");
	} else if (boots_hello(in->boots, &rq->who, now)) {
		say(a, HTTP_NO_CONTENT, false, NULL);
	} else {
		collect_count(&in->counts->http_busy);
		say(a, HTTP_SERVICE_UNAVAILABLE, false,
		    "too busy: the bound on boots in progress, in all or from this address");
	}
}

/* Every line of the body a record; a bad one is dropped and makes the
 * answer 400, the good ones beside it are kept. */
void request_end(struct intake *in, struct request *rq, double now, struct answer *a)
{
	char line_why[256], *s, *end;
	unsigned rc;

	memset(a, 0, sizeof *a);
	if (rq->too_big) {
		collect_count(&in->counts->http_too_large);
		say(a, HTTP_CONTENT_TOO_LARGE, true, "body over the collector's --max-body");
		return;
	}
	if (!rq->len) {
		hello(in, rq, now, a);
		return;
	}
	a->status = HTTP_NO_CONTENT;
	end = rq->body + rq->len; /* not before: a hello has no body at all, and NULL + 0 is undefined */
	for (s = rq->body; s < end; s++) { /* a line at a time; an empty one (the last "\n", "\r\n") is no record */
		char *nl = memchr(s, '\n', (size_t)(end - s));
		char *stop = nl ? nl : end;
		if (stop - s > 1 || (stop - s == 1 && *s != '\r')) {
			rc = one_record(in, &rq->who, s, (size_t)(stop - s), now, line_why, sizeof line_why);
			if (rc && (a->status == HTTP_NO_CONTENT || rc == HTTP_BAD_REQUEST)) {
				a->status = rc;
				snprintf(a->why, sizeof a->why, "%s", line_why);
			}
		}
		s = stop;
	}
	if (a->status == HTTP_BAD_REQUEST)
		collect_count(&in->counts->http_bad);
	else if (a->status == HTTP_CONTENT_TOO_LARGE) /* past the boot's --max-log-bytes */
		collect_count(&in->counts->http_too_large);
	else if (a->status == HTTP_SERVICE_UNAVAILABLE)
		collect_count(&in->counts->http_busy);
}

void request_free(struct request *rq)
{
	free(rq->body);
	rq->body = NULL;
	rq->len = 0;
	rq->cap = 0;
}
