/* SPDX-License-Identifier: BSD-2-Clause */
/* The log reader (tools/lib/logread.c) and the host loader (tools/lib/logset.c)
 * against whole logs written by the real writer (probe/log.c), clean and
 * damaged.  tests/unit/test_logread_json.c tests the reader's JSON parser and
 * line cleaning, tests/unit/test_logread_schemas.c the two schemas side by
 * side.
 *
 *   test_logread                    run the checks
 *   test_logread --fixtures DIR     write the fixture logs the tool tests use
 *
 * Fixtures: a.log and os.log in schema 2, b.log in schema 1, a1.log the run of
 * a.log in schema 1, two.log a then b in one capture. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tests/unit/check.h"
#include "probe/log.h"
#include "tools/lib/logread.h"
#include "lib/crc32.h"
#include "tools/lib/logset.h"
#include "tools/commands.h"
#include "tests/unit/log_runs.h"

/* ---- helpers ---------------------------------------------------------------- */

static size_t line_starts(const struct buf *b, size_t *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < b->n && n < max; i++)
		if (i == 0 || b->p[i - 1] == '\n')
			out[n++] = i;
	return n;
}

static int load(struct logfile *f, const char *data, size_t n)
{
	return logfile_load_mem(f, "t.log", data, n);
}

/* Every good record is one of the original lines, unchanged. */
static int all_good_are_original(const struct logfile *f, const struct buf *orig)
{
	for (size_t k = 0; k < f->nruns; k++)
		for (size_t i = 0; i < f->runs[k].nrecs; i++) {
			const struct lrec *r = &f->runs[k].recs[i];
			char *hit = memmem(orig->p, orig->n, r->text, r->len);
			if (!hit || (hit != orig->p && hit[-1] != '\n') || hit[r->len] != '\n')
				return 0;
		}
	return 1;
}

static int has_problem(const struct logfile *f, const char *word)
{
	for (size_t k = 0; k < f->nruns; k++)
		for (size_t i = 0; i < f->runs[k].nprobs; i++)
			if (strstr(f->runs[k].probs[i].msg, word))
				return 1;
	for (size_t i = 0; i < f->nprobs; i++)
		if (strstr(f->probs[i].msg, word))
			return 1;
	return 0;
}


/* ---- whole logs ---------------------------------------------------------------- */

static void test_clean_log(void)
{
	struct buf b = { 0 };
	struct logfile f;
	const struct lr_node *t;
	double v;
	write_run(&b, &spec_a);
	check(load(&f, b.p, b.n) == EXIT_CLEAN, "clean log: exit 0");
	check(COND(f.nruns == 1) && COND(f.runs[0].info.has_begin) && COND(f.runs[0].info.has_end) &&
		      COND(f.runs[0].info.end_ok) && COND(!lrun_damaged(&f.runs[0])),
	      "clean log: one complete run, end check agrees");
	check(COND(f.runs[0].nrecs == 10) && COND(f.nprobs == 0) && COND(f.runs[0].nprobs == 0),
	      "clean log: 10 records, no problem");
	check(COND(!strcmp(f.runs[0].name, "t.log")) && COND(!strcmp(f.runs[0].info.status, "ok")),
	      "clean log: name and status");
	t = lrun_timer(&f.runs[0], "hpet");
	check(COND(t) && COND(lr_num(lr_path(t, "cost_ns.p50"), &v)) && COND(v == 521),
	      "clean log: hpet p50 521 ns read back");
	check(COND(lr_str(lr_path(lrun_first(&f.runs[0], "acpi"), "rsdp.oem_id"))) &&
		      COND(!strcmp(lr_str(lr_path(lrun_first(&f.runs[0], "acpi"), "rsdp.oem_id")), "BOCHS\xe9")),
	      "clean log: firmware byte 0xe9 survives the round trip");
	for (size_t i = 0; i < f.runs[0].nrecs; i++)
		if (f.runs[0].recs[i].seq != i || f.runs[0].recs[i].line != i + 1)
			check(0, "clean log: record %zu has seq %llu line %u", i,
			      (unsigned long long)f.runs[0].recs[i].seq, f.runs[0].recs[i].line);
	logfile_free(&f);
	free(b.p);
}

/* The same log as a real console shows it: OVMF's escapes, CRLF, firmware text. */
static struct buf noisy(const struct buf *b)
{
	struct buf o = { 0 };
	size_t st[256], n = line_starts(b, st, 256);
	puts_(&o, "\x1b[2J\x1b[01;01H\x1b[=3h\x1b[2J\x1b[01;01HBdsDxe: loading Boot0001 \"UEFI QEMU HARDDISK\"\r\n");
	puts_(&o, "BdsDxe: starting Boot0001\r\n\x1b[H\x1b[J  Booting `tickprobe'\r\n\r\n");
	for (size_t i = 0; i < n; i++) {
		size_t e = i + 1 < n ? st[i + 1] - 1 : b->n - 1;
		if (i == 2)
			puts_(&o, "tickprobe: measuring hpet ...\r\n");
		if (i == 3)
			puts_(&o, "\x1b[0m");
		put(&o, b->p + st[i], e - st[i]);
		puts_(&o, "\r\n");
	}
	puts_(&o, "\x1b[0mtickprobe: done, status ok\r\n");
	return o;
}

static void test_noise(void)
{
	struct buf b = { 0 }, o;
	struct logfile f, g;
	write_run(&b, &spec_a);
	o = noisy(&b);
	load(&g, b.p, b.n);
	check(COND(load(&f, o.p, o.n) == EXIT_CLEAN) && COND(f.nruns == 1) && COND(f.runs[0].info.end_ok),
	      "noise: CRLF, ANSI escapes, BdsDxe and GRUB text: still a clean run");
	check(COND(f.runs[0].nrecs == g.runs[0].nrecs) && COND(all_good_are_original(&f, &b)),
	      "noise: every record, unchanged");
	logfile_free(&f);
	logfile_free(&g);
	free(b.p);
	free(o.p);
}

static void test_bitflips(const struct runspec *spec)
{
	struct buf b = { 0 };
	size_t st[64], n;
	write_run(&b, spec);
	n = line_starts(&b, st, 64);
	for (size_t i = 0; i < n; i++) {
		size_t e = i + 1 < n ? st[i + 1] : b.n, missed = 0, flips = 0;
		for (size_t k = st[i]; k < e; k++)
			for (int bit = 0; bit < 8; bit++) {
				struct logfile f;
				int s;
				b.p[k] ^= (char)(1 << bit);
				s = load(&f, b.p, b.n);
				b.p[k] ^= (char)(1 << bit); /* restored: b is the original again */
				flips++;
				if (s == EXIT_CLEAN || !all_good_are_original(&f, &b))
					missed++;
				logfile_free(&f);
			}
		check(!missed, "bit flips: schema %d: line %zu: %zu flips, every one excluded or flagged, no changed value "
		      "used (%zu missed)", spec->schema, i + 1, flips, missed);
	}
	free(b.p);
}

static void test_truncation(const struct runspec *spec)
{
	struct buf b = { 0 };
	size_t st[64], n, bad = 0, cuts = 0;
	write_run(&b, spec);
	n = line_starts(&b, st, 64);
	for (size_t i = 0; i < n; i++) {
		size_t e = i + 1 < n ? st[i + 1] : b.n;
		size_t at[2] = { st[i], st[i] + (e - st[i]) / 2 }; /* at the boundary, mid-record */
		for (int k = 0; k < 2; k++) {
			struct logfile f;
			int s = load(&f, b.p, at[k]);
			int want = at[k] <= st[0] + (st[1] - st[0]) - 1 ? EXIT_UNREADABLE : EXIT_DAMAGED;
			cuts++;
			if (s != want || !all_good_are_original(&f, &b) ||
			    (f.nruns && f.runs[f.nruns - 1].info.has_end)) {
				bad++;
				printf("  cut at %zu: exit %d, want %d\n", at[k], s, want);
			}
			logfile_free(&f);
		}
	}
	check(!bad, "truncation: schema %d: %zu cuts at record boundaries and mid-record: all partial (or unreadable), "
	      "none complete", spec->schema, cuts);
	free(b.p);
}

static void test_dup_reorder(void)
{
	struct buf b = { 0 }, o = { 0 };
	size_t st[64], n;
	struct logfile f;
	write_run(&b, &spec_a);
	n = line_starts(&b, st, 64);

	/* line 4 twice */
	put(&o, b.p, st[4]);
	put(&o, b.p + st[3], st[4] - st[3]);
	put(&o, b.p + st[4], b.n - st[4]);
	check(COND(load(&f, o.p, o.n) == EXIT_DAMAGED) && COND(has_problem(&f, "duplicate")) &&
		      COND(f.runs[0].nrecs == n) && COND(f.runs[0].info.end_ok),
	      "duplicate line: excluded and said, the rest checks out (exit 3)");
	logfile_free(&f);

	/* the end line twice */
	o.n = 0;
	put(&o, b.p, b.n);
	put(&o, b.p + st[n - 1], b.n - st[n - 1]);
	check(COND(load(&f, o.p, o.n) == EXIT_DAMAGED) && COND(has_problem(&f, "duplicate of the end")) &&
		      COND(f.nruns == 1),
	      "duplicate end line: excluded and said");
	logfile_free(&f);

	/* lines 5 and 6 swapped */
	o.n = 0;
	put(&o, b.p, st[5]);
	put(&o, b.p + st[6], st[7] - st[6]);
	put(&o, b.p + st[5], st[6] - st[5]);
	put(&o, b.p + st[7], b.n - st[7]);
	check(COND(load(&f, o.p, o.n) == EXIT_DAMAGED) && COND(has_problem(&f, "out of order")) &&
		      COND(!f.runs[0].info.end_ok) && COND(all_good_are_original(&f, &b)),
	      "reordered lines: flagged, end crc32 disagrees (exit 3)");
	logfile_free(&f);

	/* line 6 lost */
	o.n = 0;
	put(&o, b.p, st[6]);
	put(&o, b.p + st[7], b.n - st[7]);
	check(COND(load(&f, o.p, o.n) == EXIT_DAMAGED) && COND(has_problem(&f, "missing")) &&
		      COND(!f.runs[0].info.end_ok),
	      "lost line: seq gap and end count say so");
	logfile_free(&f);
	free(b.p);
	free(o.p);
}

static void test_runs(void)
{
	struct buf a = { 0 }, b = { 0 }, o = { 0 };
	struct logfile f;
	write_run(&a, &spec_a);
	write_run(&b, &spec_b);
	put(&o, a.p, a.n);
	puts_(&o, "\x1b[2J BdsDxe: loading Boot0002\r\n");
	put(&o, b.p, b.n);
	check(COND(load(&f, o.p, o.n) == EXIT_CLEAN) && COND(f.nruns == 2) &&
		      COND(!strcmp(f.runs[0].name, "t.log#1")) && COND(!strcmp(f.runs[1].name, "t.log#2")) &&
		      COND(f.runs[1].info.end_ok),
	      "two boots: two clean runs, t.log#1 and #2");
	logfile_free(&f);

	o.n = 0;
	put(&o, a.p, a.n / 2);
	puts_(&o, "\n");
	put(&o, b.p, b.n);
	check(COND(load(&f, o.p, o.n) == EXIT_DAMAGED) && COND(f.nruns == 2) && COND(!f.runs[0].info.has_end) &&
		      COND(f.runs[1].info.end_ok),
	      "boot cut short, then a second boot: run 1 partial, run 2 complete");
	logfile_free(&f);

	o.n = 0;
	write_run(&o, &spec_new);
	check(COND(load(&f, o.p, o.n) == EXIT_UNREADABLE) && COND(f.runs[0].info.newer_schema) &&
		      COND(has_problem(&f, "newer")) && COND(strstr(f.why, "schema above 2")),
	      "schema %d: unreadable, says newer (%s)", LOG_SCHEMA + 1, f.why);
	logfile_free(&f);

	check(COND(load(&f, "", 0) == EXIT_UNREADABLE) && COND(!strcmp(f.why, "empty file")),
	      "empty input: unreadable");
	logfile_free(&f);
	check(COND(load(&f, "hello\r\nGRUB\n", 12) == EXIT_UNREADABLE) && COND(f.nruns == 0), "text only: unreadable");
	logfile_free(&f);
	free(a.p);
	free(b.p);
	free(o.p);
}

static void test_garbage(void)
{
	struct buf b = { 0 }, o = { 0 };
	struct logfile f;
	uint32_t x = 12345;
	char *big;
	write_run(&b, &spec_a);
	for (int i = 0; i < 4096; i++) {
		char c;
		x = x * 1103515245u + 12345u;
		c = (char)(x >> 16);
		put(&o, c == '{' ? "\0" : &c, 1);
	}
	puts_(&o, "\n");
	put(&o, b.p, b.n);
	check(COND(load(&f, o.p, o.n) == EXIT_CLEAN) && COND(f.runs[0].nrecs == 10),
	      "binary garbage with NULs before the run: skipped");
	logfile_free(&f);
	puts_(&o, "{\"type\":\"timer\",\"seq\":3\x00\xff\xfe garbage\n");
	check(COND(load(&f, o.p, o.n) == EXIT_DAMAGED) && COND(f.nruns == 2) && COND(all_good_are_original(&f, &b)),
	      "a garbage record line after the end: excluded, said");
	logfile_free(&f);

	big = malloc(2u << 20);
	memset(big, 'x', 2u << 20);
	o.n = 0;
	put(&o, big, 2u << 20);
	put(&o, "\n", 1);
	put(&o, b.p, b.n);
	check(COND(load(&f, o.p, o.n) == EXIT_CLEAN) && COND(has_problem(&f, "limit")) && COND(f.nruns == 1) &&
		      COND(f.runs[0].info.end_ok),
	      "2 MB text line: skipped with a note, the run after it is clean");
	logfile_free(&f);
	o.n = 0;
	put(&o, b.p, b.n);
	big[0] = '{';
	put(&o, big, 2u << 20);
	put(&o, "\n", 1);
	check(COND(load(&f, o.p, o.n) == EXIT_DAMAGED) && COND(has_problem(&f, "limit")),
	      "2 MB record line: rejected with the limit");
	logfile_free(&f);
	free(big);
	free(b.p);
	free(o.p);
}

/* ---- fixtures for tests/tools ------------------------------------------------- */

static void save(const char *dir, const char *name, const struct buf *b)
{
	char path[512];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(b->p, 1, b->n, f) != b->n || fclose(f)) {
		fprintf(stderr, "cannot write %s\n", path);
		exit(2);
	}
}

static void save_values(const char *dir, const char *name, const double *v, size_t n)
{
	struct buf b = { 0 };
	char t[64];
	for (size_t i = 0; i < n; i++) {
		snprintf(t, sizeof t, "%.3f\n", v[i]);
		puts_(&b, t);
	}
	save(dir, name, &b);
	free(b.p);
}

static int fixtures(const char *dir)
{
	struct buf a = { 0 }, b = { 0 }, o = { 0 }, s = { 0 };
	size_t st[64];
	mkdir(dir, 0755);
	write_run(&a, &spec_a);
	save(dir, "a.log", &a);
	write_run(&b, &spec_b);
	save(dir, "b.log", &b);
	o.n = 0;
	write_run(&o, &spec_a1);
	save(dir, "a1.log", &o);
	o.n = 0;
	write_run(&o, &spec_os);
	save(dir, "os.log", &o);
	s = noisy(&a);
	save(dir, "noisy.log", &s);
	line_starts(&a, st, 64);
	o.n = 0;
	put(&o, a.p, a.n);
	o.p[st[6] + 40] ^= 4;
	save(dir, "damaged.log", &o);
	o.n = 0;
	put(&o, a.p, st[8] + 30);
	save(dir, "partial.log", &o);
	o.n = 0;
	put(&o, a.p, a.n);
	put(&o, b.p, b.n);
	save(dir, "two.log", &o);
	o.n = 0;
	write_run(&o, &spec_new);
	save(dir, "newer.log", &o);
	o.n = 0;
	save(dir, "empty.log", &o);
	save_values(dir, "a_tsc.txt", r_tsc_a, 8);
	save_values(dir, "b_tsc.txt", r_tsc_b, 8);
	save_values(dir, "a_hpet.txt", r_hpet_a, 8);
	save_values(dir, "b_hpet.txt", r_hpet_b, 8);
	save_values(dir, "os_tsc.txt", r_os_tsc, 8);
	free(a.p);
	free(b.p);
	free(o.p);
	free(s.p);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--fixtures"))
		return fixtures(argv[2]);
	test_clean_log();
	test_noise();
	test_bitflips(&spec_small);
	test_bitflips(&spec_small1);
	test_truncation(&spec_small);
	test_truncation(&spec_small1);
	test_dup_reorder();
	test_runs();
	test_garbage();
	return check_done();
}
