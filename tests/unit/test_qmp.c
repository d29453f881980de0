/* SPDX-License-Identifier: BSD-2-Clause */
/* The QMP client of `tickprobe qemu --event` (tools/qemu/qmp.h) against a
 * scripted QMP server in a child process: the greeting and negotiation, an
 * event and a stale answer skipped, QEMU's error shown without its control
 * bytes, a line longer than the buffer skipped, no answer given up on
 * within the bound, a closed connection, and no server at all. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/unit/check.h"
#include "tools/qemu/qemu.h"
#include "tools/qemu/qmp.h"

static void put(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) < 0)
		_exit(3);
}

/* One command line from the client, or exit. */
static void get(int fd, const char *want)
{
	char line[512];
	size_t n = 0;

	while (n + 1 < sizeof line && read(fd, line + n, 1) == 1 && line[n] != '\n')
		n++;
	line[n] = 0;
	if (!strstr(line, want))
		_exit(4);
}

static void server(int lfd, bool greet_as_qmp)
{
	int fd = accept(lfd, NULL, NULL);
	char *longline = malloc(QMP_LINE_MAX * 2);

	if (fd < 0 || !longline)
		_exit(2);
	if (!greet_as_qmp) {
		put(fd, "{\"hello\": 1}\r\n");
		sleep(2);
		_exit(0);
	}
	put(fd, "{\"QMP\": {\"version\": {}, \"capabilities\": [\"oob\"]}}\r\n");
	get(fd, "\"execute\":\"qmp_capabilities\",\"id\":1}");
	put(fd, "{\"return\": {}, \"id\": 1}\r\n");
	get(fd, "\"execute\":\"stop\",\"id\":2}");
	put(fd, "{\"timestamp\": {\"seconds\": 1, \"microseconds\": 2}, \"event\": \"STOP\"}\r\n");
	put(fd, "{\"return\": {\"stale\": true}, \"id\": 1}\r\n{\"return\": {}, \"id\": 2}\r\n");
	get(fd, "\"execute\":\"query-status\",\"id\":3}");
	put(fd, "{\"return\": {\"status\": \"running\", \"singlestep\": false, \"running\": true}, \"id\": 3}\r\n");
	get(fd, "\"execute\":\"cont\",\"id\":4}");
	put(fd, "{\"error\": {\"class\": \"GenericError\", \"desc\": \"no \\u001b[2J way\"}, \"id\": 4}\r\n");
	get(fd, "\"execute\":\"migrate\",\"arguments\":{\"uri\":\"exec:cat > /x\"},\"id\":5}");
	memset(longline, 'x', QMP_LINE_MAX * 2 - 1);
	memcpy(longline, "{\"event\": \"", 11);
	longline[QMP_LINE_MAX * 2 - 2] = '\n';
	longline[QMP_LINE_MAX * 2 - 1] = 0;
	put(fd, longline);
	put(fd, "{\"return\": {\"after\": \"the long line\"}, \"id\": 5}\r\n");
	get(fd, "\"execute\":\"query-migrate\",\"id\":6}");
	sleep(2); /* no answer */
	get(fd, "\"execute\":\"quit\",\"id\":7}");
	close(fd);
	_exit(0);
}

static pid_t serve(const char *path, bool greet_as_qmp)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	pid_t pid;

	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
	unlink(path);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(lfd, 1) < 0) {
		perror("setup: the scripted QMP server");
		return -1;
	}
	pid = fork();
	if (pid == 0)
		server(lfd, greet_as_qmp);
	close(lfd);
	return pid;
}

int main(void)
{
	static struct qmp q;
	char dir[] = "/tmp/tickprobe-test-qmp-XXXXXX", path[64];
	const struct lr_node *r;
	double t0, took;
	pid_t pid;
	int status = -1;

	signal(SIGPIPE, SIG_IGN);
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/qmp.sock", dir);
	qmp_init(&q);
	check(COND(!qmp_connect(&q, path, 1)) && COND(q.absent), "no server: not connected, and absent (%s)", q.err);

	pid = serve(path, true);
	check(qmp_connect(&q, path, 2), "the greeting read and qmp_capabilities answered (%s)", q.err);
	check(qmp_command(&q, "stop", NULL, 2) != NULL, "stop: its answer found past an event and a stale answer (%s)",
	      q.err);
	r = qmp_command(&q, "query-status", NULL, 2);
	check(COND(r) && COND(lr_true(lr_get(r, "running"))) && COND(!strcmp(lr_str(lr_get(r, "status")), "running")),
	      "query-status: the return member");
	check(COND(!qmp_command(&q, "cont", NULL, 2)) && COND(!strcmp(q.err, "cont: no ?[2J way")),
	      "QEMU's error said, its escape byte shown as '?': %s", q.err);
	r = qmp_command(&q, "migrate", "{\"uri\":\"exec:cat > /x\"}", 2);
	check(COND(r) && COND(lr_str(lr_get(r, "after"))) && COND(!strcmp(lr_str(lr_get(r, "after")), "the long line")),
	      "a line longer than the buffer skipped, the answer after it read (%s)", q.err);
	t0 = qemu_now();
	r = qmp_command(&q, "query-migrate", NULL, 1);
	took = qemu_now() - t0;
	check(COND(!r) && COND(strstr(q.err, "no answer from QEMU in 1 s")) && COND(took >= 1) && COND(took < 1.5),
	      "no answer: given up after 1 s (%.2f s): %s", took, q.err);
	check(COND(!qmp_command(&q, "quit", NULL, 3)) && COND(!strcmp(q.err, "QEMU closed the QMP connection")),
	      "the connection closed: said so (%s)", q.err);
	if (pid > 0)
		waitpid(pid, &status, 0);
	check(COND(WIFEXITED(status)) && COND(WEXITSTATUS(status) == 0),
	      "the server saw every command as written (status %d)", status);
	qmp_close(&q);

	pid = serve(path, false);
	check(COND(!qmp_connect(&q, path, 1)) && COND(!q.absent) && COND(strstr(q.err, "did not greet as QMP does")),
	      "a socket that is not QMP: refused (%s)", q.err);
	check(q.fd < 0, "... and closed");
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
	unlink(path);
	rmdir(dir);
	return check_done();
}
