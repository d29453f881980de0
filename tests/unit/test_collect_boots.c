/* SPDX-License-Identifier: BSD-2-Clause */
/* The collector's per-boot table (tools/collect/boots.c), its log directory
 * (spool.c), its sender and record checks (sender.c, record.c), without a
 * network: order, copies, the end, the file numbering, silence, the memory
 * and disk bounds a sender cannot get past, eviction for a hello, and links
 * in the log directory (the loopback test, tests/net/test_collect.sh,
 * cannot reach all of them). */
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/crc32.h"
#include "tests/unit/check.h"
#include "tools/collect/boots.h"
#include "tools/collect/boots_state.h"
#include "tools/collect/record.h"
#include "tools/collect/sender.h"
#include "tools/collect/spool.h"
#include "tools/lib/logread.h"

#define M "52-54-00-12-34-56"
#define ADDR 0x0100007fu /* 127.0.0.1 */

static struct sender who(const char *machine, const char *boot, uint32_t source)
{
	struct sender s;

	memset(&s, 0, sizeof s);
	snprintf(s.machine, sizeof s.machine, "%s", machine);
	snprintf(s.boot, sizeof s.boot, "%s", boot);
	s.source = source;
	return s;
}

/* A table on dir with the default limits but for log_bytes and per_source. */
static struct boots *table(const char *dir, uint64_t log_bytes, unsigned per_source)
{
	struct boots_limits lim = { log_bytes, per_source, 60 };
	char why[300];
	int fd = spool_open(dir, why, sizeof why);

	if (fd < 0) {
		printf("FAIL: spool_open %s: %s\n", dir, why);
		exit(1);
	}
	return boots_new(fd, &lim);
}

static int take_raw(struct boots *b, const char *boot, uint64_t seq, const char *text, size_t n, uint32_t source)
{
	struct sender s = who(M, boot, source);

	return boots_take(b, &s, seq, false, text, n, 1);
}

/* A record line with its crc; an end (n > 0) carries the crc32 of the n before it. */
static char *rec(char *buf, size_t cap, const char *type, unsigned seq, const char *extra)
{
	int k = snprintf(buf, cap, "{\"type\":\"%s\",\"seq\":%u%s", type, seq, extra);
	snprintf(buf + k, cap - (size_t)k, ",\"crc\":\"%08x\"}", crc32_update(0, buf, (size_t)k));
	return buf;
}

struct log {
	char lines[8][128];
	uint32_t crc;
};

/* begin, machine … : n records before an end that checks out. */
static void make_log(struct log *l, unsigned n)
{
	char extra[64];

	l->crc = 0;
	for (unsigned i = 0; i < n; i++) {
		rec(l->lines[i], sizeof l->lines[i], i ? "note" : "begin", i, i ? ",\"x\":1" : ",\"schema\":2");
		l->crc = crc32_update(l->crc, l->lines[i], strlen(l->lines[i]));
		l->crc = crc32_update(l->crc, "\n", 1);
	}
	snprintf(extra, sizeof extra, ",\"records\":%u,\"crc32\":\"%08x\",\"status\":\"ok\"", n, l->crc);
	rec(l->lines[n], sizeof l->lines[n], "end", n, extra);
}

static int take(struct boots *b, const char *boot, const char *line, double now)
{
	struct record_check rc = { 0 };
	struct record_info info;
	char copy[256], why[128];
	size_t n = strlen(line);
	int r;

	memcpy(copy, line, n + 1);
	if (!record_check(&rc, copy, &n, &info, why, sizeof why)) {
		record_check_free(&rc);
		return -1;
	}
	struct sender s = who(M, boot, ADDR);
	r = boots_take(b, &s, info.seq, info.is_end, copy, n, now);
	record_check_free(&rc);
	return r;
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = 0;
	return buf;
}

static void order_and_end(const char *dir)
{
	struct boots *b = table(dir, 1u << 20, 256);
	struct sender other = who("52-54-00-00-00-01", M "-b", ADDR);
	struct boot_event ev;
	struct log l;
	char want[1024] = "", path[512];
	int order[] = { 2, 0, 0, 3, 1, 2 }, expect[] = { TAKE_HELD, TAKE_STORED, TAKE_DUPLICATE, TAKE_HELD,
							 TAKE_STORED, TAKE_DUPLICATE };

	make_log(&l, 3);
	for (int i = 0; i < 6; i++) {
		int r = take(b, M "-a", l.lines[order[i]], 1);
		check(r == expect[i], "seq %d as record %d of 6: %d, want %d", order[i], i + 1, r, expect[i]);
	}
	for (int i = 0; i < 4; i++)
		strcat(strcat(want, l.lines[i]), "\n");
	snprintf(path, sizeof path, "%s/" M "/0000.log", dir);
	check(!strcmp(slurp(path), want), "the file holds the four records in seq order, once each");
	check(take(b, M "-a", l.lines[1], 2) == TAKE_DUPLICATE, "a copy after the end is a duplicate");
	check(COND(boots_next_event(b, 2, false, &ev)) && COND(ev.kind == EVENT_ENDED) && COND(ev.records == 4) &&
		      COND(!strcmp(ev.file, "0000.log")),
	      "the end written: one EVENT_ENDED, 0000.log, 4 records");
	check(COND(ev.fd >= 0) && COND(lseek(ev.fd, 0, SEEK_CUR) == 0) && COND(read(ev.fd, path, 8) == 8) &&
		      COND(!memcmp(path, want, 8)),
	      "the event's descriptor reads the log from its start");
	close(ev.fd);
	boots_settle(b, M "-a", true);
	check(take(b, M "-b", l.lines[0], 3) == TAKE_STORED, "a second boot of the machine");
	snprintf(path, sizeof path, "%s/" M "/0001.log", dir);
	check(access(path, F_OK) == 0, "... takes 0001.log");
	check(boots_take(b, &other, 1, false, "{}", 2, 3) == TAKE_MIXED,
	      "a boot id another machine has is refused");
	check(!boots_next_event(b, 62, false, &ev), "silent for 59 s of 60: nothing yet");
	check(COND(boots_next_event(b, 64, false, &ev)) && COND(ev.kind == EVENT_SILENT) && COND(ev.records == 1),
	      "silent past --incomplete-after: EVENT_SILENT with its one record");
	check(ev.fd == -1, "a silent boot's event carries no descriptor");
	check(take(b, M "-b", l.lines[1], 70) == TAKE_STORED, "heard again, the silent boot goes on");
	boots_free(b);
}

static void bounds(const char *dir)
{
	struct boots *b = table(dir, 1u << 30, BOOTS_ACTIVE_MAX);
	static char big[64 * 1024];
	struct sender s;
	char id[64];
	int r = TAKE_HELD;
	unsigned k;

	memset(big, 'x', sizeof big);
	/* 4 MiB a boot: 64 KiB records from seq 1 on (seq 0 never comes). */
	for (k = 1; k < 200 && r == TAKE_HELD; k++)
		r = take_raw(b, M "-held", k, big, sizeof big, ADDR);
	check(r == TAKE_BUSY, "held out of order: refused as busy past %u bytes a boot", BOOTS_HELD_BOOT);
	check(k - 2 == (BOOTS_HELD_BOOT / (sizeof big + 64)), "... after %u records", k - 2);
	boots_free(b);
	/* 64 MiB in all, over boots of 60 records (3.75 MiB) each that said
	 * hello: none of them makes room. */
	b = table(dir, 1u << 30, BOOTS_ACTIVE_MAX);
	r = TAKE_HELD;
	for (k = 0; k < 100000 && r != TAKE_BUSY; k++) {
		snprintf(id, sizeof id, "%s-%u", M, k / 60);
		s = who(M, id, ADDR);
		if (k % 60 == 0)
			boots_hello(b, &s, 1);
		r = boots_take(b, &s, 1 + k % 60, false, big, sizeof big, 1);
	}
	check(r == TAKE_BUSY, "held out of order in all, by boots that said hello: refused past %u bytes",
	      BOOTS_HELD_TOTAL);
	check(k - 1 == BOOTS_HELD_TOTAL / (sizeof big + 64), "... after %u records", k - 1);
	boots_free(b);
}

/* A boot whose end is written is no longer in progress from its address,
 * however long the main thread takes to import it: four of them waiting
 * for their import leave room at --max-boots-per-source 4. */
static void ended_not_in_progress(const char *dir)
{
	struct boots *b = table(dir, 1u << 30, 4);
	char id[64];
	struct log l;
	int r = TAKE_STORED;

	make_log(&l, 1);
	for (unsigned k = 0; k < 4; k++) {
		snprintf(id, sizeof id, "%s-ended-%u", M, k);
		r = take(b, id, l.lines[0], 1) == TAKE_STORED ? take(b, id, l.lines[1], 1) : -1;
	}
	check(r == TAKE_STORED, "four boots from one address, each ended, none imported yet");
	check(take(b, M "-fifth", l.lines[0], 1) == TAKE_STORED,
	      "a fifth from that address is taken at --max-boots-per-source 4");
	boots_free(b);
}

/* Boots that never said hello (syslog's, which anyone can forge) cannot
 * lock out one that does. */
static void eviction(const char *dir)
{
	struct boots *b = table(dir, 1u << 30, 4);
	struct boots_counts n;
	struct boot_event ev;
	struct sender s;
	char id[64];
	int r = TAKE_HELD;
	unsigned k;

	for (k = 0; k < 5 && r == TAKE_HELD; k++) {
		snprintf(id, sizeof id, "%s-one-%u", M, k);
		r = take_raw(b, id, 1, "x", 1, ADDR);
	}
	check(COND(r == TAKE_SOURCE) && COND(k == 5),
	      "one address: a fifth boot in progress is refused at --max-boots-per-source 4");
	boots_free(b);
	ended_not_in_progress(dir);
	b = table(dir, 1u << 30, 4);
	for (k = 0, r = TAKE_HELD; k < BOOTS_ACTIVE_MAX && r == TAKE_HELD; k++) {
		snprintf(id, sizeof id, "%s-n%u", M, k);
		r = take_raw(b, id, 1, "x", 1, ADDR + (k << 8));
	}
	check(COND(r == TAKE_HELD) && COND(k == BOOTS_ACTIVE_MAX),
	      "%d boots from as many forged addresses fill the table", BOOTS_ACTIVE_MAX);
	s = who(M, M "-real", ADDR + 0x10000000u);
	check(boots_hello(b, &s, 2), "a hello still gets a place: the table was full of boots that never said hello");
	boots_counts(b, &n);
	check(COND(n.evicted == 1) && COND(n.active == BOOTS_ACTIVE_MAX), "one evicted (%llu), %u in progress",
	      (unsigned long long)n.evicted, n.active);
	check(!boots_next_event(b, 2, false, &ev), "an evicted boot with nothing on disk leaves no line");
	check(take_raw(b, M "-n0", 1, "x", 1, ADDR) == TAKE_HELD, "the oldest was the one evicted: it starts anew");
	for (k = 0; k < BOOTS_ACTIVE_MAX; k++) {
		snprintf(id, sizeof id, "%s-g%u", M, k);
		s = who(M, id, ADDR + ((k + 1) << 16));
		if (!boots_hello(b, &s, 3))
			break;
	}
	check(k == BOOTS_ACTIVE_MAX - 1, "hellos take every place but the one that said hello first (%u of %d)", k,
	      BOOTS_ACTIVE_MAX - 1);
	s = who(M, M "-late", ADDR + 0x20000000u);
	check(!boots_hello(b, &s, 4), "a table of boots that all said hello has no room: busy");
	boots_free(b);
}

/* The disk a boot can take, and links in the log directory. */
static void disk(const char *dir)
{
	struct boots *b = table(dir, 600, 256);
	struct boot_event ev;
	struct stat st;
	char line[256], path[512], why[300];
	int r = TAKE_STORED, fd;
	unsigned k;

	for (k = 0; k < 20 && r == TAKE_STORED; k++)
		r = take(b, M "-big", rec(line, sizeof line, k ? "note" : "begin", k, ",\"pad\":\"0123456789012345678901234567890123456789\""), 1);
	snprintf(path, sizeof path, "%s/" M "/0002.log", dir);
	check(COND(r == TAKE_CUT) && COND(!stat(path, &st)) && COND(st.st_size <= 600),
	      "a log that would pass --max-log-bytes 600 is cut: record %u refused, the file %lld bytes", k - 1,
	      (long long)st.st_size);
	check(COND(boots_next_event(b, 2, false, &ev)) && COND(ev.kind == EVENT_CUT) && COND(ev.fd >= 0),
	      "... and handed to the main thread as EVENT_CUT, with its descriptor");
	close(ev.fd);
	boots_settle(b, M "-big", false);
	check(take(b, M "-big", rec(line, sizeof line, "note", 30, ""), 3) == TAKE_CUT, "later records of it: refused");
	boots_free(b);

	/* Someone who can write in --dir swaps a machine's folder for a link. */
	snprintf(path, sizeof path, "%s/victim", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	close(fd);
	snprintf(path, sizeof path, "%s/evil", dir);
	check(!symlink(dir, path), "a machine folder that is a link to elsewhere");
	b = table(dir, 1u << 20, 256);
	{
		struct sender s = who("evil", "evil-1", ADDR);
		r = boots_take(b, &s, 0, false, line, strlen(line), 1);
	}
	boots_error(b, why, sizeof why);
	check(COND(r == TAKE_FAILED) && COND(strstr(why, "symbolic link")), "is refused, not followed: %s", why);
	snprintf(path, sizeof path, "%s/0000.log", dir);
	check(access(path, F_OK) != 0, "and nothing was written where it points");
	boots_free(b);
	snprintf(path, sizeof path, "%s/open", dir);
	mkdir(path, 0777);
	chmod(path, 0777);
	check(COND(spool_open(path, why, sizeof why) < 0) && COND(strstr(why, "written by other users")),
	      "a --dir others can write is refused: %s", why);
}

/* docs/collect.md's bound on the table's own memory, by design: every boot
 * in progress and every one remembered, with malloc's header, and the table. */
static void bookkeeping(void)
{
	size_t most = (BOOTS_ACTIVE_MAX + BOOTS_KEPT_MAX) * (sizeof(struct boot) + 16) + sizeof(struct boots);

	check(most < 6u << 20, "the table's bookkeeping at its fullest: %zu bytes, under the documented 6 MiB", most);
}

static void senders(void)
{
	struct collect_options o;
	struct sender s;
	const char *why = NULL;
	int v;

	memset(&o, 0, sizeof o);
	v = sender_check(&o, NULL, NULL, NULL, true, ADDR, &s, &why);
	check(v == SENDER_BAD, "a hello without machine or boot: bad (%s)", why ? why : "no reason");
	check(sender_check(&o, M, NULL, NULL, false, ADDR, &s, &why) == SENDER_BAD, "a record without its boot: bad");
	check(sender_check(&o, "../etc", "b", NULL, false, ADDR, &s, &why) == SENDER_BAD, "a machine that is a path: bad");
	check(COND(sender_check(&o, M, M "-1", NULL, true, ADDR, &s, &why) == SENDER_OK) && COND(s.hello) &&
		      COND(!strcmp(s.boot, M "-1")),
	      "a whole hello: taken, its fields copied");
	o.token = "secret";
	check(sender_check(&o, M, M "-1", "wrong", false, ADDR, &s, &why) == SENDER_REFUSED, "a wrong token: refused");
	check(sender_check(&o, NULL, NULL, NULL, true, ADDR, &s, &why) == SENDER_REFUSED,
	      "no token and no names: refused for the token first");
}

/* A line with a good crc of n bytes: dense numbers, a node per two bytes. */
static char *dense(size_t n)
{
	char *s = malloc(n + 1);
	size_t k = (size_t)snprintf(s, n + 1, "{\"type\":\"x\",\"seq\":1,\"v\":[1");

	while (k + 24 < n) {
		s[k++] = ',';
		s[k++] = '1';
	}
	k += (size_t)snprintf(s + k, n + 1 - k, "]");
	snprintf(s + k, n + 1 - k, ",\"crc\":\"%08x\"}", crc32_update(0, s, k));
	return s;
}

/* However large --max-body is, the check's memory is the log reader's:
 * a line past LR_LINE_MAX is refused unparsed, and the node pool never
 * grows past the reader's, which no longer record fits. */
static void long_lines(struct record_check *rc)
{
	struct record_info info;
	char why[160], *s = dense(600 * 1024);
	size_t n = strlen(s), pool;
	bool taken = record_check(rc, s, &n, &info, why, sizeof why);

	pool = malloc_usable_size(rc->nodes);
	check(COND(!taken) && COND(pool < (RECORD_NODES_MAX + 64) * sizeof *rc->nodes),
	      "a 600 KiB record of 300 Ki numbers: refused (%s), the node pool %zu bytes, not past the reader's", why,
	      pool);
	free(s);
	s = dense(LR_LINE_MAX + 4096);
	n = strlen(s);
	check(COND(!record_check(rc, s, &n, &info, why, sizeof why)) && COND(strstr(why, "no record is longer")),
	      "a line past the reader's 1 MiB: refused unparsed (%s)", why);
	check(malloc_usable_size(rc->nodes) < (RECORD_NODES_MAX + 64) * sizeof *rc->nodes,
	      "... and the node pool did not grow for it");
	free(s);
}

static void record_checks(void)
{
	struct record_check rc = { 0 };
	struct record_info info;
	char line[256], why[128];
	size_t n;

	rec(line, sizeof line, "end", 7, ",\"records\":7");
	strcat(line, "\r");
	n = strlen(line);
	check(COND(record_check(&rc, line, &n, &info, why, sizeof why)) && COND(info.seq == 7) && COND(info.is_end) &&
		      COND(line[n - 1] == '}'),
	      "a record with a CR: taken, CR gone, seq 7, the end");
	line[12] ^= 1;
	n = strlen(line);
	check(COND(!record_check(&rc, line, &n, &info, why, sizeof why)) && COND(strstr(why, "bad record crc")),
	      "a flipped bit: %s", why);
	strcpy(line, "{\"type\":\"x\",\"seq\":1}");
	n = strlen(line);
	check(!record_check(&rc, line, &n, &info, why, sizeof why), "no crc member: %s", why);
	long_lines(&rc);
	check(COND(record_name_ok(M, 64)) && COND(!record_name_ok("../x", 64)) &&
		      COND(!record_name_ok(".hidden", 64)) && COND(!record_name_ok("", 64)) &&
		      COND(!record_name_ok("a/b", 64)) && COND(!record_name_ok("abcde", 4)),
	      "names: a MAC yes; a path, a dot first, empty, a slash, too long no");
	record_check_free(&rc);
}

int main(void)
{
	char dir[] = "/tmp/tickprobe-boots.XXXXXX";
	char cmd[128];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	order_and_end(dir);
	bounds(dir);
	eviction(dir);
	disk(dir);
	bookkeeping();
	senders();
	record_checks();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd))
		printf("could not remove %s\n", dir);
	return check_done();
}
