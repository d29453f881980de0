/* SPDX-License-Identifier: BSD-2-Clause */
/* A fast sender for `tickprobe collect`, for tests/bench/collect.sh and
 * tests/net/test_collect_soak.sh: many probes' logs over HTTP on loopback,
 * from a thread per keep-alive connection, so that the sender is not what
 * limits the collector's records a second.
 *
 *   collect_send --http ADDR:PORT --log FILE [--boots N] [--connections C]
 *                [--samples K] [--per-body R] [--base B] [--interleave]
 *                [--expect DIR]
 *
 * Each boot is a copy of FILE's record lines (a real log), made its own as
 * the probe would have written it: `sender=MACHINE` in the begin record's
 * cmdline, K more `samples` records before the end (a longer run), every
 * crc and the end's records and crc32 made right.  Machine i is
 * 52-54-00-XX-XX-XX (B + i), its boot MACHINE-%016x.  Boot i goes over
 * connection i % C: a hello first, then its records, R a POST.  With
 * --interleave a connection sends the next body of each of its boots in
 * turn, so that every boot is in flight until its end; without it, one
 * boot after the other.  A 503 is tried again (the probe does the same),
 * at most RETRIES times, 20 ms apart; any other answer but 204 is a
 * failure.  TICKPROBE_TOKEN in the environment is sent as the token.
 * --expect DIR writes each boot's log as the collector should store it,
 * DIR/MACHINE.log.
 *
 * Prints one line, "records: N in S s: R records/s; sender CPU C s;
 * requests: Q, 503 tried again: T, failed: F" (C: while sending, the logs'
 * making left out), and exits 1 when anything failed. */
#define _GNU_SOURCE /* memmem, strcasestr */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "lib/crc32.h"

#define CRC_TAIL 18 /* ,"crc":"xxxxxxxx"} */
#define RETRIES 500
#define ANSWER_MAX 4096

struct boot {
	char machine[32], id[64];
	char **lines; /* the records, each without its "\n" */
	size_t n;
	size_t next;  /* the next record to send */
};

struct conn {
	pthread_t thread;
	struct boot **boots;
	size_t n;
	int fd;
	char in[ANSWER_MAX];
	size_t have;
	unsigned long long requests, retries, failed;
	char failure[200];
};

struct plan {
	struct sockaddr_in addr;
	const char *token;
	size_t per_body;
	bool interleave;
};

/* The one struct the program owns: what every connection reads. */
static struct plan plan;

static void *xrealloc(void *old, size_t n)
{
	void *p = realloc(old, n ? n : 1);

	if (!p) {
		fprintf(stderr, "collect_send: out of memory\n");
		exit(2);
	}
	return p;
}

static void *xmalloc(size_t n)
{
	return xrealloc(NULL, n);
}

static char *with_crc(const char *body, size_t n)
{
	char *out = xmalloc(n + CRC_TAIL + 1);

	memcpy(out, body, n);
	snprintf(out + n, CRC_TAIL + 1, ",\"crc\":\"%08x\"}", crc32_update(0, body, n));
	return out;
}

/* The record lines of a real log: those that start with '{', CR gone. */
static char **read_records(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	char **out = NULL, *line = NULL;
	size_t cap = 0, k = 0;
	ssize_t got;

	if (!f) {
		fprintf(stderr, "collect_send: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	while ((got = getline(&line, &cap, f)) > 0) {
		while (got && (line[got - 1] == '\n' || line[got - 1] == '\r'))
			line[--got] = 0;
		if (line[0] != '{' || got <= CRC_TAIL)
			continue;
		out = xrealloc(out, (k + 1) * sizeof *out);
		out[k] = xmalloc((size_t)got + 1);
		memcpy(out[k++], line, (size_t)got + 1);
	}
	free(line);
	fclose(f);
	*n = k;
	return out;
}

/* The log as boot b sends it (see the top of the file). */
static void make_boot(struct boot *b, char *const *src, size_t nsrc, size_t samples)
{
	const char *end = src[nsrc - 1], *tail = strstr(end, "\"crc32\":\"");
	const char *cmd = strstr(src[0], "\"cmdline\":\"");
	char body[4096];
	uint32_t crc = 0;
	size_t k = 0;

	if (!tail || !cmd || strncmp(end, "{\"type\":\"end\"", 13)) {
		fprintf(stderr, "collect_send: the log must begin with a begin record and end with an end record\n");
		exit(2);
	}
	b->n = nsrc + samples;
	b->lines = xmalloc(b->n * sizeof *b->lines);
	for (size_t i = 0; i + 1 < nsrc; i++) {
		size_t len = strlen(src[i]) - CRC_TAIL, at = (size_t)(cmd - src[0]) + 11;
		char *tagged = xmalloc(len + sizeof b->machine + 16);
		if (i) {
			memcpy(tagged, src[i], len);
		} else { /* "cmdline":"sender=MACHINE … */
			int t = snprintf(tagged, len + sizeof b->machine + 16, "%.*ssender=%s ", (int)at, src[0], b->machine);
			memcpy(tagged + t, src[0] + at, len - at);
			len += (size_t)t - at;
		}
		b->lines[k++] = with_crc(tagged, len);
		free(tagged);
	}
	for (size_t i = 0; i < samples; i++) {
		int len = snprintf(body, sizeof body, "{\"type\":\"samples\",\"seq\":%zu,\"name\":\"tsc\",\"offset\":%zu,"
				   "\"values\":[%zu,21,20,%zu]", k, 4 * i, 20 + i % 7, 22 + i % 3);
		b->lines[k++] = with_crc(body, (size_t)len);
	}
	for (size_t i = 0; i < k; i++) {
		crc = crc32_update(crc, b->lines[i], strlen(b->lines[i]));
		crc = crc32_update(crc, "\n", 1);
	}
	tail += 9 + 8; /* past "crc32":"XXXXXXXX */
	{
		size_t rest = strlen(tail) - CRC_TAIL;
		int len = snprintf(body, sizeof body, "{\"type\":\"end\",\"seq\":%zu,\"records\":%zu,\"crc32\":\"%08x%.*s", k,
				   k, crc, (int)rest, tail);
		b->lines[k++] = with_crc(body, (size_t)len);
	}
}

static bool reconnect(struct conn *c)
{
	int one = 1;

	if (c->fd >= 0)
		close(c->fd);
	c->have = 0;
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0 || connect(c->fd, (const struct sockaddr *)&plan.addr, sizeof plan.addr)) {
		snprintf(c->failure, sizeof c->failure, "connect: %s", strerror(errno));
		return false;
	}
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return true;
}

/* The answer's status; *close when the collector closes the connection. */
static int answer(struct conn *c, bool *close_it)
{
	char *end, *p;
	long length = 0;
	size_t head;
	int status;

	while (!(end = memmem(c->in, c->have, "\r\n\r\n", 4))) {
		ssize_t got = c->have < sizeof c->in ? read(c->fd, c->in + c->have, sizeof c->in - c->have) : -1;
		if (got <= 0)
			return -1;
		c->have += (size_t)got;
	}
	head = (size_t)(end - c->in) + 4;
	*end = 0;
	if (sscanf(c->in, "HTTP/1.%*d %d", &status) != 1)
		return -1;
	if ((p = strcasestr(c->in, "\r\nContent-Length:")))
		length = strtol(p + 17, NULL, 10);
	*close_it = strcasestr(c->in, "\r\nConnection: close") != NULL;
	while (c->have < head + (size_t)length) {
		ssize_t got = c->have < sizeof c->in ? read(c->fd, c->in + c->have, sizeof c->in - c->have) : -1;
		if (got <= 0)
			return -1;
		c->have += (size_t)got;
	}
	memmove(c->in, c->in + head + length, c->have - head - (size_t)length);
	c->have -= head + (size_t)length;
	return status;
}

/* One POST, tried again on a 503: true when answered 204. */
static bool post(struct conn *c, const struct boot *b, const char *body, size_t len, bool hello)
{
	char head[512];

	for (int tries = 0; tries <= RETRIES; tries++) {
		int n = snprintf(head, sizeof head, "POST /log HTTP/1.1\r\nHost: collector\r\nX-Tickprobe-Machine: %s\r\n"
				 "X-Tickprobe-Boot: %s\r\n%s%s%s%sContent-Length: %zu\r\n\r\n", b->machine, b->id,
				 hello ? "X-Tickprobe-Hello: 1\r\n" : "", plan.token ? "X-Tickprobe-Token: " : "",
				 plan.token ? plan.token : "", plan.token ? "\r\n" : "", len);
		struct iovec v[2] = { { head, (size_t)n }, { (void *)body, len } };
		bool close_it = false;
		int status;
		if ((c->fd < 0 && !reconnect(c)) || writev(c->fd, v, 2) != (ssize_t)(n + (int)len))
			status = -1;
		else
			status = answer(c, &close_it);
		c->requests++;
		if (status < 0 || close_it) {
			close(c->fd);
			c->fd = -1;
		}
		if (status == 204)
			return true;
		if (status != 503) {
			snprintf(c->failure, sizeof c->failure, "%s: answered %d", b->machine, status);
			return false;
		}
		c->retries++;
		usleep(20000);
	}
	snprintf(c->failure, sizeof c->failure, "%s: 503 more than %d times", b->machine, RETRIES);
	return false;
}

/* The boot's next body: per_body records, "\n"-separated. */
static bool next_body(struct conn *c, struct boot *b, char **buf, size_t *cap)
{
	size_t len = 0, stop = b->next + plan.per_body < b->n ? b->next + plan.per_body : b->n;

	for (size_t i = b->next; i < stop; i++) {
		size_t n = strlen(b->lines[i]);
		if (len + n + 1 > *cap) {
			*cap = 2 * (len + n + 1);
			*buf = xrealloc(*buf, *cap);
		}
		memcpy(*buf + len, b->lines[i], n);
		len += n;
		(*buf)[len++] = '\n';
	}
	b->next = stop;
	return post(c, b, *buf, len - 1, false);
}

/* Every body of boot b, one after the other, after its hello. */
static void one_boot(struct conn *c, struct boot *b, char **buf, size_t *cap)
{
	if (!post(c, b, "", 0, true))
		c->failed++;
	while (b->next < b->n && !c->failed)
		if (!next_body(c, b, buf, cap))
			c->failed++;
}

/* Every boot's hello, then the next body of each in turn. */
static void interleaved(struct conn *c, char **buf, size_t *cap)
{
	bool more = true;

	for (size_t i = 0; i < c->n && !c->failed; i++)
		if (!post(c, c->boots[i], "", 0, true))
			c->failed++;
	while (more && !c->failed) {
		more = false;
		for (size_t i = 0; i < c->n && !c->failed; i++) {
			struct boot *b = c->boots[i];
			if (b->next < b->n && !next_body(c, b, buf, cap))
				c->failed++;
			more = more || b->next < b->n;
		}
	}
}

static void *run(void *arg)
{
	struct conn *c = arg;
	char *buf = NULL;
	size_t cap = 0;

	if (plan.interleave)
		interleaved(c, &buf, &cap);
	for (size_t i = 0; !plan.interleave && i < c->n && !c->failed; i++)
		one_boot(c, c->boots[i], &buf, &cap);
	free(buf);
	if (c->fd >= 0)
		close(c->fd);
	return NULL;
}

static void write_expected(const char *dir, const struct boot *b)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s.log", dir, b->machine);
	if (!(f = fopen(path, "w"))) {
		fprintf(stderr, "collect_send: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	for (size_t i = 0; i < b->n; i++)
		fprintf(f, "%s\n", b->lines[i]);
	fclose(f);
}

static bool parse_addr(const char *s, struct sockaddr_in *a)
{
	char host[64];
	unsigned port;

	memset(a, 0, sizeof *a);
	a->sin_family = AF_INET;
	if (sscanf(s, "%63[0-9.]:%u", host, &port) != 2 || port > 65535 || inet_pton(AF_INET, host, &a->sin_addr) != 1)
		return false;
	a->sin_port = htons((uint16_t)port);
	return true;
}

static double cpu_seconds(const struct rusage *u)
{
	return (double)(u->ru_utime.tv_sec + u->ru_stime.tv_sec) + (double)(u->ru_utime.tv_usec + u->ru_stime.tv_usec) / 1e6;
}

static void usage(void)
{
	fprintf(stderr, "usage: collect_send --http ADDR:PORT --log FILE [--boots N] [--connections C] [--samples K]\n"
			"                    [--per-body R] [--base B] [--interleave] [--expect DIR]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "http", required_argument, NULL, 'h' }, { "log", required_argument, NULL, 'l' },
		{ "boots", required_argument, NULL, 'n' }, { "connections", required_argument, NULL, 'c' },
		{ "samples", required_argument, NULL, 's' }, { "per-body", required_argument, NULL, 'r' },
		{ "base", required_argument, NULL, 'b' }, { "interleave", no_argument, NULL, 'i' },
		{ "expect", required_argument, NULL, 'e' }, { NULL, 0, NULL, 0 },
	};
	size_t nboots = 1, nconn = 1, samples = 0, base = 0x100, nsrc, records = 0;
	const char *log = NULL, *expect = NULL;
	unsigned long long requests = 0, retries = 0, failed = 0;
	struct timespec t0, t1;
	struct rusage use;
	struct boot *boots;
	struct conn *conns;
	char **src;
	int o;
	double spent, cpu;

	plan.per_body = 1;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'h':
			if (!parse_addr(optarg, &plan.addr))
				usage();
			break;
		case 'l':
			log = optarg;
			break;
		case 'n':
		case 'c':
		case 's':
		case 'r':
		case 'b':
			*(o == 'n' ? &nboots : o == 'c' ? &nconn : o == 's' ? &samples : o == 'r' ? &plan.per_body : &base) =
				strtoul(optarg, NULL, 0);
			break;
		case 'i':
			plan.interleave = true;
			break;
		case 'e':
			expect = optarg;
			break;
		default:
			usage();
		}
	}
	if (!log || !plan.addr.sin_port || !nboots || !nconn || !plan.per_body || nconn > nboots)
		usage();
	plan.token = getenv("TICKPROBE_TOKEN");
	src = read_records(log, &nsrc);
	if (nsrc < 2)
		usage();
	boots = xmalloc(nboots * sizeof *boots);
	conns = xmalloc(nconn * sizeof *conns);
	memset(boots, 0, nboots * sizeof *boots);
	memset(conns, 0, nconn * sizeof *conns);
	for (size_t i = 0; i < nconn; i++) {
		conns[i].fd = -1;
		conns[i].boots = xmalloc((nboots / nconn + 1) * sizeof *conns[i].boots);
	}
	for (size_t i = 0; i < nboots; i++) {
		size_t m = base + i;
		struct conn *c = &conns[i % nconn];
		snprintf(boots[i].machine, sizeof boots[i].machine, "52-54-00-%02zx-%02zx-%02zx", m >> 16 & 255, m >> 8 & 255,
			 m & 255);
		snprintf(boots[i].id, sizeof boots[i].id, "%s-%016zx", boots[i].machine, 0x1000 + i);
		make_boot(&boots[i], src, nsrc, samples);
		records += boots[i].n;
		if (expect)
			write_expected(expect, &boots[i]);
		c->boots[c->n++] = &boots[i];
	}
	getrusage(RUSAGE_SELF, &use);
	cpu = cpu_seconds(&use);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < nconn; i++)
		if (pthread_create(&conns[i].thread, NULL, run, &conns[i]))
			exit(2);
	for (size_t i = 0; i < nconn; i++) {
		pthread_join(conns[i].thread, NULL);
		requests += conns[i].requests;
		retries += conns[i].retries;
		failed += conns[i].failed;
		if (conns[i].failed)
			fprintf(stderr, "collect_send: connection %zu: %s\n", i, conns[i].failure);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	spent = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	getrusage(RUSAGE_SELF, &use);
	cpu = cpu_seconds(&use) - cpu;
	printf("records: %zu in %.2f s: %.0f records/s; sender CPU %.2f s; requests: %llu, 503 tried again: %llu, "
	       "failed: %llu\n", records, spent, (double)records / spent,
	       cpu, requests, retries, failed);
	return failed ? 1 : 0;
}
