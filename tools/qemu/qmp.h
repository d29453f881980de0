/* SPDX-License-Identifier: BSD-2-Clause */
/* A small QMP client (QEMU's machine protocol) over a unix socket, for
 * `tickprobe qemu --event`: the greeting, qmp_capabilities, then one command
 * at a time, each answer waited for within a bound.  QMP sends one JSON
 * object a line; asynchronous {"event": ...} lines are skipped, and an
 * answer is matched to its command by the "id" sent with it.  The answers
 * are read with the project's JSON reader into a pool this struct holds, so
 * a line never costs an allocation and a line longer than the buffer is
 * skipped, not grown into. */
#ifndef TOOLS_QEMU_QMP_H
#define TOOLS_QEMU_QMP_H

#include <stdbool.h>
#include <stddef.h>
#include "tools/lib/json_parse.h"

#define QMP_LINE_MAX 8192 /* query-migrate's answer is under 1 KB */
#define QMP_NODES 512
#define QMP_TIMEOUT_S 5.0 /* a command's answer: QEMU answers in milliseconds */

struct qmp {
	int fd;              /* -1: not connected */
	bool absent;         /* the last connect found no socket listening yet */
	unsigned next_id;
	char in[QMP_LINE_MAX];
	size_t len;
	bool overlong;       /* the line being read did not fit: skipped to its end */
	char line[QMP_LINE_MAX];
	struct lr_node nodes[QMP_NODES];
	char strs[QMP_LINE_MAX];
	struct lr_doc doc;
	char err[200];       /* why the last call failed */
};

void qmp_init(struct qmp *q);
/* Connects to the socket at path, reads QEMU's greeting and leaves the
 * negotiation mode, each answer within timeout_s.  False with q->err set;
 * q->absent when nothing listens there yet (QEMU still starting). */
bool qmp_connect(struct qmp *q, const char *path, double timeout_s);
/* Runs command cmd with args (a JSON object's text, or NULL) and waits for
 * its answer within timeout_s.  Returns the answer's "return" member (valid
 * until the next call), or NULL with q->err: QEMU's error, no answer in
 * time, or the connection closed. */
const struct lr_node *qmp_command(struct qmp *q, const char *cmd, const char *args, double timeout_s);
void qmp_close(struct qmp *q);

/* A connected unix stream socket to path, non-blocking, or -1 (errno set). */
int qemu_unix_connect(const char *path);

#endif
