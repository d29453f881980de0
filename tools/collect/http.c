/* SPDX-License-Identifier: BSD-2-Clause */
/* The HTTP transport (http.h): libmicrohttpd does all of HTTP; request.c
 * says what each request gets, and this file hands it the pieces.
 *
 * One polling thread (MHD's own, epoll) calls every handler here, so the
 * record check's scratch (struct intake) is this part's alone; the per-boot
 * table has its own lock.  MHD bounds what it can: connections
 * (--max-connections), silence (COLLECT_IDLE_S), each connection's header
 * memory (COLLECT_CONN_MEMORY).  MHD's timeout restarts at every byte, so a
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
#include "tools/collect/request.h"
#include "tools/lib/progress.h"
#include "tools/lib/xalloc.h"

struct watched {
	int fd;
	double since; /* the connection's start, or its previous answer */
	bool cut;
	struct watched *prev, *next;
};

struct http {
	struct MHD_Daemon *d;
	struct intake in;       /* MHD's thread only, but for the counts */
	pthread_mutex_t lock;   /* the watch list, shared with the main thread */
	struct watched *watch;
	char said[200];         /* MHD's last message, for a start that fails */
};

static enum MHD_Result answer(struct MHD_Connection *conn, const struct answer *a)
{
	struct MHD_Response *r;
	enum MHD_Result rc;
	char text[sizeof a->why + 1];

	snprintf(text, sizeof text, "%s\n", a->why);
	r = MHD_create_response_from_buffer(a->status == HTTP_NO_CONTENT ? 0 : strlen(text), text,
					    MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	if (a->status != HTTP_NO_CONTENT)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain");
	if (a->status == HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "POST");
	/* Refused before its body was read: the body is not read at all. */
	if (a->close)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	rc = MHD_queue_response(conn, a->status, r);
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

/* MHD calls this once with the head, once per piece of the body, and once
 * when the body is whole: request.c decides, this only reads and answers. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
				  const char *version, const char *upload, size_t *upload_size, void **req_cls)
{
	struct http *h = cls;
	struct request *rq = *req_cls;
	struct answer a;

	(void)url;
	(void)version;
	if (!rq) {
		struct request_head head = {
			.method = method,
			.machine = header(conn, "X-Tickprobe-Machine"),
			.boot = header(conn, "X-Tickprobe-Boot"),
			.token = header(conn, "X-Tickprobe-Token"),
			.hello = header(conn, "X-Tickprobe-Hello"),
			.length = header(conn, MHD_HTTP_HEADER_CONTENT_LENGTH),
			.source = client_address(conn),
		};
		*req_cls = rq = xrealloc(NULL, sizeof *rq);
		if (!request_start(&h->in, &head, rq, &a))
			return answer(conn, &a);
		return MHD_YES;
	}
	if (*upload_size) {
		request_body(&h->in, rq, upload, *upload_size);
		*upload_size = 0;
		return MHD_YES;
	}
	if (rq->answered)
		return MHD_YES;
	request_end(&h->in, rq, progress_now(), &a);
	return answer(conn, &a);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **req_cls, enum MHD_RequestTerminationCode why)
{
	struct http *h = cls;
	struct request *rq = *req_cls;
	const union MHD_ConnectionInfo *info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct watched *w = info ? info->socket_context : NULL;

	(void)why;
	if (rq)
		request_free(rq);
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
			collect_count(&h->in.counts->http_slow);
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
	h->in.o = o;
	h->in.boots = boots;
	h->in.counts = counts;
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
	record_check_free(&h->in.rc);
	pthread_mutex_destroy(&h->lock);
	free(h);
}
