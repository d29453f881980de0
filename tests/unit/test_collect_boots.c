/* SPDX-License-Identifier: BSD-2-Clause */
/* The collector's per-boot table (tools/collect/boots.c) and its record
 * check (tools/collect/record.c), without a network: order, copies, the end,
 * the file numbering, silence, and the memory bounds a sender cannot get
 * past (the loopback test, tests/net/test_collect.sh, cannot reach them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/crc32.h"
#include "tests/unit/check.h"
#include "tools/collect/boots.h"
#include "tools/collect/record.h"

#define M "52-54-00-12-34-56"

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
	r = boots_take(b, M, boot, info.seq, info.is_end, copy, n, now);
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
	struct boots *b = boots_new(dir, 60);
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
	check(boots_next_event(b, 2, false, &ev) && ev.kind == EVENT_ENDED && ev.records == 4 &&
		      !strcmp(ev.file, "0000.log"), "the end written: one EVENT_ENDED, 0000.log, 4 records");
	free(ev.path);
	boots_settle(b, M "-a", true);
	check(take(b, M "-b", l.lines[0], 3) == TAKE_STORED, "a second boot of the machine");
	snprintf(path, sizeof path, "%s/" M "/0001.log", dir);
	check(access(path, F_OK) == 0, "... takes 0001.log");
	check(boots_take(b, "52-54-00-00-00-01", M "-b", 1, false, "{}", 2, 3) == TAKE_MIXED,
	      "a boot id another machine has is refused");
	check(!boots_next_event(b, 62, false, &ev), "silent for 59 s of 60: nothing yet");
	check(boots_next_event(b, 64, false, &ev) && ev.kind == EVENT_SILENT && ev.records == 1,
	      "silent past --incomplete-after: EVENT_SILENT with its one record");
	free(ev.path);
	check(take(b, M "-b", l.lines[1], 70) == TAKE_STORED, "heard again, the silent boot goes on");
	boots_free(b);
}

static void bounds(const char *dir)
{
	struct boots *b = boots_new(dir, 60);
	static char big[64 * 1024];
	char id[64];
	int r = TAKE_HELD;
	unsigned k;

	memset(big, 'x', sizeof big);
	/* 4 MiB a boot: 64 KiB records from seq 1 on (seq 0 never comes). */
	for (k = 1; k < 200 && r == TAKE_HELD; k++)
		r = boots_take(b, M, M "-held", k, false, big, sizeof big, 1);
	check(r == TAKE_BUSY && k - 2 == (BOOTS_HELD_BOOT / (sizeof big + 64)),
	      "held out of order: refused as busy past %u bytes a boot (after %u records)", BOOTS_HELD_BOOT, k - 2);
	boots_free(b);
	/* 64 MiB in all, over several boots of 60 records (3.75 MiB) each. */
	b = boots_new(dir, 60);
	r = TAKE_HELD;
	for (k = 0; k < 100000 && r != TAKE_BUSY; k++) {
		snprintf(id, sizeof id, "%s-%u", M, k / 60);
		r = boots_take(b, M, id, 1 + k % 60, false, big, sizeof big, 1);
	}
	check(r == TAKE_BUSY && k - 1 == BOOTS_HELD_TOTAL / (sizeof big + 64),
	      "held out of order in all: refused as busy past %u bytes (after %u records)", BOOTS_HELD_TOTAL, k - 1);
	boots_free(b);
	b = boots_new(dir, 60);
	for (k = 0, r = TAKE_HELD; k < BOOTS_ACTIVE_MAX + 5 && r != TAKE_BUSY; k++) {
		snprintf(id, sizeof id, "%s-n%u", M, k);
		r = boots_take(b, M, id, 1, false, "x", 1, 1);
	}
	check(r == TAKE_BUSY && k == BOOTS_ACTIVE_MAX + 1, "boots in progress: a new one past %d is busy",
	      BOOTS_ACTIVE_MAX);
	check(!boots_room(b, M "-other") && boots_room(b, M "-n3"), "the hello's answer: no room for a new boot only");
	boots_free(b);
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
	check(record_check(&rc, line, &n, &info, why, sizeof why) && info.seq == 7 && info.is_end && line[n - 1] == '}',
	      "a record with a CR: taken, CR gone, seq 7, the end");
	line[12] ^= 1;
	n = strlen(line);
	check(!record_check(&rc, line, &n, &info, why, sizeof why) && strstr(why, "bad record crc"), "a flipped bit: %s",
	      why);
	strcpy(line, "{\"type\":\"x\",\"seq\":1}");
	n = strlen(line);
	check(!record_check(&rc, line, &n, &info, why, sizeof why), "no crc member: %s", why);
	check(record_name_ok(M, 64) && !record_name_ok("../x", 64) && !record_name_ok(".hidden", 64) &&
		      !record_name_ok("", 64) && !record_name_ok("a/b", 64) && !record_name_ok("abcde", 4),
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
	record_checks();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd))
		printf("could not remove %s\n", dir);
	return check_done();
}
