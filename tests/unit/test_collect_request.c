/* SPDX-License-Identifier: BSD-2-Clause */
/* What one HTTP request (tools/collect/request.c) and one syslog datagram
 * (tools/collect/datagram.c) get, through the functions the collector's
 * threads call, on a per-boot table in a directory of its own: the head
 * checked whole before the body (the hello that once crashed the collector
 * among them), the body's bound, a body's good lines kept beside its bad
 * ones, and every field of a datagram. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/crc32.h"
#include "tests/unit/check.h"
#include "tools/collect/boots.h"
#include "tools/collect/datagram.h"
#include "tools/collect/request.h"
#include "tools/collect/spool.h"

#define M "52-54-00-12-34-56"
#define B M "-0000000000001000"

struct rig {
	struct collect_options o;
	struct collect_counts counts;
	struct intake in;
};

static void rig_start(struct rig *r, const char *dir, const char *token, uint64_t log_bytes)
{
	struct boots_limits lim = { log_bytes, 256, 600 };
	char why[300];
	int fd = spool_open(dir, why, sizeof why);

	if (fd < 0) {
		printf("FAIL: spool_open %s: %s\n", dir, why);
		exit(1);
	}
	memset(r, 0, sizeof *r);
	r->o.max_body = 1024;
	r->o.token = token;
	r->in.o = &r->o;
	r->in.counts = &r->counts;
	r->in.boots = boots_new(fd, &lim);
}

static void rig_stop(struct rig *r)
{
	boots_free(r->in.boots);
	record_check_free(&r->in.rc);
}

static uint64_t stored(struct rig *r)
{
	struct boots_counts c;

	boots_counts(r->in.boots, &c);
	return c.stored;
}

/* A record line with its crc. */
static const char *rec(char *buf, size_t cap, unsigned seq)
{
	int k = snprintf(buf, cap, "{\"type\":\"%s\",\"seq\":%u,\"x\":1", seq ? "note" : "begin", seq);

	snprintf(buf + k, cap - (size_t)k, ",\"crc\":\"%08x\"}", crc32_update(0, buf, (size_t)k));
	return buf;
}

/* A whole request: its head, then its body in one piece; the answer. */
static struct answer post(struct rig *r, struct request_head h, const char *body)
{
	struct request rq;
	struct answer a;

	if (!h.method)
		h.method = "POST";
	if (request_start(&r->in, &h, &rq, &a)) {
		request_body(&r->in, &rq, body, strlen(body));
		request_end(&r->in, &rq, 1, &a);
	}
	request_free(&rq);
	return a;
}

static void heads(const char *dir)
{
	struct rig r;
	struct answer a;
	char line[128];

	rig_start(&r, dir, NULL, 1u << 20);
	rec(line, sizeof line, 0);
	/* The curl line: a hello, a record, no machine or boot. */
	a = post(&r, (struct request_head){ .hello = "1" }, line);
	check(COND(a.status == HTTP_BAD_REQUEST) && COND(a.close) && COND(stored(&r) == 0),
	      "a hello with a record and no machine or boot: 400 before the body, nothing stored (%u: %s)", a.status,
	      a.why);
	a = post(&r, (struct request_head){ .hello = "1", .machine = M }, line);
	check(COND(a.status == HTTP_BAD_REQUEST) && COND(stored(&r) == 0),
	      "the same with a machine and no boot: 400 (%u)", a.status);
	a = post(&r, (struct request_head){ .method = "GET", .machine = M, .boot = B }, line);
	check(COND(a.status == HTTP_METHOD_NOT_ALLOWED) && COND(a.close), "a GET: 405 (%u)", a.status);
	a = post(&r, (struct request_head){ .machine = M, .boot = B, .length = "12abc" }, line);
	check(COND(a.status == HTTP_BAD_REQUEST) && COND(strstr(a.why, "Content-Length")),
	      "a Content-Length not a number: 400 (%s)", a.why);
	a = post(&r, (struct request_head){ .machine = M, .boot = B, .length = "1025" }, line);
	check(COND(a.status == HTTP_CONTENT_TOO_LARGE) && COND(a.close) && COND(stored(&r) == 0),
	      "a Content-Length over --max-body: 413 before the body (%u)", a.status);
	a = post(&r, (struct request_head){ .machine = M, .boot = B, .hello = "1" }, "");
	check(COND(a.status == HTTP_NO_CONTENT) && COND(!a.why[0]), "a whole hello with no body: 204 (%u %s)", a.status,
	      a.why);
	a = post(&r, (struct request_head){ .machine = M, .boot = B }, "");
	check(COND(a.status == HTTP_BAD_REQUEST) && COND(!a.close), "an empty body that is no hello: 400 (%u)",
	      a.status);
	a = post(&r, (struct request_head){ .machine = M, .boot = B, .length = "46" }, line);
	check(COND(a.status == HTTP_NO_CONTENT) && COND(stored(&r) == 1),
	      "a record with its machine and boot: 204, stored (%u %s)", a.status, a.why);
	check(COND(r.counts.http_requests == 8) && COND(r.counts.http_bad == 4) && COND(r.counts.http_too_large == 1),
	      "the requests counted: %llu, %llu bad, %llu too large", (unsigned long long)r.counts.http_requests,
	      (unsigned long long)r.counts.http_bad, (unsigned long long)r.counts.http_too_large);
	rig_stop(&r);
}

static void tokens(const char *dir)
{
	struct rig r;
	struct answer a;
	char line[128];

	rig_start(&r, dir, "s3cret", 1u << 20);
	rec(line, sizeof line, 0);
	a = post(&r, (struct request_head){ .machine = M, .boot = B "x" }, line);
	check(COND(a.status == HTTP_FORBIDDEN) && COND(a.close) && COND(stored(&r) == 0),
	      "no token: 403, nothing stored (%u)", a.status);
	a = post(&r, (struct request_head){ .machine = M, .boot = B "x", .token = "s3cre" }, line);
	check(COND(a.status == HTTP_FORBIDDEN) && COND(stored(&r) == 0), "a wrong token: 403 (%u)", a.status);
	a = post(&r, (struct request_head){ .hello = "1" }, line);
	check(a.status == HTTP_FORBIDDEN, "no token and no names: 403, the token first (%u)", a.status);
	a = post(&r, (struct request_head){ .machine = M, .boot = B "x", .token = "s3cret" }, line);
	check(COND(a.status == HTTP_NO_CONTENT) && COND(stored(&r) == 1), "the token: 204 (%u %s)", a.status, a.why);
	rig_stop(&r);
}

static void bodies(const char *dir)
{
	struct request_head h = { .method = "POST", .machine = M, .boot = B "y" };
	char body[1200], first[128], line[128], bad[128];
	struct request rq;
	struct answer a;
	struct rig r;
	bool within = true;

	rig_start(&r, dir, NULL, 1u << 20);
	/* Streamed without a length, a piece at a time: never held past the bound. */
	memset(body, 'x', sizeof body);
	request_start(&r.in, &h, &rq, &a);
	for (size_t n = 0; n + 100 <= sizeof body; n += 100) {
		request_body(&r.in, &rq, body + n, 100);
		within = within && rq.cap <= (size_t)r.o.max_body;
	}
	request_end(&r.in, &rq, 1, &a);
	request_free(&rq);
	check(within, "a body streamed in 100-byte pieces: never more than --max-body held");
	check(COND(a.status == HTTP_CONTENT_TOO_LARGE) && COND(a.close), "and past the bound: 413 (%u)", a.status);
	/* Good lines beside a bad one are kept; the answer is 400. */
	rec(first, sizeof first, 0);
	rec(line, sizeof line, 1);
	rec(bad, sizeof bad, 2);
	bad[20] ^= 1;
	snprintf(body, sizeof body, "%s\r\n%s\n\n%s\n", first, bad, line);
	a = post(&r, h, body);
	check(COND(a.status == HTTP_BAD_REQUEST) && COND(strstr(a.why, "crc")) && COND(stored(&r) == 2),
	      "two good records and a bad one in a body: 400, the good ones stored (%u %s, %llu stored)", a.status,
	      a.why, (unsigned long long)stored(&r));
	rig_stop(&r);
}

/* A record that would take the boot's log past --max-log-bytes is 413,
 * and counted with the bodies too large. */
static void cut(const char *dir)
{
	struct request_head h = { .method = "POST", .machine = M, .boot = B "c" };
	struct answer a = { 0 };
	char line[128];
	unsigned seq;
	struct rig r;

	rig_start(&r, dir, NULL, 200);
	for (seq = 0; seq < 10 && a.status != HTTP_CONTENT_TOO_LARGE; seq++)
		a = post(&r, h, rec(line, sizeof line, seq));
	check(COND(a.status == HTTP_CONTENT_TOO_LARGE) && COND(seq == 5) && COND(stored(&r) == 4),
	      "a log at --max-log-bytes 200: its fifth record is 413 (%u %s)", a.status, a.why);
	check(r.counts.http_too_large == 1, "... and counted as too large (%llu)",
	      (unsigned long long)r.counts.http_too_large);
	rig_stop(&r);
}

static int send_datagram(struct rig *r, const char *text)
{
	char buf[512];
	size_t n = strlen(text);

	memcpy(buf, text, n + 1);
	return datagram_take(&r->in, buf, n, 0x0100007fu, 1);
}

static void datagrams(const char *dir)
{
	struct rig r;
	char line[128], end[128], d[512];

	rig_start(&r, dir, "tok", 1u << 20);
	rec(line, sizeof line, 0);
	snprintf(d, sizeof d, "<134>1 - %s tickprobe %sz first [tickprobe@32473 seq=\"0\" token=\"tok\"] %s", M, B, line);
	check(COND(send_datagram(&r, d) == DATAGRAM_TAKEN) && COND(stored(&r) == 1),
	      "a datagram as the probe sends it: taken");
	snprintf(d, sizeof d, "<134>1 - %s tickprobe %sz again [tickprobe@32473 seq=\"0\" token=\"tok\"] %s", M, B, line);
	check(COND(send_datagram(&r, d) == DATAGRAM_TAKEN) && COND(stored(&r) == 1),
	      "its copy in the second pass: dropped");
	snprintf(d, sizeof d, "<134>1 - %s tickprobe %sq third [tickprobe@32473 seq=\"0\" token=\"tok\"] %s", M, B, line);
	check(send_datagram(&r, d) == DATAGRAM_BAD, "a pass neither first nor again: bad");
	snprintf(d, sizeof d, "<134>1 - %s tickprobe %sq first [tickprobe@32473 seq=\"0\" token=\"tak\"] %s", M, B, line);
	check(send_datagram(&r, d) == DATAGRAM_REFUSED, "a wrong token: refused");
	snprintf(d, sizeof d, "<134>1 - %s tickprobe %sq first [tickprobe@32473 seq=\"0\"] %s", M, B, line);
	check(send_datagram(&r, d) == DATAGRAM_REFUSED, "no token: refused");
	snprintf(d, sizeof d, "<134>1 - %s tickprobe %sq first [tickprobe@32473 seq=\"1\" token=\"tok\"] %s", M, B, line);
	check(send_datagram(&r, d) == DATAGRAM_BAD, "a seq in the header not the record's: bad");
	snprintf(d, sizeof d, "<134>1 - ../etc tickprobe %sq first [tickprobe@32473 seq=\"0\" token=\"tok\"] %s", B, line);
	check(send_datagram(&r, d) == DATAGRAM_BAD, "a machine that is a path: bad");
	snprintf(d, sizeof d, "<192>1 - %s tickprobe %sq first [tickprobe@32473 seq=\"0\" token=\"tok\"] %s", M, B, line);
	check(send_datagram(&r, d) == DATAGRAM_BAD, "a PRI past 191: bad");
	snprintf(d, sizeof d, "<134>1 - 52-54-00-00-00-01 tickprobe %sz first [tickprobe@32473 seq=\"0\" token=\"tok\"] %s",
		 B, line);
	check(send_datagram(&r, d) == DATAGRAM_BAD, "a boot of another machine: bad");
	check(COND(stored(&r) == 1) && COND(r.counts.syslog_datagrams == 9) && COND(r.counts.syslog_bad == 5) &&
		      COND(r.counts.syslog_refused == 2),
	      "nothing more stored; 9 datagrams, %llu bad, %llu refused", (unsigned long long)r.counts.syslog_bad,
	      (unsigned long long)r.counts.syslog_refused);
	snprintf(end, sizeof end, "{\"type\":\"end\",\"seq\":1,\"records\":1");
	snprintf(end + strlen(end), sizeof end - strlen(end), ",\"crc\":\"%08x\"}", crc32_update(0, end, strlen(end)));
	snprintf(d, sizeof d, "<134>1 - %s tickprobe %sz first [tickprobe@32473 seq=\"1\" token=\"tok\"] %s", M, B, end);
	check(send_datagram(&r, d) == DATAGRAM_TAKEN, "the boot's end record: taken");
	snprintf(d, sizeof d, "<134>1 - %s tickprobe %sz first [tickprobe@32473 seq=\"2\" token=\"tok\"] %s", M, B,
		 rec(line, sizeof line, 2));
	check(COND(send_datagram(&r, d) == DATAGRAM_BAD) && COND(r.counts.syslog_bad == 6),
	      "a record past the end: bad, counted");
	rig_stop(&r);
}

int main(void)
{
	char dir[] = "/tmp/tickprobe-request.XXXXXX";
	char cmd[128];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	heads(dir);
	tokens(dir);
	bodies(dir);
	cut(dir);
	datagrams(dir);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd))
		printf("could not remove %s\n", dir);
	return check_done();
}
