/* SPDX-License-Identifier: BSD-2-Clause */
/* The QMP client of `tickprobe qemu --event` (qmp.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "tools/qemu/qemu.h"
#include "tools/qemu/qmp.h"

void qmp_init(struct qmp *q)
{
	memset(q, 0, sizeof *q);
	q->fd = -1;
}

void qmp_close(struct qmp *q)
{
	if (q->fd >= 0)
		close(q->fd);
	q->fd = -1;
	q->len = 0;
	q->overlong = false;
}

/* QEMU's words into q->err, each byte a terminal could act on shown as '?'. */
static void set_err(struct qmp *q, const char *what, const char *detail)
{
	size_t n = (size_t)snprintf(q->err, sizeof q->err, "%s%s", what, detail ? ": " : "");

	for (; detail && *detail && n + 1 < sizeof q->err; detail++) {
		if (*detail >= 0x20 && *detail < 0x7f)
			q->err[n++] = *detail;
		else
			q->err[n++] = '?';
	}
	if (n < sizeof q->err)
		q->err[n] = 0;
}

/* The next whole line into q->line, waiting until deadline.  1: a line;
 * 0: none in time; -1: the connection closed or failed. */
static int read_line(struct qmp *q, double deadline)
{
	for (;;) {
		char *nl = memchr(q->in, '\n', q->len);
		struct pollfd p = { .fd = q->fd, .events = POLLIN };
		double left;
		ssize_t got;

		if (nl) {
			size_t n = (size_t)(nl - q->in);
			bool skip = q->overlong;
			memcpy(q->line, q->in, n);
			q->line[n] = 0;
			memmove(q->in, nl + 1, q->len - n - 1);
			q->len -= n + 1;
			q->overlong = false;
			if (skip)
				continue;
			return 1;
		}
		if (q->len == sizeof q->in) { /* a line longer than any answer we read: dropped */
			q->overlong = true;
			q->len = 0;
		}
		left = deadline - qemu_now();
		if (left <= 0)
			return 0;
		if (poll(&p, 1, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			return -1;
		if (!(p.revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		got = read(q->fd, q->in + q->len, sizeof q->in - q->len);
		if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR))
			return -1;
		if (got > 0)
			q->len += (size_t)got;
	}
}

/* The next message that is not an event, parsed; NULL with q->err. */
static const struct lr_node *read_message(struct qmp *q, double deadline, double timeout_s)
{
	for (;;) {
		const struct lr_node *root;
		int got = read_line(q, deadline);

		if (got == 0) {
			snprintf(q->err, sizeof q->err, "no answer from QEMU in %.0f s", timeout_s);
			return NULL;
		}
		if (got < 0) {
			set_err(q, "QEMU closed the QMP connection", NULL);
			return NULL;
		}
		lr_doc_init(&q->doc, q->nodes, QMP_NODES, q->strs, sizeof q->strs);
		root = lr_parse(&q->doc, q->line, strlen(q->line));
		if (!root || root->kind != LR_OBJ) {
			set_err(q, "QEMU sent a line that is not a JSON object", NULL);
			return NULL;
		}
		if (!lr_get(root, "event"))
			return root;
	}
}

static bool send_all(struct qmp *q, const char *text, size_t n)
{
	while (n) {
		ssize_t put = send(q->fd, text, n, MSG_NOSIGNAL);
		if (put <= 0) {
			set_err(q, "cannot write to QEMU's QMP socket", put < 0 ? strerror(errno) : NULL);
			return false;
		}
		text += put;
		n -= (size_t)put;
	}
	return true;
}

const struct lr_node *qmp_command(struct qmp *q, const char *cmd, const char *args, double timeout_s)
{
	char text[512];
	double deadline = qemu_now() + timeout_s;
	unsigned id = ++q->next_id;
	int n;

	if (q->fd < 0) {
		set_err(q, "not connected to QEMU's QMP socket", NULL);
		return NULL;
	}
	n = snprintf(text, sizeof text, "{\"execute\":\"%s\"%s%s,\"id\":%u}\n", cmd, args ? ",\"arguments\":" : "",
		     args ? args : "", id);
	if (n < 0 || (size_t)n >= sizeof text) {
		set_err(q, "a QMP command too long", cmd);
		return NULL;
	}
	if (!send_all(q, text, (size_t)n))
		return NULL;
	for (;;) {
		const struct lr_node *m = read_message(q, deadline, timeout_s), *ret, *error;
		uint64_t got_id;

		if (!m)
			return NULL;
		if (!lr_uint(lr_get(m, "id"), &got_id) || got_id != id)
			continue; /* the answer to a command given up on earlier */
		if ((ret = lr_get(m, "return")))
			return ret;
		error = lr_get(m, "error");
		set_err(q, cmd, error ? lr_str(lr_get(error, "desc")) : "an answer with neither return nor error");
		return NULL;
	}
}

static bool greeting(struct qmp *q, double timeout_s)
{
	const struct lr_node *m = read_message(q, qemu_now() + timeout_s, timeout_s);

	if (!m)
		return false;
	if (!lr_get(m, "QMP")) {
		set_err(q, "the QMP socket did not greet as QMP does", NULL);
		return false;
	}
	return qmp_command(q, "qmp_capabilities", NULL, timeout_s) != NULL;
}

int qemu_unix_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, e;

	if (strlen(path) >= sizeof sa.sun_path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)&sa, sizeof sa) < 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

bool qmp_connect(struct qmp *q, const char *path, double timeout_s)
{
	qmp_close(q);
	q->absent = false;
	q->fd = qemu_unix_connect(path);
	if (q->fd < 0) {
		q->absent = errno == ENOENT || errno == ECONNREFUSED || errno == EAGAIN;
		set_err(q, "cannot connect to QEMU's QMP socket", strerror(errno));
		return false;
	}
	if (!greeting(q, timeout_s)) {
		qmp_close(q);
		return false;
	}
	return true;
}
