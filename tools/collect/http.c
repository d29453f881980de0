/* SPDX-License-Identifier: BSD-2-Clause */
/* The HTTP transport (http.h): libmicrohttpd does all of HTTP; this file
 * says what each request gets.
 *
 * One polling thread (MHD's own, epoll) calls every handler here, so the
 * record check's scratch is this part's alone; the per-boot table has its
 * own lock.  MHD bounds what it can: connections (--max-connections),
 * silence (COLLECT_IDLE_S), each connection's header memory
 * (COLLECT_CONN_MEMORY).  MHD's timeout restarts at every byte, so a
 * sender trickling a byte a second would hold its connection for ever: the
 * main thread's watch (http_watch) cuts every connection whose request is
 * not whole COLLECT_REQUEST_S seconds after the connection opened or its
 * previous answer went out. */
#include "tools/collect/http.h"
#include <microhttpd.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "tools/collect/boots.h"
#include "tools/collect/record.h"
#include "tools/collect/sender.h"
#include "tools/common/progress.h"
#include "tools/common/xalloc.h"

struct watched {
	int fd;
	double since; /* the connection's start, or its previous answer */
	bool cut;
	struct watched *prev, *next;
};

struct http {
	struct MHD_Daemon *d;
	const struct collect_options *o;
	struct boots *boots;
	struct collect_counts *counts;
	struct record_check rc; /* MHD's thread only */
	pthread_mutex_t lock;   /* the watch list, shared with the main thread */
	struct watched *watch;
	char said[200];         /* MHD's last message, for a start that fails */
};

struct request {
	struct sender who; /* checked from the headers before the body is read */
	char *body;
	size_t len, cap;
	bool too_big;  /* streamed past --max-body: the rest is dropped unread */
	bool answered; /* refused before the body */
};

static enum MHD_Result answer(struct MHD_Connection *conn, unsigned status, const char *why, bool close)
{
	struct MHD_Response *r;
	enum MHD_Result rc;
	char text[320];

	snprintf(text, sizeof text, "%s\n", why ? why : "");
	r = MHD_create_response_from_buffer(status == MHD_HTTP_NO_CONTENT ? 0 : strlen(text), text,
					    MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	if (status != MHD_HTTP_NO_CONTENT)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "POST");
	/* Refused before its body was read: the body is not read at all. */
	if (close)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	rc = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return rc;
}

static const char *header(struct MHD_Connection *conn, const char *name)
{
	return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name);
}

static uint32_t client_address(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = info ? info->client_addr : NULL;

	if (!sa || sa->sa_family != AF_INET)
		return 0;
	return ((const struct sockaddr_in *)(const void *)sa)->sin_addr.s_addr;
}

/* What can be said from the headers alone: 0 when the body is wanted, with
 * rq->who the checked sender (tools/collect/sender.h). */
static unsigned before_body(struct http *h, struct MHD_Connection *conn, const char *method, struct request *rq,
			    const char **why)
{
	const char *length = header(conn, MHD_HTTP_HEADER_CONTENT_LENGTH);
	int verdict;

	if (strcmp(method, MHD_HTTP_METHOD_POST)) {
		*why = "records are POSTed";
		return MHD_HTTP_METHOD_NOT_ALLOWED;
	}
	verdict = sender_check(h->o, header(conn, "X-Tickprobe-Machine"), header(conn, "X-Tickprobe-Boot"),
			       header(conn, "X-Tickprobe-Token"), header(conn, "X-Tickprobe-Hello") != NULL,
			       client_address(conn), &rq->who, why);
	if (verdict == SENDER_REFUSED) {
		collect_count(&h->counts->http_refused);
		return MHD_HTTP_FORBIDDEN;
	}
	if (verdict != SENDER_OK) {
		collect_count(&h->counts->http_bad);
		return MHD_HTTP_BAD_REQUEST;
	}
	if (length && strtoull(length, NULL, 10) > (unsigned long long)h->o->max_body) {
		collect_count(&h->counts->http_too_large);
		*why = "body over the collector's --max-body";
		return MHD_HTTP_CONTENT_TOO_LARGE;
	}
	return 0;
}

/* One line of the body: 0 taken, else the status it earns. */
static unsigned one_record(struct http *h, const struct sender *who, char *s, size_t n, char *why, size_t cap)
{
	struct record_info info;

	if (!record_check(&h->rc, s, &n, &info, why, cap))
		return MHD_HTTP_BAD_REQUEST;
	switch (boots_take(h->boots, who, info.seq, info.is_end, s, n, progress_now())) {
	case TAKE_STORED:
	case TAKE_HELD:
	case TAKE_DUPLICATE:
		return 0;
	case TAKE_MIXED:
		snprintf(why, cap, "boot %s is another machine's", who->boot);
		return MHD_HTTP_BAD_REQUEST;
	case TAKE_PAST_END:
		snprintf(why, cap, "seq %llu is past the boot's end record", (unsigned long long)info.seq);
		return MHD_HTTP_BAD_REQUEST;
	case TAKE_FAILED:
		boots_error(h->boots, why, cap);
		return MHD_HTTP_SERVICE_UNAVAILABLE;
	case TAKE_CUT:
		snprintf(why, cap, "the boot's log reached the collector's --max-log-bytes: it is kept as it is");
		return MHD_HTTP_CONTENT_TOO_LARGE;
	case TAKE_SOURCE:
		snprintf(why, cap, "too many boots in progress from this address (--max-boots-per-source)");
		return MHD_HTTP_SERVICE_UNAVAILABLE;
	default:
		snprintf(why, cap, "too busy: the bound on records held out of order, or on boots in progress");
		return MHD_HTTP_SERVICE_UNAVAILABLE;
	}
}

/* The whole body: every line a record; a bad one is dropped and makes the
 * answer 400, the good ones beside it are kept.  An empty body is a hello. */
static enum MHD_Result take_body(struct http *h, struct MHD_Connection *conn, struct request *rq)
{
	unsigned status = MHD_HTTP_NO_CONTENT, rc;
	char why[256] = "", line_why[256];
	char *s = rq->body, *end = rq->body + rq->len;

	if (!rq->len) {
		if (!rq->who.hello) {
			collect_count(&h->counts->http_bad);
			return answer(conn, MHD_HTTP_BAD_REQUEST, "empty body", false);
		}
		if (boots_hello(h->boots, &rq->who, progress_now()))
			return answer(conn, MHD_HTTP_NO_CONTENT, NULL, false);
		collect_count(&h->counts->http_busy);
		return answer(conn, MHD_HTTP_SERVICE_UNAVAILABLE,
			      "too busy: the bound on boots in progress, in all or from this address", false);
	}
	for (; s < end; s++) { /* a line at a time; an empty one (the last "\n", "\r\n") is no record */
		char *nl = memchr(s, '\n', (size_t)(end - s));
		char *stop = nl ? nl : end;
		if (stop - s > 1 || (stop - s == 1 && *s != '\r')) {
			rc = one_record(h, &rq->who, s, (size_t)(stop - s), line_why, sizeof line_why);
			if (rc && (status == MHD_HTTP_NO_CONTENT || rc == MHD_HTTP_BAD_REQUEST)) {
				status = rc;
				snprintf(why, sizeof why, "%s", line_why);
			}
		}
		s = stop;
	}
	if (status == MHD_HTTP_BAD_REQUEST)
		collect_count(&h->counts->http_bad);
	else if (status == MHD_HTTP_SERVICE_UNAVAILABLE)
		collect_count(&h->counts->http_busy);
	return answer(conn, status, why, false);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
				  const char *version, const char *upload, size_t *upload_size, void **req_cls)
{
	struct http *h = cls;
	struct request *rq = *req_cls;
	const char *why = NULL;
	unsigned status;

	(void)url, (void)version;
	if (!rq) {
		*req_cls = rq = xrealloc(NULL, sizeof *rq);
		memset(rq, 0, sizeof *rq);
		collect_count(&h->counts->http_requests);
		status = before_body(h, conn, method, rq, &why);
		if (status) {
			rq->answered = true;
			return answer(conn, status, why, true);
		}
		return MHD_YES;
	}
	if (*upload_size) {
		if (!rq->answered && !rq->too_big && rq->len + *upload_size <= (size_t)h->o->max_body) {
			if (rq->len + *upload_size > rq->cap) {
				rq->cap = rq->len + *upload_size > 2 * rq->cap ? rq->len + *upload_size : 2 * rq->cap;
				rq->body = xrealloc(rq->body, rq->cap);
			}
			memcpy(rq->body + rq->len, upload, *upload_size);
			rq->len += *upload_size;
		} else if (!rq->too_big) { /* a body without a length, past the bound: never kept */
			rq->too_big = true;
			free(rq->body);
			rq->body = NULL;
			rq->len = rq->cap = 0;
		}
		*upload_size = 0;
		return MHD_YES;
	}
	if (rq->answered)
		return MHD_YES;
	if (rq->too_big) {
		collect_count(&h->counts->http_too_large);
		return answer(conn, MHD_HTTP_CONTENT_TOO_LARGE, "body over the collector's --max-body", true);
	}
	return take_body(h, conn, rq);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **req_cls, enum MHD_RequestTerminationCode why)
{
	struct http *h = cls;
	struct request *rq = *req_cls;
	const union MHD_ConnectionInfo *info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct watched *w = info ? info->socket_context : NULL;

	(void)why;
	if (rq)
		free(rq->body);
	free(rq);
	*req_cls = NULL;
	if (w) {
		pthread_mutex_lock(&h->lock);
		w->since = progress_now();
		pthread_mutex_unlock(&h->lock);
	}
}

static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
			  enum MHD_ConnectionNotificationCode code)
{
	struct http *h = cls;
	struct watched *w = *socket_context;
	const union MHD_ConnectionInfo *info;

	pthread_mutex_lock(&h->lock);
	if (code == MHD_CONNECTION_NOTIFY_STARTED &&
	    (info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD))) {
		w = xrealloc(NULL, sizeof *w);
		*w = (struct watched){ .fd = info->connect_fd, .since = progress_now(), .next = h->watch };
		if (h->watch)
			h->watch->prev = w;
		h->watch = w;
		*socket_context = w;
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED && w) {
		/* MHD says so before it closes the socket: the fd is still this one's. */
		if (w->prev)
			w->prev->next = w->next;
		else
			h->watch = w->next;
		if (w->next)
			w->next->prev = w->prev;
		free(w);
		*socket_context = NULL;
	}
	pthread_mutex_unlock(&h->lock);
}

void http_watch(struct http *h, double now)
{
	pthread_mutex_lock(&h->lock);
	for (struct watched *w = h->watch; w; w = w->next)
		if (!w->cut && now - w->since > COLLECT_REQUEST_S) {
			w->cut = true;
			shutdown(w->fd, SHUT_RDWR); /* MHD reads the end and closes it */
			collect_count(&h->counts->http_slow);
		}
	pthread_mutex_unlock(&h->lock);
}

/* Kept, not printed: what MHD says of a connection (a reset, a timeout) is
 * in the counts; what it says of a start that fails goes into the reason. */
static void on_log(void *cls, const char *fmt, va_list ap)
{
	struct http *h = cls;
	size_t n;

	vsnprintf(h->said, sizeof h->said, fmt, ap);
	n = strlen(h->said);
	while (n && h->said[n - 1] == '\n')
		h->said[--n] = 0;
}

struct http *http_start(int listen_fd, const struct collect_options *o, struct boots *boots,
			struct collect_counts *counts, char *why, size_t cap)
{
	struct http *h = xrealloc(NULL, sizeof *h);

	memset(h, 0, sizeof *h);
	h->o = o;
	h->boots = boots;
	h->counts = counts;
	pthread_mutex_init(&h->lock, NULL);
	h->d = MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG, 0, NULL, NULL, on_request, h,
				MHD_OPTION_LISTEN_SOCKET, listen_fd,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned)o->max_connections,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)COLLECT_IDLE_S,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)COLLECT_CONN_MEMORY,
				MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
				MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
				MHD_OPTION_EXTERNAL_LOGGER, on_log, h,
				MHD_OPTION_END);
	if (!h->d) {
		snprintf(why, cap, "libmicrohttpd could not start its server%s%s", h->said[0] ? ": " : "", h->said);
		pthread_mutex_destroy(&h->lock);
		free(h);
		return NULL;
	}
	return h;
}

void http_stop(struct http *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->d); /* joins its thread; every connection closed (on_connection frees its watch) */
	record_check_free(&h->rc);
	pthread_mutex_destroy(&h->lock);
	free(h);
}
