/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness: the collector's handling of what the network brings
 * (tools/collect/), through the functions its threads call: an HTTP
 * request's head, body pieces and end (request.h, as http.c hands them
 * over from libmicrohttpd), a syslog datagram (datagram.h, as syslog.c
 * hands it over), and the main thread's events (finisher_next: each
 * finished log checked and, with a store, imported).  The logs go to a
 * private directory of its own under $TMPDIR, emptied after each input.
 *
 * Input: a setup byte, then operations until the input ends.
 *   setup bit 0: senders must give the token "T0ken"
 *         bit 1: finished logs are imported into a store in memory
 *         bit 2: --max-boots-per-source 2 (else 256)
 *         bit 3: --max-log-bytes 4096 (else 32 MiB)
 *         bit 4: --max-body 1024 (else 256 KiB)
 *         bit 5: --incomplete-after 5 s (else 600)
 *   an operation, by its first byte % 4:
 *     0 ('H') an HTTP request: a flags byte (bit 0: POST, else GET; bits 1
 *             to 5: X-Tickprobe-Machine, -Boot, -Token, -Hello and
 *             Content-Length are given; bit 6: a source byte follows), the
 *             values given, each ended by '\n', the source byte, the body's
 *             length (2 bytes, big-endian; cut to what is left), the body,
 *             and a byte: the body is handed over in pieces of 64 times it
 *             (0: whole)
 *     1 ('U') a datagram: a source byte, its length (2 bytes), its bytes
 *     2 ('R') the clock moves on by the next byte's seconds; the events
 *     3 ('S') the same in minutes
 *   At the end the collector stops: every event, stopping.
 * Sources are 127.0.0.N, N the source byte (0: none given, 127.0.0.1).
 *
 * What must hold, else abort(): every answer is one of the documented
 * statuses; a request with a wrong or missing token is 403 and one without
 * a valid machine and boot never 204, and neither stores a record (nor does
 * a datagram refused or bad); the boots in progress stay within their
 * bound; every event's line names a valid machine; no descriptor is left
 * open; and every file written is DIR/MACHINE/NNNN.log within
 * --max-log-bytes, holding whole records with seq 0, 1, 2, … in order, each
 * passing the check.
 * FUZZ_COLLECT_SHOW=1 in the environment prints each answer, datagram
 * verdict and event line on stderr, for reading a seed or a crash input. */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <arpa/inet.h>
#include "tools/collect/boots.h"
#include "tools/collect/datagram.h"
#include "tools/collect/finish.h"
#include "tools/collect/request.h"
#include "tools/collect/spool.h"
#include "tools/lib/xalloc.h"

#define TOKEN "T0ken"
#define FIELD_MAX 300
#define LOG_BYTES_SMALL 4096u

struct input {
	const uint8_t *p, *end;
};

/* The one struct this harness owns: what lasts from one input to the next. */
static struct {
	char base[256]; /* the private directory; the logs in base/logs */
	char logs[300];
	int fd_mark;    /* the lowest free descriptor once set up */
	bool show;      /* FUZZ_COLLECT_SHOW */
} fz;

static unsigned byte(struct input *in)
{
	return in->p < in->end ? *in->p++ : 0;
}

static size_t length(struct input *in)
{
	size_t n = byte(in) << 8;

	n |= byte(in);
	return n < (size_t)(in->end - in->p) ? n : (size_t)(in->end - in->p);
}

/* A header's value, up to '\n': at most FIELD_MAX - 1 bytes, as a string. */
static const char *field(struct input *in, char *out)
{
	size_t k = 0;

	while (in->p < in->end && *in->p != '\n') {
		if (k + 1 < FIELD_MAX)
			out[k++] = (char)*in->p;
		in->p++;
	}
	if (in->p < in->end)
		in->p++;
	out[k] = 0;
	return out;
}

static uint32_t source(unsigned n)
{
	return htonl(0x7f000000u | (n ? n : 1));
}

static bool name_ok(const char *s, size_t max)
{
	size_t n = s ? strlen(s) : 0;

	return n && n <= max && s[0] != '.' &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

static uint64_t stored(struct boots *b)
{
	struct boots_counts c;

	boots_counts(b, &c);
	if (c.active > BOOTS_ACTIVE_MAX)
		abort();
	return c.stored;
}

static void http(struct intake *in, struct input *src, double now)
{
	char machine[FIELD_MAX], boot[FIELD_MAX], token[FIELD_MAX], length_s[FIELD_MAX];
	unsigned flags = byte(src);
	struct request_head h = { .method = flags & 1 ? "POST" : "GET" };
	uint64_t before = stored(in->boots);
	struct request rq;
	struct answer a;
	const uint8_t *body;
	size_t n, piece;
	bool named;

	h.machine = flags & 2 ? field(src, machine) : NULL;
	h.boot = flags & 4 ? field(src, boot) : NULL;
	h.token = flags & 8 ? field(src, token) : NULL;
	h.hello = flags & 16 ? "1" : NULL;
	h.length = flags & 32 ? field(src, length_s) : NULL;
	h.source = source(flags & 64 ? byte(src) : 0);
	n = length(src);
	body = src->p;
	src->p += n;
	piece = 64 * (size_t)byte(src);
	if (request_start(in, &h, &rq, &a)) {
		for (size_t off = 0; off < n; off += piece ? piece : n)
			request_body(in, &rq, body + off, piece && n - off > piece ? piece : n - off);
		request_end(in, &rq, now, &a);
	} else if (!a.close || a.status == HTTP_NO_CONTENT) {
		abort(); /* refused on the head: closed, the body unread */
	}
	request_free(&rq);
	if (fz.show)
		fprintf(stderr, "http %s %s: %u %s\n", h.machine ? h.machine : "-", h.boot ? h.boot : "-", a.status,
			a.why);
	if (a.status != HTTP_NO_CONTENT && a.status != HTTP_BAD_REQUEST && a.status != HTTP_FORBIDDEN &&
	    a.status != HTTP_METHOD_NOT_ALLOWED && a.status != HTTP_CONTENT_TOO_LARGE &&
	    a.status != HTTP_SERVICE_UNAVAILABLE)
		abort();
	if ((a.status == HTTP_NO_CONTENT) != !a.why[0])
		abort();
	named = name_ok(h.machine, BOOTS_MACHINE_MAX) && name_ok(h.boot, BOOTS_ID_MAX);
	if (in->o->token && (!h.token || strcmp(h.token, TOKEN)) && (flags & 1) && a.status != HTTP_FORBIDDEN)
		abort();
	if ((!named && a.status == HTTP_NO_CONTENT) ||
	    ((!named || a.status == HTTP_FORBIDDEN) && stored(in->boots) != before))
		abort();
}

static void datagram(struct intake *in, struct input *src, double now)
{
	uint32_t from = source(byte(src));
	size_t n = length(src);
	char *copy = xrealloc(NULL, n + 1); /* its own bytes: the parse edits them */
	uint64_t before = stored(in->boots);
	int verdict;

	memcpy(copy, src->p, n);
	src->p += n;
	verdict = datagram_take(in, copy, n, from, now);
	free(copy);
	if (fz.show)
		fprintf(stderr, "datagram: verdict %d\n", verdict);
	if (verdict != DATAGRAM_TAKEN && stored(in->boots) != before)
		abort();
}

static void events(struct finisher *f, struct boots *b, double now, bool stopping, double incomplete_after)
{
	char line[1024];

	while (finisher_next(f, b, now, stopping, incomplete_after, line, sizeof line)) {
		char *space = strchr(line, ' ');
		if (!space)
			abort();
		*space = 0;
		if (!name_ok(line, BOOTS_MACHINE_MAX)) /* a boot in the table under a name never checked */
			abort();
		*space = ' ';
		if (fz.show)
			fprintf(stderr, "event: %s\n", line);
	}
}

/* One log: whole records, seq 0, 1, 2, … in order, each passing the check. */
static void check_log(struct record_check *rc, int fd, uint64_t limit)
{
	struct stat st;
	char *text, why[256];
	size_t at = 0;
	uint64_t seq = 0;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > limit)
		abort();
	text = xrealloc(NULL, (size_t)st.st_size + 1);
	if (read(fd, text, (size_t)st.st_size) != st.st_size)
		abort();
	while (at < (size_t)st.st_size) {
		char *nl = memchr(text + at, '\n', (size_t)st.st_size - at);
		struct record_info info;
		size_t n;
		if (!nl)
			abort();
		n = (size_t)(nl - (text + at));
		if (!record_check(rc, text + at, &n, &info, why, sizeof why) || info.seq != seq++)
			abort();
		at = (size_t)(nl - text) + 1;
	}
	free(text);
}

/* Every file the table wrote checked, then removed with its folder. */
static void check_and_empty(struct record_check *rc, uint64_t limit)
{
	int dfd = open(fz.logs, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *e;

	if (!d)
		abort();
	while ((e = readdir(d))) {
		int mfd;
		DIR *m;
		struct dirent *l;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!name_ok(e->d_name, BOOTS_MACHINE_MAX))
			abort();
		mfd = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (mfd < 0 || !(m = fdopendir(mfd)))
			abort();
		while ((l = readdir(m))) {
			int fd;
			if (!strcmp(l->d_name, ".") || !strcmp(l->d_name, ".."))
				continue;
			if (strlen(l->d_name) < 8 || strspn(l->d_name, "0123456789") != strlen(l->d_name) - 4 ||
			    strcmp(l->d_name + strlen(l->d_name) - 4, ".log"))
				abort();
			fd = openat(mfd, l->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				abort();
			check_log(rc, fd, limit);
			close(fd);
			unlinkat(mfd, l->d_name, 0);
		}
		closedir(m);
		if (unlinkat(dfd, e->d_name, AT_REMOVEDIR))
			abort();
	}
	closedir(d);
}

/* At the exit: the directory, emptied after every input, goes too. */
static void remove_base(void)
{
	rmdir(fz.logs);
	rmdir(fz.base);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	snprintf(fz.base, sizeof fz.base, "%s/fuzz-collect.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	if (!mkdtemp(fz.base))
		abort();
	snprintf(fz.logs, sizeof fz.logs, "%s/logs", fz.base);
	atexit(remove_base);
	fz.show = getenv("FUZZ_COLLECT_SHOW") != NULL;
	fz.fd_mark = dup(0);
	close(fz.fd_mark);
	return 0;
}

static void options_from(unsigned setup, struct collect_options *o, struct boots_limits *lim)
{
	memset(o, 0, sizeof *o);
	o->token = setup & 1 ? TOKEN : NULL;
	o->max_body = setup & 16 ? 1024 : 256 * 1024;
	o->max_log_bytes = setup & 8 ? LOG_BYTES_SMALL : 32u << 20;
	o->per_source = setup & 4 ? 2 : 256;
	o->incomplete_after = setup & 32 ? 5 : 600;
	lim->log_bytes = o->max_log_bytes;
	lim->per_source = o->per_source;
	lim->incomplete_after = (double)o->incomplete_after;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input src = { data, data + size };
	unsigned setup = byte(&src);
	struct collect_options o;
	struct collect_counts counts;
	struct boots_limits lim;
	struct intake in;
	struct finisher *fin;
	char why[512];
	double now = 1000;
	int dirfd, probe;

	options_from(setup, &o, &lim);
	memset(&counts, 0, sizeof counts);
	if ((dirfd = spool_open(fz.logs, why, sizeof why)) < 0)
		abort();
	fin = finisher_open(fz.logs, setup & 2 ? ":memory:" : NULL, o.max_log_bytes, why, sizeof why);
	if (!fin)
		abort();
	in = (struct intake){ .o = &o, .boots = boots_new(dirfd, &lim), .counts = &counts };
	while (src.p < src.end) {
		unsigned kind = byte(&src) % 4;
		if (kind == 0)
			http(&in, &src, now);
		else if (kind == 1)
			datagram(&in, &src, now);
		else
			now += (double)byte(&src) * (kind == 3 ? 60 : 1);
		if (kind >= 2)
			events(fin, in.boots, now, false, lim.incomplete_after);
	}
	events(fin, in.boots, now, false, lim.incomplete_after);
	events(fin, in.boots, now, true, lim.incomplete_after);
	boots_free(in.boots);
	finisher_close(fin);
	check_and_empty(&in.rc, lim.log_bytes);
	record_check_free(&in.rc);
	probe = dup(0);
	close(probe);
	if (probe != fz.fd_mark) /* a descriptor left open */
		abort();
	return 0;
}
